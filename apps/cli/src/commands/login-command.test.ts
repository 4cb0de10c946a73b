import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
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
} from '../../test/cli-harness.js';

const CALLER_TOKEN = `rly_${'A'.repeat(43)}`;
let relay: StubRelay | undefined;
let other: StubRelay | undefined;
let dir: ReturnType<typeof createTempDir>;

beforeEach(() => {
  dir = createTempDir();
});
afterEach(async () => {
  await relay?.close();
  await other?.close();
  relay = other = undefined;
  dir.remove();
});

function discovery(apiBase: string, extra: Record<string, unknown> = {}) {
  return {
    service: 'relay',
    version: 1,
    api_base: apiBase,
    app_base: apiBase,
    default_pool: 'default',
    allowed_org: 'acme',
    auth: { cli_forge_token: true, web_login: false },
    min_cli_version: '0.1.0',
    ...extra,
  };
}

function loginAnswer(json: { pool?: string; client: string }): StubAnswer {
  return {
    status: 200,
    json: {
      token: CALLER_TOKEN,
      login: 'alice',
      forge_user_id: 7,
      pool: json.pool ?? 'default',
      client: json.client,
      expires_at: '2030-02-01T00:00:00.000Z',
    },
  };
}

async function startRelay(
  overrides: { discovery?: (url: string) => StubAnswer; login?: StubAnswer } = {},
) {
  let url = '';
  relay = await startStubRelay((request) => {
    if (request.url === '/.well-known/relay') {
      return overrides.discovery?.(url) ?? { status: 200, json: discovery(url) };
    }
    if (request.url === '/v1/login/forge-cli')
      return overrides.login ?? loginAnswer(request.json as { client: string });
    return { status: 404, json: errorOf('not_found') };
  });
  url = relay.url;
  return relay;
}

const env = (extra: Record<string, string> = {}) => ({ RELAY_CONFIG_DIR: dir.path, ...extra });

describe('relay login', () => {
  it('exchanges GH_TOKEN, saves auth.json with mode 0600 and the six fields', async () => {
    const stub = await startRelay();
    const deps = createFakeDependencies({
      env: env({ GH_TOKEN: 'gho_user', GITHUB_TOKEN: 'other' }),
    });
    const result = await runCli(['login', stub.url], deps);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('as alice');
    expect(stub.requests[1]?.json).toEqual({
      forge_token: 'gho_user',
      client: 'workstation',
      pool: 'default',
    });
    const file = join(dir.path, 'auth.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      url: stub.url,
      pool: 'default',
      token: CALLER_TOKEN,
      login: 'alice',
      client: 'workstation',
      timestamp: '2030-01-01T00:00:00.000Z',
    });
    expect(result.stdout + result.stderr).not.toContain(CALLER_TOKEN);
  });

  it.each([
    ['GH_TOKEN first', { GH_TOKEN: 'a', GITHUB_TOKEN: 'b' }, 'a'],
    ['GITHUB_TOKEN when GH_TOKEN is blank', { GH_TOKEN: '  ', GITHUB_TOKEN: 'b' }, 'b'],
  ])('reads the native token: %s', async (_name, tokens, expected) => {
    const stub = await startRelay();
    await runCli(['login', '--server', stub.url], createFakeDependencies({ env: env(tokens) }));
    expect(stub.requests[1]?.json.forge_token).toBe(expected);
  });

  it('falls back to `gh auth token --hostname github.com` without host overrides', async () => {
    const stub = await startRelay();
    const seen: { args: readonly string[]; env: Record<string, string | undefined> }[] = [];
    const deps = createFakeDependencies({
      env: env({ GH_HOST: 'ghe.example.com', GH_ENTERPRISE_TOKEN: 'enterprise' }),
      executables: { gh: '/usr/bin/gh' },
      runProcess: (_file, args, options) => {
        seen.push({ args, env: options.env });
        return Promise.resolve({
          code: 0,
          stdout: Buffer.from('gho_stored\n'),
          stderr: Buffer.alloc(0),
        });
      },
    });
    const result = await runCli(['login', '--url', stub.url], deps);
    expect(result.code).toBe(0);
    expect(seen[0]?.args).toEqual(['auth', 'token', '--hostname', 'github.com']);
    expect(seen[0]?.env.GH_HOST).toBeUndefined();
    expect(seen[0]?.env.GH_ENTERPRISE_TOKEN).toBeUndefined();
    expect(stub.requests[1]?.json.forge_token).toBe('gho_stored');
  });

  it.each([
    ['no gh at all', undefined],
    ['gh prints nothing', Buffer.from('\n')],
  ])(
    'fails with exit 4 when there is no token (%s), never an enterprise one',
    async (_name, output) => {
      const stub = await startRelay();
      const deps = createFakeDependencies({
        env: env({ GH_ENTERPRISE_TOKEN: 'enterprise', GITHUB_ENTERPRISE_TOKEN: 'enterprise' }),
        ...(output === undefined
          ? {}
          : {
              executables: { gh: '/usr/bin/gh' },
              runProcess: () =>
                Promise.resolve({ code: 0, stdout: output, stderr: Buffer.alloc(0) }),
            }),
      });
      const result = await runCli(['login', stub.url], deps);
      expect(result.code).toBe(4);
      expect(result.stderr).toContain('native_token_missing');
      expect(stub.requests).toEqual([]);
    },
  );

  it.each([['http on a non-loopback host', 'http://relay.example.com', {}, 'insecure_url']])(
    'refuses %s',
    async (_name, url, extra, code) => {
      const result = await runCli(
        ['login', url],
        createFakeDependencies({ env: env({ GH_TOKEN: 't', ...extra }) }),
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(code);
    },
  );

  it('fails when discovery is not a relay document', async () => {
    const stub = await startRelay({
      discovery: (url) => ({ status: 200, json: discovery(url, { service: 'other' }) }),
    });
    const result = await runCli(
      ['login', stub.url],
      createFakeDependencies({ env: env({ GH_TOKEN: 't' }) }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('relay_protocol_error');
    expect(stub.requests).toHaveLength(1);
  });

  it('refuses an api_base on another host unless --trust-discovery-redirect', async () => {
    other = await startStubRelay((request) => loginAnswer(request.json as { client: string }));
    const otherUrl = other.url.replace('127.0.0.1', 'localhost');
    const stub = await startRelay({
      discovery: () => ({ status: 200, json: discovery(otherUrl) }),
    });
    const deps = createFakeDependencies({ env: env({ GH_TOKEN: 't' }) });
    const refused = await runCli(['login', stub.url], deps);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('redirect_refused');
    expect(other.requests).toEqual([]);
    const trusted = await runCli(['login', stub.url, '--trust-discovery-redirect'], deps);
    expect(trusted.code).toBe(0);
    expect(other.requests).toHaveLength(1);
  });

  it.each<[string, string[], Record<string, string>]>([
    ['on the same host', [], { RELAY_ALLOW_INSECURE_LOGIN: '1' }],
    [
      'with --trust-discovery-redirect',
      ['--trust-discovery-redirect'],
      { RELAY_ALLOW_INSECURE_LOGIN: '1' },
    ],
    ['to a loopback api_base', ['--trust-discovery-redirect'], {}],
  ])(
    'refuses an http api_base in the discovery of an https server %s',
    async (_name, flags, extra) => {
      const apiBase =
        extra.RELAY_ALLOW_INSECURE_LOGIN === '1'
          ? 'http://relay.example.com'
          : 'http://127.0.0.1:8787';
      const sent: string[] = [];
      const deps = {
        ...createFakeDependencies({ env: env({ GH_TOKEN: 'gho_secret', ...extra }) }),
        // https cannot be stubbed on loopback without a certificate: a fake fetch answers.
        fetch: (input: string | URL) => {
          sent.push(String(input));
          return Promise.resolve(
            Response.json(String(input).endsWith('/.well-known/relay') ? discovery(apiBase) : {}),
          );
        },
      };
      const result = await runCli(['login', 'https://relay.example.com', ...flags], deps);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('(redirect_refused)');
      expect(sent).toEqual(['https://relay.example.com/.well-known/relay']);
    },
  );

  it.each([
    ['credentials', (url: string) => url.replace('http://', 'http://user:pw@')],
    ['a fragment', (url: string) => `${url}/#x`],
    ['something that does not parse', () => 'http://[bad'],
  ])(
    'reports a discovery api_base with %s as the relay protocol error it is (exit 1)',
    async (_name, apiBase) => {
      const stub = await startRelay({
        discovery: (url) => ({ status: 200, json: discovery(apiBase(url)) }),
      });
      const result = await runCli(
        ['login', stub.url],
        createFakeDependencies({ env: env({ GH_TOKEN: 't' }) }),
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('(relay_protocol_error)');
      expect(result.stderr).not.toContain('pw');
      expect(stub.requests).toHaveLength(1);
    },
  );

  it('accepts an https api_base in the discovery of an http server (an upgrade)', async () => {
    const sent: string[] = [];
    const deps = {
      ...createFakeDependencies({ env: env({ GH_TOKEN: 't', RELAY_ALLOW_INSECURE_LOGIN: '1' }) }),
      fetch: (input: string | URL) => {
        sent.push(String(input));
        return Promise.resolve(
          Response.json(
            String(input).endsWith('/.well-known/relay')
              ? discovery('https://relay.example.com')
              : loginAnswer({ client: 'workstation' }).json,
          ),
        );
      },
    };
    const result = await runCli(['login', 'http://relay.example.com'], deps);
    expect(result.code).toBe(0);
    expect(sent).toEqual([
      'http://relay.example.com/.well-known/relay',
      'https://relay.example.com/v1/login/forge-cli',
    ]);
  });

  it.each([
    ['the argument and --server', ['--server', 'https://other.example']],
    ['the argument and --url', ['--url', 'https://other.example']],
  ])('refuses two different servers (%s)', async (_name, flags) => {
    const stub = await startRelay();
    const result = await runCli(
      ['login', stub.url, ...flags],
      createFakeDependencies({ env: env({ GH_TOKEN: 't' }) }),
    );
    expect(result.code).toBe(2);
    expect(stub.requests).toEqual([]);
  });

  it('accepts the same server given twice', async () => {
    const stub = await startRelay();
    const result = await runCli(
      ['login', stub.url, '--server', stub.url],
      createFakeDependencies({ env: env({ GH_TOKEN: 't' }) }),
    );
    expect(result.code).toBe(0);
  });

  it('refuses a cross-origin redirect of the login exchange', async () => {
    other = await startStubRelay((request) => loginAnswer(request.json as { client: string }));
    const stub = await startRelay({
      login: { status: 307, headers: { location: `${other.url}/v1/login/forge-cli` } },
    });
    const result = await runCli(
      ['login', stub.url],
      createFakeDependencies({ env: env({ GH_TOKEN: 't' }) }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('redirect_refused');
    expect(other.requests).toEqual([]);
  });

  it('passes --pool and an explicit client name, normalized but never truncated', async () => {
    const stub = await startRelay();
    const deps = createFakeDependencies({ env: env({ GH_TOKEN: 't' }) });
    await runCli(['login', stub.url, '--pool', 'team', '--client', 'Laptop.local'], deps);
    expect(stub.requests[1]?.json).toMatchObject({ pool: 'team', client: 'Laptop' });
    const long = await runCli(['login', stub.url, '--client', 'x'.repeat(81)], deps);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('usage_error');
  });

  it('truncates the default client name (the host name) to 80 characters', async () => {
    const stub = await startRelay();
    const deps = createFakeDependencies({
      env: env({ GH_TOKEN: 't' }),
      hostname: `${'h'.repeat(90)}.local`,
    });
    await runCli(['login', stub.url], deps);
    expect(stub.requests[1]?.json.client).toBe('h'.repeat(80));
  });

  it('reports client_name_ambiguous and keeps the old login', async () => {
    const stub = await startRelay({
      login: { status: 409, json: errorOf('client_name_ambiguous') },
    });
    const result = await runCli(
      ['login', stub.url],
      createFakeDependencies({ env: env({ GH_TOKEN: 't' }) }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('client_name_ambiguous');
  });

  it('reports org_membership_required with exit 4 and never prints the forge token', async () => {
    const stub = await startRelay({
      login: { status: 403, json: errorOf('org_membership_required') },
    });
    const result = await runCli(
      ['login', stub.url],
      createFakeDependencies({ env: env({ GH_TOKEN: 'gho_secret' }) }),
    );
    expect(result.code).toBe(4);
    expect(result.stdout + result.stderr).not.toContain('gho_secret');
  });
});

describe('relay whoami', () => {
  it('prints the saved login, as text or JSON, never the token', async () => {
    const stub = await startRelay();
    const deps = createFakeDependencies({ env: env({ GH_TOKEN: 't' }) });
    await runCli(['login', stub.url], deps);
    const text = await runCli(['whoami'], deps);
    expect(text.stdout).toBe(
      `server: ${stub.url}\npool: default\nlogin: alice\nclient: workstation\n`,
    );
    const json = await runCli(['whoami', '--json'], deps);
    expect(JSON.parse(json.stdout)).toEqual({
      server: stub.url,
      pool: 'default',
      login: 'alice',
      client: 'workstation',
    });
    expect(text.stdout + json.stdout).not.toContain(CALLER_TOKEN);
  });

  it('exits 4 when nobody is logged in', async () => {
    const result = await runCli(['whoami'], createFakeDependencies({ env: env() }));
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('not_logged_in');
  });
});
