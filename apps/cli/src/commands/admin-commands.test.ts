import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createFakeDependencies,
  createTempDir,
  errorOf,
  runCli,
  startStubRelay,
  type StubAnswer,
  type StubRelay,
  type StubRequest,
} from '../../test/cli-harness.js';

const ADMIN = 'admin-token-0123456789';
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

const POLICY = {
  schema_version: 1,
  revision: 4,
  updated_at: '2030-01-01T00:00:00.000Z',
  rules: [{ pattern: 'secret-[0-9]+', replacement: 'x' }],
};

async function setup(answer: (request: StubRequest) => StubAnswer, stdin?: string) {
  relay = await startStubRelay(answer);
  return createFakeDependencies({
    env: { RELAY_CONFIG_DIR: dir.path, RELAY_URL: relay.url, RELAY_ADMIN_TOKEN: ADMIN },
    ...(stdin === undefined ? {} : { stdin }),
  });
}

describe('relay admin string-rewrites', () => {
  it('status prints revision and rule count, never a pattern', async () => {
    const deps = await setup(() => ({ status: 200, json: POLICY }));
    const result = await runCli(['admin', 'string-rewrites', 'status'], deps);
    expect(result).toMatchObject({
      code: 0,
      stdout: 'revision 4\nrules 1\nupdated_at 2030-01-01T00:00:00.000Z\n',
    });
    expect(result.stdout).not.toContain('secret-');
    expect(relay?.requests[0]?.headers.authorization).toBe(`Bearer ${ADMIN}`);
  });

  it('set validates the file, PUTs it with the current revision and prints only revision and count', async () => {
    const deps = await setup((request) =>
      request.method === 'GET'
        ? { status: 200, json: POLICY }
        : {
            status: 200,
            json: { schema_version: 1, revision: 5, updated_at: POLICY.updated_at, rule_count: 2 },
          },
    );
    const file = join(dir.path, 'rules.json');
    const rules = [
      { pattern: 'a+b', replacement: '' },
      { pattern: 'tok_[a-z]{8}', replacement: 'tok' },
    ];
    writeFileSync(file, JSON.stringify({ schema_version: 1, rules }));
    const result = await runCli(['admin', 'string-rewrites', 'set', '--file', file], deps);
    expect(result).toMatchObject({ code: 0, stdout: 'revision 5\nrules 2\n' });
    expect(relay?.requests[1]).toMatchObject({
      method: 'PUT',
      url: '/v1/admin/string-rewrites',
      json: { schema_version: 1, expected_revision: 4, rules },
    });
  });

  it('set reads stdin with --file - and uses --if-revision without a GET', async () => {
    const deps = await setup(
      () => ({ status: 409, json: errorOf('string_rewrite_revision_conflict') }),
      JSON.stringify({ schema_version: 1, rules: [] }),
    );
    const result = await runCli(
      ['admin', 'string-rewrites', 'set', '--file', '-', '--if-revision', '3'],
      deps,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('string_rewrite_revision_conflict');
    expect(relay?.requests.map((r) => r.method)).toEqual(['PUT']);
    expect(relay?.requests[0]?.json.expected_revision).toBe(3);
  });

  it.each([
    ['an unknown field', { schema_version: 1, rules: [], flags: 'i' }],
    ['lookaround', { schema_version: 1, rules: [{ pattern: '(?=a)', replacement: '' }] }],
    [
      'a pattern matching empty input',
      { schema_version: 1, rules: [{ pattern: 'a*', replacement: '' }] },
    ],
    ['schema_version 2', { schema_version: 2, rules: [] }],
  ])(
    'set rejects %s locally, without sending and without echoing the pattern',
    async (_name, document) => {
      const deps = await setup(() => ({ status: 200, json: POLICY }), JSON.stringify(document));
      const result = await runCli(
        ['admin', 'string-rewrites', 'set', '--file', '-', '--if-revision', '1'],
        deps,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('invalid_string_rewrite_policy');
      expect(result.stderr).not.toContain('(?=a)');
      expect(relay?.requests).toEqual([]);
    },
  );

  it('refuses any redirect of a policy request', async () => {
    const deps = await setup((request) =>
      request.url === '/v1/admin/string-rewrites'
        ? { status: 307, headers: { location: '/v1/admin/string-rewrites-2' } }
        : { status: 200, json: POLICY },
    );
    const result = await runCli(['admin', 'string-rewrites', 'status'], deps);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('redirect_refused');
    expect(relay?.requests).toHaveLength(1);
  });

  it('needs RELAY_ADMIN_TOKEN', async () => {
    const deps = await setup(() => ({ status: 200, json: POLICY }));
    const result = await runCli(['admin', 'string-rewrites', 'status'], {
      ...deps,
      env: { RELAY_URL: relay?.url },
    });
    expect(result.code).toBe(4);
    expect(relay?.requests).toEqual([]);
  });
});

describe('relay admin caller and identity', () => {
  it('caller provisions and prints the one-time token', async () => {
    const token = `rly_${'B'.repeat(43)}`;
    const deps = await setup(() => ({
      status: 200,
      json: {
        token,
        caller_id: 'c1',
        forge_user_id: 9,
        login: 'hubot',
        pool: 'team',
        client: 'ci',
        expires_at: '2030-02-01T00:00:00.000Z',
      },
    }));
    const result = await runCli(
      ['admin', 'caller', '--pool', 'team', '--login', 'hubot', '--name', 'ci'],
      deps,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`token: ${token}`);
    expect(relay?.requests[0]).toMatchObject({
      url: '/v1/admin/callers',
      json: { pool: 'team', forge_login: 'hubot', name: 'ci' },
    });
  });

  it('identity registers from flags', async () => {
    const deps = await setup((request) => ({
      status: 201,
      json: { ...request.json, pool: 'team' },
    }));
    const result = await runCli(
      [
        'admin',
        'identity',
        '--pool',
        'team',
        '--id',
        'reader-1',
        '--kind',
        'pat',
        '--login',
        'bot',
        '--secret-ref',
        'READER_1',
        '--scope',
        'acme',
        '--scope',
        'acme/widgets',
        '--scope',
        '*',
      ],
      deps,
    );
    expect(result.code).toBe(0);
    expect(relay?.requests[0]).toMatchObject({
      url: '/v1/admin/pools/team/identities',
      json: {
        id: 'reader-1',
        kind: 'pat',
        login: 'bot',
        secret_ref: 'READER_1',
        installation_id: null,
        weight: 100,
        scopes: [
          { owner: 'acme', allow_private: false },
          { owner: 'acme', repo: 'widgets', allow_private: false },
          { owner: '*', allow_private: false },
        ],
      },
    });
  });

  it('identity rejects a forge_app without installation id before sending', async () => {
    const deps = await setup(() => ({ status: 201, json: {} }));
    const result = await runCli(
      [
        'admin',
        'identity',
        '--pool',
        'team',
        '--id',
        'app',
        '--kind',
        'forge_app',
        '--login',
        'bot',
        '--secret-ref',
        'KEY',
      ],
      deps,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('installation_id');
    expect(relay?.requests).toEqual([]);
  });

  it.each([
    ['a scope with a third part', ['--scope', 'acme/widgets/extra']],
    ['a scope with an empty repo', ['--scope', 'acme/']],
    ['a scope with an empty owner', ['--scope', '/widgets']],
    ['an empty weight (Number would read 0)', ['--weight', '']],
    ['a blank weight', ['--weight', ' ']],
    ['a weight in exponent notation', ['--weight', '1e2']],
    ['a hexadecimal weight', ['--weight', '0x10']],
  ])('identity refuses %s before sending', async (_name, flags) => {
    const deps = await setup(() => ({ status: 201, json: {} }));
    const result = await runCli(
      [
        'admin',
        'identity',
        '--pool',
        'team',
        '--id',
        'reader-1',
        '--kind',
        'pat',
        '--login',
        'bot',
        '--secret-ref',
        'READER_1',
        ...flags,
      ],
      deps,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('(usage_error)');
    expect(relay?.requests).toEqual([]);
  });

  it.each([
    ['an empty installation id', ''],
    ['a hexadecimal installation id', '0x10'],
  ])('identity refuses %s before sending', async (_name, value) => {
    const deps = await setup(() => ({ status: 201, json: {} }));
    const result = await runCli(
      [
        'admin',
        'identity',
        '--pool',
        'team',
        '--id',
        'app',
        '--kind',
        'forge_app',
        '--login',
        'bot',
        '--secret-ref',
        'KEY',
        '--installation-id',
        value,
      ],
      deps,
    );
    expect(result.code).toBe(2);
    expect(relay?.requests).toEqual([]);
  });

  it('identity conflict maps to exit 1', async () => {
    const deps = await setup(
      () => ({ status: 409, json: errorOf('identity_conflict') }),
      JSON.stringify({ id: 'r', kind: 'pat', login: 'bot', secret_ref: 'S' }),
    );
    const result = await runCli(['admin', 'identity', '--pool', 'team', '--file', '-'], deps);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('identity_conflict');
  });
});
