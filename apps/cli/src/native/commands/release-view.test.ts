import type { RelayEnvelope } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import type { JqRunner } from '../export/export-output.js';
import type { RelayPort, RelayRead } from '../relay-port.js';
import { runReleaseView } from './release-view.js';

const REPO = {
  repo: { host: 'github.com', owner: 'OWNER', name: 'REPO' },
  source: 'flag' as const,
};

function envelope(body: unknown, status = 200): RelayEnvelope {
  return {
    status,
    headers: {},
    body,
    body_encoding: 'json',
    relay: {
      pool: 'team',
      request_id: 'r',
      cacheable: true,
      cache: 'miss',
      route_kind: 'release_view',
    },
  } as unknown as RelayEnvelope;
}

function fakePort(answer: RelayEnvelope): RelayPort & { reads: RelayRead[] } {
  const reads: RelayRead[] = [];
  return {
    reads,
    read(request) {
      reads.push(request);
      return Promise.resolve({ kind: 'served', envelope: answer });
    },
  };
}

const noJq: JqRunner = () => Promise.resolve('missing');

/** The body of release/view/view_test.go "view machine-readable" (frozen time +02:00). */
function ghFixture(body: string): Record<string, unknown> {
  return {
    tag_name: 'v1.2.3',
    draft: false,
    author: { login: 'MonaLisa' },
    body,
    created_at: '2020-08-31T15:44:24+02:00',
    published_at: '2020-08-31T15:44:24+02:00',
    html_url: 'https://github.com/OWNER/REPO/releases/tags/v1.2.3',
    assets: [
      { name: 'windows.zip', size: 12 },
      { name: 'linux.tgz', size: 34 },
    ],
  };
}

const GH_PLAIN =
  'title:\t\ntag:\tv1.2.3\ndraft:\tfalse\nprerelease:\tfalse\nauthor:\tMonaLisa\n' +
  'created:\t2020-08-31T15:44:24+02:00\npublished:\t2020-08-31T15:44:24+02:00\n' +
  'url:\thttps://github.com/OWNER/REPO/releases/tags/v1.2.3\nasset:\twindows.zip\nasset:\tlinux.tgz\n--\n* Fixed bugs\n';

/** A full REST release as GitHub returns it. */
const REST_RELEASE = {
  url: 'https://api.github.com/repos/OWNER/REPO/releases/7',
  html_url: 'https://github.com/OWNER/REPO/releases/tag/v2.0.0',
  upload_url: 'https://uploads.github.com/repos/OWNER/REPO/releases/7/assets{?name,label}',
  tarball_url: 'https://api.github.com/repos/OWNER/REPO/tarball/v2.0.0',
  zipball_url: 'https://api.github.com/repos/OWNER/REPO/zipball/v2.0.0',
  id: 7,
  node_id: 'RE_7',
  tag_name: 'v2.0.0',
  target_commitish: 'main',
  name: 'Two <&> \u001b[1m',
  body: null,
  draft: false,
  prerelease: true,
  created_at: '2024-01-02T03:04:05Z',
  published_at: '2024-01-02T03:04:06.120Z',
  author: { login: 'octocat', id: 1, node_id: 'U_1', type: 'User' },
  assets: [
    {
      url: 'https://api.github.com/repos/OWNER/REPO/releases/assets/9',
      browser_download_url: 'https://github.com/OWNER/REPO/releases/download/v2.0.0/a.tgz',
      id: 9,
      node_id: 'RA_9',
      name: 'a.tgz',
      label: null,
      state: 'uploaded',
      content_type: 'application/gzip',
      size: 1024,
      download_count: 3,
      created_at: '2024-01-02T03:04:05Z',
      updated_at: '2024-01-02T03:04:07Z',
    },
  ],
};

describe('gh release view through the relay port', () => {
  it.each([
    ['v1.2.3', '/repos/OWNER/REPO/releases/tags/v1.2.3'],
    [undefined, '/repos/OWNER/REPO/releases/latest'],
  ])(
    'view_test.go "view machine-readable" (tag %s), with and without a final newline',
    async (tag, path) => {
      for (const body of ['* Fixed bugs\n', '* Fixed bugs']) {
        const port = fakePort(envelope(ghFixture(body)));
        const args = tag === undefined ? [] : [tag];
        const outcome = await runReleaseView(port, { args, flags: {}, repo: REPO }, noJq);
        expect(outcome).toEqual({ kind: 'done', code: 0, stdout: GH_PLAIN, stderr: '' });
        expect(port.reads).toEqual([{ path }]);
      }
    },
  );

  it('a draft prints no published line; an empty body prints an empty line after --', async () => {
    const draft = { ...REST_RELEASE, draft: true, published_at: null, assets: [] };
    const outcome = await runReleaseView(
      fakePort(envelope(draft)),
      { args: ['v2.0.0'], flags: {}, repo: REPO },
      noJq,
    );
    expect(outcome).toMatchObject({
      stdout:
        'title:\tTwo <&> ^[[1m\ntag:\tv2.0.0\ndraft:\ttrue\nprerelease:\ttrue\nauthor:\toctocat\n' +
        'created:\t2024-01-02T03:04:05Z\nurl:\thttps://github.com/OWNER/REPO/releases/tag/v2.0.0\n--\n\n',
    });
  });

  it('--json of every field: gh’s shapes, sorted keys, times as Go marshals them', async () => {
    const outcome = await runReleaseView(
      fakePort(envelope(REST_RELEASE)),
      {
        args: ['v2.0.0'],
        flags: {
          json: [
            'apiUrl,assets,author,body,createdAt,databaseId,id,isDraft,isPrerelease,name',
            'publishedAt,tagName,tarballUrl,targetCommitish,uploadUrl,url,zipballUrl',
          ],
        },
        repo: REPO,
      },
      noJq,
    );
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stderr: '',
      stdout:
        '{"apiUrl":"https://api.github.com/repos/OWNER/REPO/releases/7",' +
        '"assets":[{"apiUrl":"https://api.github.com/repos/OWNER/REPO/releases/assets/9","contentType":"application/gzip","createdAt":"2024-01-02T03:04:05Z","downloadCount":3,"id":"RA_9","label":"","name":"a.tgz","size":1024,"state":"uploaded","updatedAt":"2024-01-02T03:04:07Z","url":"https://github.com/OWNER/REPO/releases/download/v2.0.0/a.tgz"}],' +
        '"author":{"id":"U_1","login":"octocat"},"body":"","createdAt":"2024-01-02T03:04:05Z","databaseId":7,"id":"RE_7",' +
        '"isDraft":false,"isPrerelease":true,"name":"Two <&> ^[[1m","publishedAt":"2024-01-02T03:04:06.12Z","tagName":"v2.0.0",' +
        '"tarballUrl":"https://api.github.com/repos/OWNER/REPO/tarball/v2.0.0","targetCommitish":"main",' +
        '"uploadUrl":"https://uploads.github.com/repos/OWNER/REPO/releases/7/assets{?name,label}",' +
        '"url":"https://github.com/OWNER/REPO/releases/tag/v2.0.0","zipballUrl":"https://api.github.com/repos/OWNER/REPO/zipball/v2.0.0"}\n',
    });
  });

  it('a draft’s publishedAt is null; --jq runs over the export', async () => {
    const jq: JqRunner = (filter, json) => {
      expect(filter).toBe('.publishedAt');
      expect(json).toBe('{"publishedAt":null}\n');
      return Promise.resolve({ ok: true, text: '\n' });
    };
    const outcome = await runReleaseView(
      fakePort(envelope({ ...REST_RELEASE, draft: true, published_at: null })),
      { args: [], flags: { json: ['publishedAt'], jq: ['.publishedAt'] }, repo: REPO },
      jq,
    );
    expect(outcome).toMatchObject({ code: 0, stdout: '\n' });
  });

  it('latest 404 prints gh’s `release not found`, exit 1', async () => {
    const outcome = await runReleaseView(
      fakePort(envelope({ message: 'Not Found' }, 404)),
      { args: [], flags: {}, repo: REPO },
      noJq,
    );
    expect(outcome).toEqual({ kind: 'done', code: 1, stdout: '', stderr: 'release not found\n' });
  });

  it('an unknown field prints gh’s error without reading', async () => {
    const port = fakePort(envelope(REST_RELEASE));
    const outcome = await runReleaseView(
      port,
      { args: [], flags: { json: ['nope'] }, repo: REPO },
      noJq,
    );
    expect(outcome).toMatchObject({ code: 1, stdout: '' });
    expect(outcome.kind === 'done' && outcome.stderr).toBe(
      'Unknown JSON field: "nope"\nAvailable fields:\n  apiUrl\n  assets\n  author\n  body\n  createdAt\n  databaseId\n  id\n  isDraft\n  isPrerelease\n  name\n  publishedAt\n  tagName\n  tarballUrl\n  targetCommitish\n  uploadUrl\n  url\n  zipballUrl\n',
    );
    expect(port.reads).toEqual([]);
  });

  it.each([
    ['a tag that 404s (gh also finds drafts by pending tag)', ['v9'], envelope({}, 404), {}],
    ['a forge error on latest', [], envelope({ message: 'Server Error' }, 500), {}],
    ['a tag needing escaping', ['v1 beta'], envelope(REST_RELEASE), {}],
    ['a dot segment', ['a/../b'], envelope(REST_RELEASE), {}],
    ['a time Go would not read', [], envelope({ ...REST_RELEASE, created_at: 'yesterday' }), {}],
    ['a string where Go wants a number', [], envelope({ ...REST_RELEASE, id: '7' }), {}],
    [
      'a backspace (gh’s sanitizer depends on GitHub’s escape)',
      [],
      envelope({ ...REST_RELEASE, body: 'a\bb' }),
      {},
    ],
    [
      'a published release without published_at (gh dereferences nil)',
      [],
      envelope({ ...REST_RELEASE, published_at: null }),
      {},
    ],
  ])('%s runs gh', async (_what, args, answer, flags) => {
    const outcome = await runReleaseView(fakePort(answer), { args, flags, repo: REPO }, noJq);
    expect(outcome).toEqual({ kind: 'delegate', reason: 'unsupported_shape' });
  });

  it('a jq error or a missing jq runs gh (gojq words errors its own way)', async () => {
    const outcome = await runReleaseView(
      fakePort(envelope(REST_RELEASE)),
      { args: [], flags: { json: ['name'], jq: ['.x'] }, repo: REPO },
      noJq,
    );
    expect(outcome).toEqual({ kind: 'delegate', reason: 'unsupported_flag' });
  });

  it('a relay fallback is handed back with its reason', async () => {
    const port: RelayPort = {
      read: () => Promise.resolve({ kind: 'fallback', reason: 'repo_not_public' }),
    };
    expect(await runReleaseView(port, { args: [], flags: {}, repo: REPO }, noJq)).toEqual({
      kind: 'fallback',
      reason: 'repo_not_public',
    });
  });
});
