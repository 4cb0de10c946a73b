import type { RelayEnvelope } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import type { JqRunner } from '../export/export-output.js';
import type { RelayPort, RelayRead, RelayReadResult } from '../relay-port.js';
import { runSearchCommand } from './search-results.js';

/**
 * gh v2.60's search commands against a fake relay port. Expected bytes are gh's own test
 * facts (pkg/cmd/search/{shared,repos,code,commits}/*_test.go non-TTY cases and
 * pkg/search/result_test.go export cases), with the searcher's structs written as the REST
 * items they decode from.
 */

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
      route_kind: 'search_issues',
    },
  } as unknown as RelayEnvelope;
}

const page = (items: readonly unknown[], link?: string) =>
  envelope({ total_count: 300, incomplete_results: false, items }, 200, link);

/** A fake port answering reads in order and recording them. */
function fakePort(answers: readonly (RelayEnvelope | RelayReadResult)[]): RelayPort & {
  reads: RelayRead[];
} {
  const reads: RelayRead[] = [];
  return {
    reads,
    read(request) {
      reads.push(request);
      const answer = answers[reads.length - 1];
      if (answer === undefined) throw new Error('unexpected read');
      return Promise.resolve('kind' in answer ? answer : { kind: 'served', envelope: answer });
    },
  };
}

const noJq: JqRunner = () => Promise.resolve('missing');
const UPDATED = '2021-02-28T12:30:00Z';

function issue(
  repo: string,
  number: number,
  state: string,
  title: string,
  labels: string[],
  pr?: { merged_at: string | null },
) {
  return {
    repository_url: repo,
    number,
    state,
    title,
    labels: labels.map((name) => ({ name })),
    updated_at: UPDATED,
    ...(pr === undefined ? {} : { pull_request: { html_url: 'someurl', ...pr } }),
  };
}

describe('search issues and prs (shared_test.go TestSearchIssues)', () => {
  it('"displays results notty": repo, number, state, title, labels, updated', async () => {
    const port = fakePort([
      page([
        issue('github.com/test/cli', 123, 'open', 'something broken', ['bug', 'p1']),
        issue('github.com/what/what', 456, 'closed', 'feature request', ['enhancement']),
        issue('github.com/blah/test', 789, 'open', 'some title', []),
      ]),
    ]);
    const outcome = await runSearchCommand(
      'search issues',
      port,
      { args: ['keyword'], flags: { repo: ['test/cli'] } },
      noJq,
    );
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stdout:
        'test/cli\t123\topen\tsomething broken\tbug, p1\t2021-02-28T12:30:00Z\nwhat/what\t456\tclosed\tfeature request\tenhancement\t2021-02-28T12:30:00Z\nblah/test\t789\topen\tsome title\t\t2021-02-28T12:30:00Z\n',
      stderr: '',
    });
    expect(port.reads).toEqual([
      {
        path: '/search/issues',
        query: { page: '1', per_page: '30', q: 'keyword repo:test/cli type:issue' },
      },
    ]);
  });

  it('"displays issues and pull requests notty" (--include-prs: a kind column)', async () => {
    const port = fakePort([
      page([
        issue('github.com/test/cli', 123, 'open', 'bug', ['bug', 'p1']),
        issue('github.com/what/what', 456, 'open', 'fix bug', ['fix'], { merged_at: null }),
      ]),
    ]);
    const outcome = await runSearchCommand(
      'search issues',
      port,
      { args: ['bug'], flags: { repo: ['test/cli'], 'include-prs': ['true'] } },
      noJq,
    );
    expect(outcome).toMatchObject({
      stdout:
        'issue\ttest/cli\t123\topen\tbug\tbug, p1\t2021-02-28T12:30:00Z\npr\twhat/what\t456\topen\tfix bug\tfix\t2021-02-28T12:30:00Z\n',
    });
    expect(port.reads[0]?.query?.q).toBe('bug repo:test/cli');
  });

  it('a merged pull request shows merged; titles are whitespace-collapsed', async () => {
    const port = fakePort([
      page([
        issue('https://api.github.com/repos/acme/widgets', 7, 'closed', '  fix\t\tthe  bug ', [], {
          merged_at: '2024-01-02T03:04:05Z',
        }),
      ]),
    ]);
    const outcome = await runSearchCommand(
      'search prs',
      port,
      { args: ['fix'], flags: { repo: ['acme/widgets'] } },
      noJq,
    );
    expect(outcome).toMatchObject({
      stdout: 'acme/widgets\t7\tmerged\tfix the bug\t\t2021-02-28T12:30:00Z\n',
    });
  });

  it('a title with the text \\u001b is sanitized as go-gh’s JSON mode does (the backslash kept)', async () => {
    // go-gh's sanitizer_test.go "JSON sanitization maintains valid JSON", decoded: the JSON
    // text `\u001B \\u001B \\\u001B \\\\u001B \\u001B\\u001B` becomes
    // `^[ \\^[ \\^[ \\\\^[ \\^[\\^[`.
    const title =
      '\u001B \\u001B \\\u001B \\\\u001B \\u001B\\u001B end \\u000d \\u0009 \\U001b \\u0085';
    const port = fakePort([page([issue('github.com/acme/widgets', 1, 'open', title, [])])]);
    const outcome = await runSearchCommand(
      'search issues',
      port,
      { args: ['x'], flags: { repo: ['acme/widgets'], json: ['title'] } },
      noJq,
    );
    expect(outcome).toMatchObject({
      stdout: `[{"title":${JSON.stringify('^[ \\^[ \\^[ \\\\^[ \\^[\\^[ end \\u000d \\u0009 \\U001b \\^E')}}]\n`,
    });
  });

  it('"displays no results": nothing and exit 0 without a terminal; --json prints []', async () => {
    const human = await runSearchCommand(
      'search issues',
      fakePort([page([])]),
      { args: ['x'], flags: { repo: ['a/b'] } },
      noJq,
    );
    expect(human).toEqual({ kind: 'done', code: 0, stdout: '', stderr: '' });
    const json = await runSearchCommand(
      'search issues',
      fakePort([page([])]),
      { args: ['x'], flags: { repo: ['a/b'], json: ['number'] } },
      noJq,
    );
    expect(json).toEqual({ kind: 'done', code: 0, stdout: '[]\n', stderr: '' });
  });

  it('--json (result_test.go "exports requested fields" of an issue)', async () => {
    const port = fakePort([
      page([
        {
          assignees: [{ login: 'test', node_id: '123' }, { login: 'foo' }],
          body: 'body',
          comments: 1,
          labels: [{ name: 'label1' }, { name: 'label2' }],
          locked: true,
          repository_url: 'https://github.com/owner/repo',
          title: 'title',
          updated_at: '2021-02-28T12:30:00Z',
        },
      ]),
    ]);
    const outcome = await runSearchCommand(
      'search issues',
      port,
      {
        args: ['x'],
        flags: {
          repo: ['owner/repo'],
          json: ['assignees,body,commentsCount,labels,isLocked,repository,title,updatedAt'],
        },
      },
      noJq,
    );
    expect(outcome).toMatchObject({
      code: 0,
      stdout:
        '[{"assignees":[{"id":"123","is_bot":false,"login":"test","type":"","url":""},{"id":"","is_bot":true,"login":"app/foo","type":"","url":""}],"body":"body","commentsCount":1,"isLocked":true,"labels":[{"color":"","description":"","id":"","name":"label1"},{"color":"","description":"","id":"","name":"label2"}],"repository":{"name":"repo","nameWithOwner":"owner/repo"},"title":"title","updatedAt":"2021-02-28T12:30:00Z"}]\n',
    });
  });

  it.each([
    [
      'state when issue',
      { state: 'closed' },
      'isPullRequest,state',
      '{"isPullRequest":false,"state":"closed"}',
    ],
    [
      'state when pull request',
      { state: 'closed', pull_request: { html_url: 'a-url', merged_at: '2024-05-01T00:00:00Z' } },
      'isPullRequest,state',
      '{"isPullRequest":true,"state":"merged"}',
    ],
    [
      'isDraft when pull request',
      { state: 'open', draft: true, pull_request: { html_url: 'a-url' } },
      'isDraft,state',
      '{"isDraft":true,"state":"open"}',
    ],
    ['isDraft without a draft key (a nil *bool)', { state: 'open' }, 'isDraft', '{"isDraft":null}'],
    [
      'times: a null closed_at is Go’s zero time, fractions and offsets as Go marshals them',
      { closed_at: null, created_at: '2024-01-02T03:04:05.120-07:00' },
      'closedAt,createdAt',
      '{"closedAt":"0001-01-01T00:00:00Z","createdAt":"2024-01-02T03:04:05.12-07:00"}',
    ],
  ])('--json of search prs: %s (result_test.go)', async (_name, item, fields, row) => {
    const outcome = await runSearchCommand(
      'search prs',
      fakePort([page([{ repository_url: 'https://github.com/o/r', ...item }])]),
      { args: ['x'], flags: { repo: ['o/r'], json: [fields] } },
      noJq,
    );
    expect(outcome).toMatchObject({ code: 0, stdout: `[${row}]\n` });
  });

  it('--jq runs over the exported JSON', async () => {
    const seen: string[] = [];
    const jq: JqRunner = (filter, json) => {
      seen.push(filter, json);
      return Promise.resolve({ ok: true, text: '7\n' });
    };
    const outcome = await runSearchCommand(
      'search prs',
      fakePort([page([issue('https://github.com/o/r', 7, 'open', 't', [])])]),
      { args: ['x'], flags: { repo: ['o/r'], json: ['number'], jq: ['.[].number'] } },
      jq,
    );
    expect(outcome).toMatchObject({ code: 0, stdout: '7\n' });
    expect(seen).toEqual(['.[].number', '[{"number":7}]\n']);
  });
});

describe('search repos (repos_test.go TestReposRun)', () => {
  const repos = [
    {
      full_name: 'test/cli',
      description: 'of course',
      private: true,
      archived: true,
      updated_at: UPDATED,
      visibility: 'private',
    },
    {
      full_name: 'test/cliing',
      description: 'wow',
      fork: true,
      updated_at: UPDATED,
      visibility: 'public',
    },
    {
      full_name: 'cli/cli',
      description: 'so much',
      archived: false,
      updated_at: UPDATED,
      visibility: 'internal',
    },
  ];

  it('"displays results notty": name, description, visibility tags, updated', async () => {
    const port = fakePort([page(repos)]);
    const outcome = await runSearchCommand(
      'search repos',
      port,
      { args: ['cli'], flags: {} },
      noJq,
    );
    expect(outcome).toMatchObject({
      code: 0,
      stdout:
        'test/cli\tof course\tprivate, archived\t2021-02-28T12:30:00Z\ntest/cliing\twow\tpublic, fork\t2021-02-28T12:30:00Z\ncli/cli\tso much\tinternal\t2021-02-28T12:30:00Z\n',
    });
    expect(port.reads).toEqual([
      { path: '/search/repositories', query: { page: '1', per_page: '30', q: 'cli' } },
    ]);
  });

  it('--json (result_test.go "exports requested fields" of a repository)', async () => {
    const outcome = await runSearchCommand(
      'search repos',
      fakePort([
        page([
          {
            created_at: '2021-02-28T12:30:00Z',
            description: 'description',
            full_name: 'cli/cli',
            archived: true,
            fork: false,
            private: false,
            pushed_at: '2021-02-28T12:30:00Z',
            license: null,
          },
        ]),
      ]),
      {
        args: ['cli'],
        flags: {
          json: [
            'createdAt,description,fullName,isArchived,isFork,isPrivate,pushedAt,license,owner',
          ],
        },
      },
      noJq,
    );
    expect(outcome).toMatchObject({
      stdout:
        '[{"createdAt":"2021-02-28T12:30:00Z","description":"description","fullName":"cli/cli","isArchived":true,"isFork":false,"isPrivate":false,"license":{"key":"","name":"","url":""},"owner":{"id":"","is_bot":true,"login":"app/","type":"","url":""},"pushedAt":"2021-02-28T12:30:00Z"}]\n',
    });
  });
});

describe('search code (code_test.go TestCodeRun)', () => {
  const codes = [
    {
      name: 'context.go',
      path: 'context/context.go',
      repository: { full_name: 'cli/cli' },
      text_matches: [
        {
          fragment:
            '\t}\n\n\tvar repos []*api.Repository\n\trepoMap := map[string]bool{}\n\n\tadd := func(r *api.Repository) {\n\t\tfn := ghrepo.FullName(r)',
          matches: [
            { text: 'Map', indices: [38, 41] },
            { text: 'map', indices: [45, 48] },
          ],
        },
      ],
    },
    {
      name: 'pr.go',
      path: 'pkg/cmd/pr/pr.go',
      repository: { full_name: 'cli/cli' },
      text_matches: [
        {
          fragment:
            '\t\t\t$ gh pr create --fill\n\t\t\t$ gh pr view --web\n\t\t`),\n\t\tAnnotations: map[string]string{\n\t\t\t"help:arguments": heredoc.Doc(`\n\t\t\t\tA pull request can be supplied as argument in any of the following formats:\n\t\t\t\t- by number, e.g. "123";',
          matches: [{ text: 'map', indices: [68, 71] }],
        },
      ],
    },
  ];

  it('"displays results notty": repo:path: matched line, asking for text matches', async () => {
    const port = fakePort([page(codes)]);
    const outcome = await runSearchCommand(
      'search code',
      port,
      { args: ['map'], flags: { repo: ['cli/cli'] } },
      noJq,
    );
    expect(outcome).toMatchObject({
      code: 0,
      stdout:
        'cli/cli:context/context.go: repoMap := map[string]bool{}\ncli/cli:pkg/cmd/pr/pr.go: Annotations: map[string]string{\n',
    });
    expect(port.reads).toEqual([
      {
        path: '/search/code',
        query: { page: '1', per_page: '30', q: 'map repo:cli/cli' },
        headers: { accept: 'application/vnd.github.text-match+json' },
      },
    ]);
  });

  it('match indices are UTF-8 byte offsets, as Go ranges over a string', async () => {
    // "é" is two bytes: byte 7 is "b" (counted in UTF-16 units, 7 would be the last line's "c").
    const outcome = await runSearchCommand(
      'search code',
      fakePort([
        page([
          {
            path: 'a.txt',
            repository: { full_name: 'o/r' },
            text_matches: [
              { fragment: 'ééé\n  b  \nccc', matches: [{ text: 'b', indices: [7, 8] }] },
            ],
          },
        ]),
      ]),
      { args: ['b'], flags: { repo: ['o/r'] } },
      noJq,
    );
    expect(outcome).toMatchObject({ stdout: 'o/r:a.txt: b\n' });
  });

  it('--json (result_test.go "exports requested fields" of code)', async () => {
    const outcome = await runSearchCommand(
      'search code',
      fakePort([
        page([
          {
            repository: { name: 'repo' },
            path: 'path',
            name: 'name',
            text_matches: [
              {
                fragment: 'fragment',
                matches: [{ text: 'fr', indices: [0, 1] }],
                property: 'property',
                object_type: 'type',
              },
            ],
          },
        ]),
      ]),
      { args: ['x'], flags: { repo: ['o/r'], json: ['path,textMatches'] } },
      noJq,
    );
    expect(outcome).toMatchObject({
      stdout:
        '[{"path":"path","textMatches":[{"fragment":"fragment","matches":[{"indices":[0,1],"text":"fr"}],"property":"property","type":"type"}]}]\n',
    });
  });
});

describe('search commits (commits_test.go TestCommitsRun)', () => {
  const commit = (login: string, message: string, repo: string, sha: string) => ({
    author: { login },
    commit: {
      author: { date: '2022-12-27T11:30:00Z' },
      committer: { date: '2022-12-28T12:30:00Z' },
      message,
    },
    repository: { full_name: repo },
    sha,
  });

  it('"displays results notty": repo, sha, message, author, authored', async () => {
    const outcome = await runSearchCommand(
      'search commits',
      fakePort([
        page([
          commit('monalisa', 'hello', 'test/cli', 'aaaaaaaa'),
          commit('johnnytest', 'hi', 'test/cliing', 'bbbbbbbb'),
          commit('hubot', 'greetings', 'cli/cli', 'cccccccc'),
        ]),
      ]),
      { args: ['cli'], flags: { repo: ['test/cli'] } },
      noJq,
    );
    expect(outcome).toMatchObject({
      stdout:
        'test/cli\taaaaaaaa\thello\tmonalisa\t2022-12-27T11:30:00Z\ntest/cliing\tbbbbbbbb\thi\tjohnnytest\t2022-12-27T11:30:00Z\ncli/cli\tcccccccc\tgreetings\thubot\t2022-12-27T11:30:00Z\n',
    });
  });

  it('--json (result_test.go "exports requested fields" of a commit)', async () => {
    const outcome = await runSearchCommand(
      'search commits',
      fakePort([
        page([
          {
            author: { login: 'foo' },
            committer: { login: 'bar', node_id: '123' },
            commit: {
              author: { date: '2021-02-27T11:30:00Z', name: 'Foo' },
              committer: { date: '2021-02-28T12:30:00Z', name: 'Bar' },
              message: 'test message',
            },
            sha: '8dd03144ffdc6c0d',
          },
        ]),
      ]),
      { args: ['x'], flags: { repo: ['o/r'], json: ['author,commit,committer,sha'] } },
      noJq,
    );
    expect(outcome).toMatchObject({
      stdout:
        '[{"author":{"id":"","is_bot":true,"login":"app/foo","type":"","url":""},"commit":{"author":{"date":"2021-02-27T11:30:00Z","email":"","name":"Foo"},"comment_count":0,"committer":{"date":"2021-02-28T12:30:00Z","email":"","name":"Bar"},"message":"test message","tree":{"sha":""}},"committer":{"id":"123","is_bot":false,"login":"bar","type":"","url":""},"sha":"8dd03144ffdc6c0d"}]\n',
    });
  });
});

describe('paging, limits and hand-offs', () => {
  it('reads the next page (Link rel="next") while results are still wanted', async () => {
    const port = fakePort([
      page(
        [issue('https://github.com/o/r', 1, 'open', 'a', [])],
        '<https://api.github.com/search/issues?page=2&per_page=3&q=x>; rel="next", <https://api.github.com/search/issues?page=9>; rel="last"',
      ),
      page([
        issue('https://github.com/o/r', 2, 'open', 'b', []),
        issue('https://github.com/o/r', 3, 'open', 'c', []),
      ]),
    ]);
    const outcome = await runSearchCommand(
      'search issues',
      port,
      { args: ['x'], flags: { repo: ['o/r'], limit: ['0x3'], sort: ['created'], order: ['asc'] } },
      noJq,
    );
    expect(outcome).toMatchObject({ code: 0 });
    expect(port.reads.map((read) => read.query)).toEqual([
      { page: '1', per_page: '3', q: 'x repo:o/r type:issue', order: 'asc', sort: 'created' },
      { page: '2', per_page: '2', q: 'x repo:o/r type:issue', order: 'asc', sort: 'created' },
    ]);
  });

  it('stops once the limit is reached, even with a next link', async () => {
    const port = fakePort([
      page(
        [issue('https://github.com/o/r', 1, 'open', 'a', [])],
        '<https://x/?page=2>; rel="next"',
      ),
    ]);
    await runSearchCommand(
      'search issues',
      port,
      { args: ['x'], flags: { repo: ['o/r'], limit: ['1'] } },
      noJq,
    );
    expect(port.reads).toHaveLength(1);
  });

  it.each([
    ['--limit 0 (gh’s flag error)', { limit: ['0'] }, 'invalid_usage'],
    ['--limit above 100 (rule 12)', { limit: ['101'] }, 'unsupported_flag'],
    ['--limit 1001', { limit: ['1001'] }, 'unsupported_flag'],
    ['--author', { author: ['monalisa'] }, 'unsupported_flag'],
  ])('runs gh without a read: %s', async (_name, flags, reason) => {
    const port = fakePort([]);
    const outcome = await runSearchCommand(
      'search issues',
      port,
      { args: ['x'], flags: { repo: ['o/r'], ...flags } },
      noJq,
    );
    expect(outcome).toEqual({ kind: 'delegate', reason });
    expect(port.reads).toEqual([]);
  });

  it('the relay’s fallback_local (search_denied: the pool does not allow search) is handed back', async () => {
    const outcome = await runSearchCommand(
      'search repos',
      fakePort([{ kind: 'fallback', reason: 'search_denied' }]),
      { args: ['cli'], flags: {} },
      noJq,
    );
    expect(outcome).toEqual({ kind: 'fallback', reason: 'search_denied' });
  });

  it.each([
    [
      'a 422 (gh words “Invalid search query”)',
      envelope({ message: 'Validation Failed', errors: [{ message: 'bad' }] }, 422),
    ],
    ['a 403', envelope({ message: 'rate limited' }, 403)],
    ['items that are not an array', envelope({ items: {} })],
    ['an item Go would not decode', page([{ number: 'seven' }])],
    [
      'a backspace (escape-dependent sanitizing)',
      page([{ title: 'a\bb', repository_url: 'https://github.com/o/r' }]),
    ],
    ['a repository_url gh cannot split', page([{ repository_url: '' }])],
  ])('runs gh for %s', async (_name, answer) => {
    const outcome = await runSearchCommand(
      'search issues',
      fakePort([answer]),
      { args: ['x'], flags: { repo: ['o/r'] } },
      noJq,
    );
    expect(outcome).toEqual({ kind: 'delegate', reason: 'unsupported_shape' });
  });

  it('prints gh’s unknown-field error', async () => {
    const outcome = await runSearchCommand(
      'search code',
      fakePort([]),
      { args: ['x'], flags: { repo: ['o/r'], json: ['nope'] } },
      noJq,
    );
    expect(outcome).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr:
        'Unknown JSON field: "nope"\nAvailable fields:\n  path\n  repository\n  sha\n  textMatches\n  url\n',
    });
  });
});
