import type { RelayEnvelope } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import type { JqRunner } from '../export/export-output.js';
import { decodeRestRelease, renderReleaseList } from '../export/release-export.js';
import type { GoRelease } from '../export/release-export.js';
import type { RelayPort, RelayRead } from '../relay-port.js';
import { runReleaseList } from './release-list.js';

const REPO = {
  repo: { host: 'github.com', owner: 'OWNER', name: 'REPO' },
  source: 'flag' as const,
};

function envelope(body: unknown, status = 200, link?: string): RelayEnvelope {
  return {
    status,
    headers: link === undefined ? {} : { link },
    body,
    body_encoding: 'json',
    relay: {
      pool: 'team',
      request_id: 'r',
      cacheable: true,
      cache: 'miss',
      route_kind: 'release_list',
    },
  } as unknown as RelayEnvelope;
}

/** A fake port: answers by path (pages of a path in order) and records every read. */
function fakePort(
  answers: Readonly<Record<string, readonly RelayEnvelope[]>>,
): RelayPort & { reads: RelayRead[] } {
  const reads: RelayRead[] = [];
  const used: Record<string, number> = {};
  return {
    reads,
    read(request) {
      reads.push(request);
      const index = used[request.path] ?? 0;
      used[request.path] = index + 1;
      const answer = answers[request.path]?.[index];
      if (answer === undefined) throw new Error(`unexpected read of ${request.path}`);
      return Promise.resolve({ kind: 'served', envelope: answer });
    },
  };
}

const LIST = '/repos/OWNER/REPO/releases';
const LATEST = '/repos/OWNER/REPO/releases/latest';
const noJq: JqRunner = () => Promise.resolve('missing');

function release(
  id: number,
  tag: string,
  name: string | null,
  day: number,
  extra: Record<string, unknown> = {},
) {
  const time = `2024-01-${String(day).padStart(2, '0')}T10:00:00Z`;
  return {
    id,
    node_id: `RE_${String(id)}`,
    tag_name: tag,
    name,
    draft: false,
    prerelease: false,
    created_at: time,
    published_at: time,
    ...extra,
  };
}

// REST's order is not gh's: the command sorts by created_at itself.
const RELEASES = [
  release(3, 'v0.9.2', 'New features', 1),
  release(1, 'v1.0.0', '  The   big\n1.0 ', 3, { published_at: '2024-01-04T00:00:00Z' }),
  release(2, 'v1.0.0-pre.2', '1.0 release candidate', 2, { prerelease: true }),
  release(4, 'v1.1.0', null, 5, { draft: true, published_at: null }),
];

describe('gh release list through the relay port', () => {
  it('list_test.go "machine-readable": the table of gh’s fixture (draft and latest badges)', () => {
    const time = '2020-08-31T15:44:24+02:00';
    const node = (tag: string, name: string, draft: boolean, prerelease: boolean): GoRelease => {
      const decoded = decodeRestRelease({
        tag_name: tag,
        name,
        draft,
        prerelease,
        created_at: time,
        published_at: time,
      });
      if (decoded === undefined) throw new Error('fixture does not decode');
      return decoded;
    };
    expect(
      renderReleaseList([
        { release: node('v1.1.0', '', true, false), isLatest: false },
        { release: node('v1.0.0', 'The big 1.0', false, false), isLatest: true },
        { release: node('v1.0.0-pre.2', '1.0 release candidate', false, true), isLatest: false },
        { release: node('v0.9.2', 'New features', false, false), isLatest: false },
      ]),
    ).toBe(
      'v1.1.0\tDraft\tv1.1.0\t2020-08-31T15:44:24+02:00\n' +
        'The big 1.0\tLatest\tv1.0.0\t2020-08-31T15:44:24+02:00\n' +
        '1.0 release candidate\tPre-release\tv1.0.0-pre.2\t2020-08-31T15:44:24+02:00\n' +
        'New features\t\tv0.9.2\t2020-08-31T15:44:24+02:00\n',
    );
  });

  it('--exclude-drafts: newest created first, collapsed titles, the Latest badge from /releases/latest', async () => {
    const port = fakePort({ [LIST]: [envelope(RELEASES)], [LATEST]: [envelope(RELEASES[1])] });
    const outcome = await runReleaseList(
      port,
      { flags: { 'exclude-drafts': ['true'] }, repo: REPO },
      noJq,
    );
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stderr: '',
      stdout:
        'The big 1.0\tLatest\tv1.0.0\t2024-01-04T00:00:00Z\n' +
        '1.0 release candidate\tPre-release\tv1.0.0-pre.2\t2024-01-02T10:00:00Z\n' +
        'New features\t\tv0.9.2\t2024-01-01T10:00:00Z\n',
    });
    expect(port.reads).toEqual([{ path: LIST, query: { per_page: '100' } }, { path: LATEST }]);
  });

  it('without --exclude-drafts: the public list, the same bytes (drafts never reach the anonymous relay)', async () => {
    const answers = { [LIST]: [envelope(RELEASES)], [LATEST]: [envelope(RELEASES[1])] };
    const plain = await runReleaseList(fakePort(answers), { flags: {}, repo: REPO }, noJq);
    const excluded = await runReleaseList(
      fakePort(answers),
      { flags: { 'exclude-drafts': ['true'] }, repo: REPO },
      noJq,
    );
    expect(plain).toMatchObject({ kind: 'done', code: 0 });
    expect(plain).toEqual(excluded);
  });

  it('--order asc, --exclude-pre-releases, --limit over two pages; no latest release', async () => {
    const next = '<https://api.github.com/repositories/1/releases?page=2>; rel="next"';
    const port = fakePort({
      [LIST]: [envelope(RELEASES.slice(0, 2), 200, next), envelope(RELEASES.slice(2))],
      [LATEST]: [envelope({ message: 'Not Found' }, 404)],
    });
    const outcome = await runReleaseList(
      port,
      {
        flags: {
          'exclude-drafts': ['true'],
          'exclude-pre-releases': ['true'],
          order: ['ASC'],
          limit: ['1'],
        },
        repo: REPO,
      },
      noJq,
    );
    expect(outcome).toMatchObject({ stdout: 'New features\t\tv0.9.2\t2024-01-01T10:00:00Z\n' });
    expect(port.reads[1]).toEqual({ path: LIST, query: { per_page: '100', page: '2' } });
  });

  it('--json of every field: sorted keys, isLatest by id, no latest read when not asked', async () => {
    const all = 'name,tagName,isDraft,isLatest,isPrerelease,createdAt,publishedAt';
    const port = fakePort({ [LIST]: [envelope(RELEASES)], [LATEST]: [envelope(RELEASES[1])] });
    const outcome = await runReleaseList(
      port,
      { flags: { 'exclude-drafts': ['true'], json: [all], limit: ['2'] }, repo: REPO },
      noJq,
    );
    expect(outcome).toMatchObject({
      code: 0,
      stdout:
        '[{"createdAt":"2024-01-03T10:00:00Z","isDraft":false,"isLatest":true,"isPrerelease":false,"name":"  The   big\\n1.0 ","publishedAt":"2024-01-04T00:00:00Z","tagName":"v1.0.0"},' +
        '{"createdAt":"2024-01-02T10:00:00Z","isDraft":false,"isLatest":false,"isPrerelease":true,"name":"1.0 release candidate","publishedAt":"2024-01-02T10:00:00Z","tagName":"v1.0.0-pre.2"}]\n',
    });
    const tags = fakePort({ [LIST]: [envelope(RELEASES)] });
    await runReleaseList(
      tags,
      { flags: { 'exclude-drafts': ['true'], json: ['tagName'] }, repo: REPO },
      noJq,
    );
    expect(tags.reads.map((read) => read.path)).toEqual([LIST]);
  });

  it('no releases: nothing printed, exit 0; with --json, []', async () => {
    const flags = { 'exclude-drafts': ['true'] };
    const table = await runReleaseList(
      fakePort({ [LIST]: [envelope([RELEASES[3]])] }),
      { flags, repo: REPO },
      noJq,
    );
    expect(table).toEqual({ kind: 'done', code: 0, stdout: '', stderr: '' });
    const json = await runReleaseList(
      fakePort({ [LIST]: [envelope([])] }),
      { flags: { ...flags, json: ['name'] }, repo: REPO },
      noJq,
    );
    expect(json).toEqual({ kind: 'done', code: 0, stdout: '[]\n', stderr: '' });
  });

  it('an unknown field prints gh’s error without reading', async () => {
    const port = fakePort({});
    const outcome = await runReleaseList(port, { flags: { json: ['nope'] }, repo: REPO }, noJq);
    expect(outcome).toMatchObject({ code: 1, stdout: '' });
    expect(
      outcome.kind === 'done' && outcome.stderr.startsWith('Unknown JSON field: "nope"\n'),
    ).toBe(true);
    expect(port.reads).toEqual([]);
  });

  it.each([
    ['--order up', { 'exclude-drafts': ['true'], order: ['up'] }, 'invalid_usage'],
    ['--limit 0', { 'exclude-drafts': ['true'], limit: ['0'] }, 'invalid_usage'],
    ['--limit 101', { 'exclude-drafts': ['true'], limit: ['101'] }, 'unsupported_flag'],
  ])('%s runs gh', async (_what, flags, reason) => {
    const outcome = await runReleaseList(fakePort({}), { flags, repo: REPO }, noJq);
    expect(outcome).toEqual({ kind: 'delegate', reason });
  });

  it.each([
    ['a forge error', [envelope({ message: 'Not Found' }, 404)], undefined, {}],
    [
      'two releases created in the same second',
      [envelope([release(1, 'a', 'a', 1), release(2, 'b', 'b', 1)])],
      undefined,
      {},
    ],
    ['a latest answer other than 200/404', [envelope(RELEASES)], envelope({}, 500), {}],
    [
      'a release without a name exported as name',
      [envelope([release(1, 'a', null, 1)])],
      undefined,
      { json: ['name'] },
    ],
  ])('%s runs gh', async (_what, pages, latest, extra) => {
    const port = fakePort({
      [LIST]: pages,
      ...(latest === undefined ? {} : { [LATEST]: [latest] }),
    });
    const outcome = await runReleaseList(
      port,
      { flags: { 'exclude-drafts': ['true'], ...extra }, repo: REPO },
      noJq,
    );
    expect(outcome.kind).toBe('delegate');
  });

  it('a relay fallback is handed back with its reason', async () => {
    const port: RelayPort = {
      read: () => Promise.resolve({ kind: 'fallback', reason: 'repo_not_public' }),
    };
    expect(
      await runReleaseList(port, { flags: { 'exclude-drafts': ['true'] }, repo: REPO }, noJq),
    ).toEqual({ kind: 'fallback', reason: 'repo_not_public' });
  });
});
