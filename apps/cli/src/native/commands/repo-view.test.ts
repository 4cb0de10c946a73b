import type { RelayEnvelope } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import type { JqRunner } from '../export/export-output.js';
import { formatGoPrintfWithoutOperands } from '../export/go-printf.js';
import { decodeReadme } from '../export/repo-export.js';
import type { RelayPort, RelayRead } from '../relay-port.js';
import { runRepoView } from './repo-view.js';

const REPO = {
  repo: { host: 'github.com', owner: 'OWNER', name: 'REPO' },
  source: 'argument' as const,
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
      route_kind: 'repo_view',
    },
  } as unknown as RelayEnvelope;
}

function fakePort(
  answers: Readonly<Record<string, RelayEnvelope>>,
): RelayPort & { reads: RelayRead[] } {
  const reads: RelayRead[] = [];
  return {
    reads,
    read(request) {
      reads.push(request);
      const answer = answers[request.path];
      if (answer === undefined) throw new Error(`unexpected read of ${request.path}`);
      return Promise.resolve({ kind: 'served', envelope: answer });
    },
  };
}

const noJq: JqRunner = () => Promise.resolve('missing');
const VIEW = '/repos/OWNER/REPO';
const README = '/repos/OWNER/REPO/readme';
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

const REST_REPO = {
  id: 1,
  node_id: 'R_1',
  name: 'REPO',
  full_name: 'OWNER/REPO',
  owner: { login: 'OWNER', id: 2, node_id: 'O_2', type: 'Organization' },
  private: false,
  html_url: 'https://github.com/OWNER/REPO',
  description: 'social distancing',
  fork: false,
  homepage: null,
  mirror_url: null,
  ssh_url: 'git@github.com:OWNER/REPO.git',
  language: 'Go',
  forks_count: 3,
  stargazers_count: 5,
  subscribers_count: 7,
  size: 108,
  default_branch: 'main',
  is_template: false,
  topics: [],
  has_issues: true,
  has_projects: false,
  has_wiki: true,
  has_discussions: false,
  archived: false,
  visibility: 'public',
  pushed_at: '2024-01-02T03:04:05Z',
  created_at: '2020-01-02T03:04:05Z',
  updated_at: '2024-01-02T03:04:06Z',
};

describe('gh repo view through the relay port', () => {
  it.each([
    // view_test.go Test_ViewRun "nontty" and Test_ViewRun_HandlesSpecialCharacters "nontty"
    [
      'social distancing',
      'IyB0cnVseSBjb29sIHJlYWRtZSBjaGVjayBpdCBvdXQ=',
      'name:\tOWNER/REPO\ndescription:\tsocial distancing\n--\n# truly cool readme check it out\n',
    ],
    [
      'Some basic special characters " & / < > \'',
      'IyA8IGlzIGFsd2F5cyA+IHRoYW4gJiAnIGFuZCAi',
      'name:\tOWNER/REPO\ndescription:\tSome basic special characters " & / < > \'\n--\n# < is always > than & \' and "\n',
    ],
  ])('gh’s fixture %j', async (description, content, stdout) => {
    const port = fakePort({
      [VIEW]: envelope({ ...REST_REPO, description }),
      [README]: envelope({ name: 'readme.md', content }),
    });
    const outcome = await runRepoView(port, { flags: {}, repo: REPO }, noJq);
    expect(outcome).toEqual({ kind: 'done', code: 0, stdout, stderr: '' });
    expect(port.reads).toEqual([{ path: VIEW }, { path: README }]);
  });

  it('a README passes through Go’s printf (100% → 100%!(NOVERB)) and the byte sanitizer', async () => {
    const port = fakePort({
      [VIEW]: envelope({ ...REST_REPO, description: null }),
      [README]: envelope({ content: `${base64('Done: 100%\n\u001b[1m 50%% 100% sure')}\n` }),
    });
    const outcome = await runRepoView(port, { flags: { branch: ['feat/x'] }, repo: REPO }, noJq);
    expect(outcome).toMatchObject({
      stdout:
        'name:\tOWNER/REPO\ndescription:\t\n--\nDone: 100%!\n(MISSING)^[[1m 50% 100%!s(MISSING)ure\n',
    });
    expect(port.reads[1]).toEqual({ path: README, query: { ref: 'feat/x' } });
  });

  it('no README (404): no -- section', async () => {
    const port = fakePort({
      [VIEW]: envelope(REST_REPO),
      [README]: envelope({ message: 'Not Found' }, 404),
    });
    const outcome = await runRepoView(port, { flags: {}, repo: REPO }, noJq);
    expect(outcome).toMatchObject({
      stdout: 'name:\tOWNER/REPO\ndescription:\tsocial distancing\n',
    });
  });

  it('--json of every REST-served field, gh’s shapes, no README read', async () => {
    const fields =
      'createdAt,description,diskUsage,forkCount,hasDiscussionsEnabled,hasIssuesEnabled,hasProjectsEnabled,hasWikiEnabled,homepageUrl,isArchived,isFork,isInOrganization,isMirror,isPrivate,isTemplate,mirrorUrl,name,nameWithOwner,primaryLanguage,pushedAt,sshUrl,stargazerCount,url,visibility,watchers';
    const port = fakePort({ [VIEW]: envelope(REST_REPO) });
    const outcome = await runRepoView(port, { flags: { json: [fields] }, repo: REPO }, noJq);
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stderr: '',
      stdout:
        '{"createdAt":"2020-01-02T03:04:05Z","description":"social distancing","diskUsage":108,"forkCount":3,' +
        '"hasDiscussionsEnabled":false,"hasIssuesEnabled":true,"hasProjectsEnabled":false,"hasWikiEnabled":true,' +
        '"homepageUrl":"","isArchived":false,"isFork":false,"isInOrganization":true,"isMirror":false,"isPrivate":false,' +
        '"isTemplate":false,"mirrorUrl":"","name":"REPO","nameWithOwner":"OWNER/REPO","primaryLanguage":{"name":"Go"},' +
        '"pushedAt":"2024-01-02T03:04:05Z","sshUrl":"git@github.com:OWNER/REPO.git","stargazerCount":5,' +
        '"url":"https://github.com/OWNER/REPO","visibility":"PUBLIC","watchers":{"totalCount":7}}\n',
    });
    expect(port.reads).toEqual([{ path: VIEW }]);
  });

  it('an unknown field prints gh’s error (67 fields) without reading', async () => {
    const port = fakePort({});
    const outcome = await runRepoView(port, { flags: { json: ['nope'] }, repo: REPO }, noJq);
    expect(outcome).toMatchObject({ code: 1, stdout: '' });
    const lines = outcome.kind === 'done' ? outcome.stderr.split('\n') : [];
    expect(lines.slice(0, 3)).toEqual([
      'Unknown JSON field: "nope"',
      'Available fields:',
      '  archivedAt',
    ]);
    expect(lines.length).toBe(2 + 67 + 1);
    expect(port.reads).toEqual([]);
  });

  it.each([
    ['a GraphQL-only field', { json: ['name,viewerPermission'] }, {}, 'unsupported_flag'],
    ['an id (node id formats differ)', { json: ['id'] }, {}, 'unsupported_flag'],
    ['a branch needing escaping', { branch: ['a b'] }, {}, 'unsupported_shape'],
    [
      'a missing repository',
      {},
      { [VIEW]: envelope({ message: 'Not Found' }, 404) },
      'unsupported_shape',
    ],
    [
      'a description with an escape character',
      {},
      { [VIEW]: envelope({ ...REST_REPO, description: '\u001b[1m' }) },
      'unsupported_shape',
    ],
    [
      'a README error other than 404',
      {},
      { [VIEW]: envelope(REST_REPO), [README]: envelope({}, 500) },
      'unsupported_shape',
    ],
    [
      'a README that is not UTF-8',
      {},
      { [VIEW]: envelope(REST_REPO), [README]: envelope({ content: '/w==' }) },
      'unsupported_shape',
    ],
  ])('%s runs gh', async (_what, flags, answers, reason) => {
    const outcome = await runRepoView(fakePort(answers), { flags, repo: REPO }, noJq);
    expect(outcome).toEqual({ kind: 'delegate', reason });
  });
});

describe('Go’s Fprintf of a README (no operands)', () => {
  it.each([
    ['plain', 'plain'],
    ['100%', '100%!(NOVERB)'],
    ['50%% off', '50% off'],
    ['100% sure', '100%!s(MISSING)ure'],
    ['%d%-5.2f%+v', '%!d(MISSING)%!f(MISSING)%!v(MISSING)'],
    ['%[1]d %[x]d', '%!d(BADINDEX) %!d(BADINDEX)'],
    ['%*d %.*d', '%!(BADWIDTH)%!d(MISSING) %!(BADPREC)%!d(MISSING)'],
    ['%é', '%!é(MISSING)'],
    ['a %.', 'a %!.(MISSING)'],
    ['%5', '%!(NOVERB)'],
  ])('%j → %j', (text, out) => {
    expect(formatGoPrintfWithoutOperands(text)).toBe(out);
  });

  it('decodes base64 with line breaks and sanitizes bytes as go-gh does', () => {
    expect(decodeReadme(base64('a\u0008b\u000cc\u001cd\u009ce\t\u000b\r\n'))).toBe(
      'a^Hb^Lc^\\\\d^\\\\e\t\u000b\r\n',
    );
    expect(decodeReadme('YWJj\nZGVm\n')).toBe('abcdef');
    expect(decodeReadme('not base64!')).toBeUndefined();
  });
});
