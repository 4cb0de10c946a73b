import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeSavedLogin } from '../auth-store.js';
import {
  createFakeDependencies,
  createTempDir,
  envelopeOf,
  errorOf,
  runCli,
  startStubRelay,
  type StubAnswer,
  type StubRelay,
} from '../../test/cli-harness.js';

let relay: StubRelay | undefined;
let dir: ReturnType<typeof createTempDir>;
beforeEach(() => {
  dir = createTempDir();
});
afterEach(async () => {
  await relay?.close();
  relay = undefined;
  dir.remove();
});

const HEALTH = {
  pool: 'team',
  identities_total: 3,
  identities_healthy: 2,
  identities_cooling_down: 1,
  string_rewrite_revision: 4,
  pool_policy: {
    allowed_owners: ['acme'],
    allow_public_repos: true,
    allow_search: false,
    allow_logs: true,
  },
};
const STATS = {
  pool: 'team',
  window: '24h',
  since: '2029-12-31T00:00:00.000Z',
  requests: 10,
  service_errors: 1,
  local_fallbacks: 2,
  cache_hit_rate: 0.5,
  eligible_cache_hit_rate: null,
  coalesced_misses: 0,
  caller_usage: [{ login: 'alice', requests: 10 }],
  client_usage: [{ client: 'laptop', requests: 10 }],
  client_routes: [{ client: 'laptop', route_kind: 'repo_view', requests: 10 }],
  active_clients: [{ client: 'laptop', last_used_at: '2030-01-01T00:00:00.000Z' }],
  cache_entries: 5,
  top_route_kinds: [{ route_kind: 'repo_view', requests: 10 }],
  upstream: [{ route_kind: 'repo_view', source: 'forge_api', count: 4 }],
  fallback_reasons: { repo_not_public: 2 },
};

async function setup(answer: (url: string) => StubAnswer, env: Record<string, string> = {}) {
  relay = await startStubRelay((request) => answer(request.url));
  await writeSavedLogin(
    dir.path,
    {
      url: relay.url,
      pool: 'team',
      token: 'rly_saved',
      login: 'alice',
      client: 'laptop',
      timestamp: '2030-01-01T00:00:00.000Z',
    },
    () => 0,
  );
  return createFakeDependencies({ env: { RELAY_CONFIG_DIR: dir.path, ...env } });
}

describe('relay health', () => {
  it('prints identity counts, revision and policy', async () => {
    const deps = await setup(() => ({ status: 200, json: HEALTH }));
    const result = await runCli(['health'], deps);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'pool: team\nidentities: 3 total, 2 healthy, 1 cooling down\nstring-rewrite revision: 4\npool policy: owners acme; public repos allowed; search denied; logs allowed\n',
    );
    expect(relay?.requests[0]).toMatchObject({
      url: '/v1/pools/team/health',
      headers: { authorization: 'Bearer rly_saved' },
    });
  });

  it('asks another pool with --pool and prints JSON with --json', async () => {
    const deps = await setup(() => ({ status: 200, json: { ...HEALTH, pool: 'other' } }));
    const result = await runCli(['health', '--pool', 'other', '--json'], deps);
    expect(JSON.parse(result.stdout)).toEqual({ ...HEALTH, pool: 'other' });
    expect(relay?.requests[0]?.url).toBe('/v1/pools/other/health');
  });

  it('never sends the saved token to another URL (client rule 2)', async () => {
    const deps = await setup(() => ({ status: 200, json: HEALTH }));
    const result = await runCli(['health', '--server', 'https://elsewhere.example'], deps);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('not_logged_in');
    expect(relay?.requests).toEqual([]);
  });

  it('uses an explicit RELAY_TOKEN over the saved one, also for another URL', async () => {
    const deps = await setup(() => ({ status: 200, json: HEALTH }), {
      RELAY_TOKEN: 'rly_explicit',
    });
    const result = await runCli(['health', '--server', relay?.url ?? ''], deps);
    expect(result.code).toBe(0);
    expect(relay?.requests[0]?.headers.authorization).toBe('Bearer rly_explicit');
  });

  it('reads the token from the --token-env variable', async () => {
    const deps = await setup(() => ({ status: 200, json: HEALTH }), { CI_RELAY: 'rly_ci' });
    await runCli(['health', '--token-env', 'CI_RELAY'], deps);
    expect(relay?.requests[0]?.headers.authorization).toBe('Bearer rly_ci');
  });

  it('maps relay errors to stable exit codes', async () => {
    const deps = await setup(() => ({ status: 403, json: errorOf('pool_forbidden') }));
    const result = await runCli(['health', '--pool', 'nope'], deps);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'relay: The caller holds no grant on this pool. (pool_forbidden, request req-err)\n',
    );
  });
});

describe('relay stats', () => {
  it('sends window and client, and prints a human table', async () => {
    const deps = await setup(() => ({ status: 200, json: { ...STATS, client_filter: 'laptop' } }));
    const result = await runCli(['stats', '--since', '7d', '--client', 'laptop'], deps);
    expect(result.code).toBe(0);
    expect(relay?.requests[0]?.url).toBe('/v1/pools/team/stats?window=7d&client=laptop');
    expect(result.stdout).toMatch(/^metric\s+value\n/);
    expect(result.stdout).toMatch(/cache hit rate\s+50\.0%/);
    expect(result.stdout).toMatch(/eligible cache hit rate\s+-/);
    expect(result.stdout).toMatch(/repo_not_public\s+2/);
    expect(result.stdout).not.toContain('\u001b[');
  });

  it.each<[string, object, RegExp[]]>([
    [
      'a client with no usage (the server still counts the pool)',
      { ...STATS, client_filter: 'nobody', client_usage: [], client_routes: [] },
      [/^client\s+nobody$/m, /^client requests\s+0$/m, /^pool requests\s+10$/m],
    ],
    [
      'a client with usage',
      { ...STATS, requests: 25, client_filter: 'laptop' },
      [/^client\s+laptop$/m, /^client requests\s+10$/m, /^pool requests\s+25$/m],
    ],
  ])('--client reports %s, never pool totals as its own', async (_name, body, lines) => {
    const deps = await setup(() => ({ status: 200, json: body }));
    const result = await runCli(['stats', '--client', 'x'], deps);
    expect(result.code).toBe(0);
    for (const line of lines) expect(result.stdout).toMatch(line);
    expect(result.stdout).not.toMatch(/^requests\s/m);
  });

  it('prints the JSON with --json', async () => {
    const deps = await setup(() => ({ status: 200, json: STATS }));
    const result = await runCli(['stats', '--json'], deps);
    expect(JSON.parse(result.stdout)).toEqual(STATS);
  });

  it.each(['1w', '0h', 'soon'])('rejects --since %s as a usage error', async (since) => {
    const deps = await setup(() => ({ status: 200, json: STATS }));
    const result = await runCli(['stats', '--since', since], deps);
    expect(result.code).toBe(2);
    expect(relay?.requests).toEqual([]);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['only .local', '.local'],
    ['81 characters', 'c'.repeat(81)],
  ])('rejects a --client that is %s as a usage error', async (_name, client) => {
    const deps = await setup(() => ({ status: 200, json: STATS }));
    const result = await runCli(['stats', '--client', client], deps);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('(usage_error)');
    expect(relay?.requests).toEqual([]);
  });

  it('sends the --client filter normalized, 80 characters untruncated', async () => {
    const deps = await setup(() => ({ status: 200, json: STATS }));
    await runCli(['stats', '--client', 'Laptop.local'], deps);
    await runCli(['stats', '--client', 'c'.repeat(80)], deps);
    expect(relay?.requests.map((request) => request.url)).toEqual([
      '/v1/pools/team/stats?window=24h&client=Laptop',
      `/v1/pools/team/stats?window=24h&client=${'c'.repeat(80)}`,
    ]);
  });

  it('colours the table heading on a terminal unless NO_COLOR is set', async () => {
    const tty = await setup(() => ({ status: 200, json: STATS }));
    const coloured = await runCli(['stats'], { ...tty, stdoutIsTTY: true });
    expect(coloured.stdout).toContain('\u001b[1m');
    const plain = await runCli(['stats'], {
      ...tty,
      stdoutIsTTY: true,
      env: { ...tty.env, NO_COLOR: '1' },
    });
    expect(plain.stdout).not.toContain('\u001b[');
  });
});

describe('relay request', () => {
  it('posts the debug request and prints the full envelope', async () => {
    const envelope = envelopeOf({ a: 1 });
    const deps = await setup(() => ({ status: 200, json: envelope }));
    const sha = 'a'.repeat(40);
    const result = await runCli(
      [
        'request',
        '--path',
        '/repos/a/b/pulls/1/files',
        '--query',
        'per_page=100',
        '--query',
        'x=1',
        '--query',
        'x=2',
        '--header',
        'cache-control=max-age=0',
        '--route-hint',
        `pr_head_sha=${sha}`,
        '--route-hint',
        'pr_state=closed',
      ],
      deps,
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(envelope);
    expect(relay?.requests[0]?.json).toEqual({
      pool: 'team',
      method: 'GET',
      path: '/repos/a/b/pulls/1/files',
      query: { per_page: '100', x: ['1', '2'] },
      headers: { 'cache-control': 'max-age=0' },
      route_hint: { pr_head_sha: sha, pr_state: 'closed' },
    });
  });

  it('does not retry or fall back', async () => {
    const deps = await setup(() => ({
      status: 424,
      json: errorOf('fallback_local', 'forge_rate_limited'),
    }));
    const result = await runCli(['request', '--path', '/rate_limit'], deps);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('fallback_local, reason forge_rate_limited');
    expect(relay?.requests).toHaveLength(1);
    expect(deps.nativeRuns).toEqual([]);
  });

  it('rejects an unknown route hint', async () => {
    const deps = await setup(() => ({ status: 200, json: envelopeOf({}) }));
    const result = await runCli(['request', '--path', '/x', '--route-hint', 'owner=a'], deps);
    expect(result.code).toBe(2);
  });

  it.each([
    ['an unknown route hint', ['--route-hint', 'owner=a']],
    ['a pr_head_sha that is not a commit hash', ['--route-hint', 'pr_head_sha=zzz']],
    ['a short pr_head_sha', ['--route-hint', `pr_head_sha=${'a'.repeat(39)}`]],
    ['a pr_state outside open, closed, merged', ['--route-hint', 'pr_state=bogus']],
    ['a secret-bearing query key', ['--query', 'access_token=ghp_query-secret']],
    ['an authorization header', ['--header', 'authorization=token ghp_header-secret']],
    ['a cookie header', ['--header', 'Cookie: session=ghp_cookie-secret']],
    ['a header outside the allowlist', ['--header', 'x-custom=1']],
  ])('refuses %s before sending anything (usage error)', async (_name, flags) => {
    const deps = await setup(() => ({ status: 200, json: envelopeOf({}) }));
    const result = await runCli(['request', '--path', '/repos/a/b/pulls/1/files', ...flags], deps);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('(usage_error)');
    expect(result.stderr).not.toContain('ghp_');
    expect(relay?.requests).toEqual([]);
  });

  it.each([
    ['accept=application/vnd.github+json', { accept: 'application/vnd.github+json' }],
    ['X-Forge-Api-Version: 2022-11-28', { 'x-forge-api-version': '2022-11-28' }],
    ['if-none-match=W/"abc"', { 'if-none-match': 'W/"abc"' }],
  ])('sends the allowed header %s', async (header, expected) => {
    const deps = await setup(() => ({ status: 200, json: envelopeOf({}) }));
    const sha = 'B'.repeat(64);
    const result = await runCli(
      [
        'request',
        '--path',
        '/repos/a/b/pulls/1/files',
        '--header',
        header,
        '--route-hint',
        `pr_head_sha=${sha}`,
        '--route-hint',
        'pr_state=merged',
      ],
      deps,
    );
    expect(result.code).toBe(0);
    expect(relay?.requests[0]?.json).toMatchObject({
      headers: expected,
      route_hint: { pr_head_sha: sha, pr_state: 'merged' },
    });
  });
});
