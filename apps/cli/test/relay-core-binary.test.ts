import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, envelopeOf, errorOf, startStubRelay } from './cli-harness.js';
import type { StubAnswer, StubRelay } from './cli-harness.js';
import { buildCli, runBinary } from './relay-stack.js';
import type { BuiltCli } from './relay-stack.js';

/**
 * The core commands (login, request, health, stats, admin) of the BUILT `relay` binary against
 * a loopback stub of the relay contract: what a user (or an attacker choosing the inputs) sees.
 */

const CALLER_TOKEN = `rly_${'S'.repeat(43)}`;

let cli: BuiltCli;
let stub: StubRelay | undefined;
let dir: ReturnType<typeof createTempDir>;

beforeAll(async () => {
  cli = await buildCli('relay-core-binary');
}, 120_000);
afterAll(() => {
  cli.remove();
});
beforeEach(() => {
  dir = createTempDir();
});
afterEach(async () => {
  await stub?.close();
  stub = undefined;
  dir.remove();
});

function discoveryOf(apiBase: string) {
  return {
    service: 'relay',
    version: 1,
    api_base: apiBase,
    app_base: apiBase,
    default_pool: 'team',
    allowed_org: 'acme',
    auth: { cli_forge_token: true, web_login: false },
    min_cli_version: '0.1.0',
  };
}

/** A stub relay with a saved login for it in RELAY_CONFIG_DIR; returns the environment. */
async function loggedIn(answer: (url: string) => StubAnswer = () => ({ status: 200, json: {} })) {
  let url = '';
  stub = await startStubRelay(() => answer(url));
  url = stub.url;
  const configDir = join(dir.path, 'config');
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  writeFileSync(
    join(configDir, 'auth.json'),
    JSON.stringify({
      url,
      pool: 'team',
      token: CALLER_TOKEN,
      login: 'alice',
      client: 'laptop',
      timestamp: '2030-01-01T00:00:00.000Z',
    }),
    { mode: 0o600 },
  );
  return { RELAY_CONFIG_DIR: configDir };
}

describe('relay URLs given on the command line or in RELAY_URL', () => {
  it('refuses credentials in --server without echoing them or sending anything', async () => {
    const env = await loggedIn();
    const withCredentials = stub?.url.replace('http://', 'http://user:hunter2@') ?? '';
    for (const extra of [{}, { RELAY_TOKEN: 'rly_explicit' }]) {
      const result = await runBinary(cli.bin, ['health', '--server', withCredentials], {
        ...env,
        ...extra,
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('(usage_error)');
      expect(result.stderr).not.toContain('hunter2');
    }
    expect(stub?.requests).toEqual([]);
  }, 20_000);

  it.each([
    ['a fragment', '/#frag'],
    ['an empty fragment', '/#'],
    ['a query', '/?x=1'],
    ['an empty query', '/?'],
  ])(
    'refuses a URL with %s instead of sending the token to the wrong path',
    async (_name, tail) => {
      const env = await loggedIn();
      const server = `${stub?.url ?? ''}${tail}`;
      for (const argv of [
        ['health', '--server', server],
        ['stats', '--server', server],
        ['request', '--path', '/repos/a/b', '--server', server],
      ]) {
        const result = await runBinary(cli.bin, argv, { ...env, RELAY_TOKEN: 'rly_explicit' });
        expect(result.code).toBe(2);
        expect(result.stderr).toContain('(usage_error)');
      }
      const admin = await runBinary(cli.bin, ['admin', 'string-rewrites', 'status'], {
        ...env,
        RELAY_URL: server,
        RELAY_ADMIN_TOKEN: 'admin-secret',
      });
      expect(admin.code).toBe(2);
      expect(stub?.requests).toEqual([]);
    },
    20_000,
  );

  it('refuses a discovery api_base with an empty query before posting the forge token', async () => {
    let url = '';
    stub = await startStubRelay((request) =>
      request.url === '/.well-known/relay'
        ? { status: 200, json: discoveryOf(`${url}/?`) }
        : { status: 404, json: errorOf('not_found') },
    );
    url = stub.url;
    const result = await runBinary(cli.bin, ['login', url, '--client', 'laptop'], {
      RELAY_CONFIG_DIR: join(dir.path, 'config'),
      GH_TOKEN: 'gho_forge-secret',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('(relay_protocol_error)');
    expect(stub.requests.map((request) => request.url)).toEqual(['/.well-known/relay']);
  }, 20_000);

  it('still reads with the saved login when --server names the saved URL', async () => {
    const env = await loggedIn(() => ({ status: 200, json: envelopeOf({ ok: true }) }));
    const result = await runBinary(
      cli.bin,
      ['request', '--path', '/repos/a/b', '--server', `${stub?.url ?? ''}/`],
      env,
    );
    expect(result.code).toBe(0);
    expect(stub?.requests[0]?.headers.authorization).toBe(`Bearer ${CALLER_TOKEN}`);
  }, 20_000);
});

describe('relay request: what the relay would refuse or drop is refused before sending', () => {
  it.each([
    ['an authorization header', ['--header', 'authorization=token ghp_header-secret']],
    ['a header outside the allowlist', ['--header', 'x-custom: 1']],
    ['a secret-bearing query key', ['--query', 'client_secret=ghp_query-secret']],
    ['a pr_head_sha that is no commit hash', ['--route-hint', 'pr_head_sha=main']],
    ['a pr_state outside open, closed, merged', ['--route-hint', 'pr_state=draft']],
  ])(
    '%s: exit 2, nothing sent, no value echoed',
    async (_name, flags) => {
      const env = await loggedIn(() => ({ status: 200, json: envelopeOf({}) }));
      const result = await runBinary(cli.bin, ['request', '--path', '/repos/a/b', ...flags], env);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('(usage_error)');
      expect(result.stderr).not.toContain('ghp_');
      expect(stub?.requests).toEqual([]);
    },
    20_000,
  );
});

describe('relay stats --client', () => {
  it.each([
    ['empty', ''],
    ['81 characters', 'c'.repeat(81)],
  ])(
    'a filter that is %s is a usage error, not the relay invalid_request',
    async (_name, client) => {
      const env = await loggedIn();
      const result = await runBinary(cli.bin, ['stats', '--client', client], env);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('(usage_error)');
      expect(stub?.requests).toEqual([]);
    },
    20_000,
  );
});

describe('a token no HTTP header can carry', () => {
  it.each([
    ['RELAY_TOKEN', ['health'], { RELAY_TOKEN: 'rly_hunter2\ninjected: 1' }],
    [
      'a --token-env variable',
      ['stats', '--token-env', 'CI_TOKEN'],
      { CI_TOKEN: 'rly_hunter2\r' + 'x' },
    ],
    [
      'RELAY_ADMIN_TOKEN',
      ['admin', 'string-rewrites', 'status'],
      { RELAY_ADMIN_TOKEN: 'admin\u0007hunter2' },
    ],
  ])(
    'in %s is named as such (exit 4), not as an unreachable relay',
    async (_name, argv, extra) => {
      const env = await loggedIn();
      const result = await runBinary(cli.bin, argv, { ...env, ...extra });
      expect(result.code).toBe(4);
      expect(result.stderr).toContain('(not_logged_in)');
      expect(result.stderr).not.toContain('relay_unreachable');
      expect(result.stderr).not.toContain('hunter2');
      expect(stub?.requests).toEqual([]);
    },
    20_000,
  );
});

describe('relay admin identity flags', () => {
  it.each([
    ['--scope with a third part', ['--scope', 'acme/widgets/extra']],
    ['an empty --weight', ['--weight', '']],
    ['a hexadecimal --weight', ['--weight', '0x10']],
  ])(
    '%s is a usage error, never a silently different identity',
    async (_name, flags) => {
      const env = await loggedIn(() => ({ status: 201, json: {} }));
      const result = await runBinary(
        cli.bin,
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
        { ...env, RELAY_ADMIN_TOKEN: 'admin-secret' },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('(usage_error)');
      expect(stub?.requests).toEqual([]);
    },
    20_000,
  );
});

describe('the config directory', () => {
  it('ignores a relative XDG_CONFIG_HOME: the token file never lands in the working directory', async () => {
    let url = '';
    stub = await startStubRelay((request) =>
      request.url === '/.well-known/relay'
        ? { status: 200, json: discoveryOf(url) }
        : {
            status: 200,
            json: {
              token: CALLER_TOKEN,
              login: 'alice',
              forge_user_id: 7,
              pool: 'team',
              client: 'laptop',
              expires_at: '2030-02-01T00:00:00.000Z',
            },
          },
    );
    url = stub.url;
    const home = join(dir.path, 'home');
    const work = join(dir.path, 'checkout');
    mkdirSync(home);
    mkdirSync(work);
    const env = { HOME: home, XDG_CONFIG_HOME: '.config', GH_TOKEN: 'gho_forge' };
    const login = await runBinary(cli.bin, ['login', url, '--client', 'laptop'], env, work);
    expect(login.code).toBe(0);
    expect(existsSync(join(home, '.config', 'relay', 'auth.json'))).toBe(true);
    expect(existsSync(join(work, '.config'))).toBe(false);
    const whoami = await runBinary(cli.bin, ['whoami'], env, dir.path);
    expect(whoami).toMatchObject({ code: 0, stdout: expect.stringContaining('login: alice') });
  }, 20_000);
});

describe('same-origin redirects', () => {
  function loginStub(location: (url: string) => string) {
    let url = '';
    return startStubRelay((request) => {
      if (request.url === '/.well-known/relay') return { status: 200, json: discoveryOf(url) };
      if (request.url === '/v1/login/forge-cli') {
        return { status: 307, headers: { location: location(url) } };
      }
      return {
        status: 200,
        json: {
          token: CALLER_TOKEN,
          login: 'alice',
          forge_user_id: 7,
          pool: 'team',
          client: 'laptop',
          expires_at: '2030-02-01T00:00:00.000Z',
        },
      };
    }).then((relay) => {
      url = relay.url;
      return relay;
    });
  }

  it('are followed for the login exchange', async () => {
    stub = await loginStub(() => '/v1/login/moved');
    const result = await runBinary(cli.bin, ['login', stub.url, '--client', 'laptop'], {
      RELAY_CONFIG_DIR: join(dir.path, 'config'),
      GH_TOKEN: 'gho_forge',
    });
    expect(result.code).toBe(0);
    expect(stub.requests.map((request) => request.url)).toEqual([
      '/.well-known/relay',
      '/v1/login/forge-cli',
      '/v1/login/moved',
    ]);
  }, 20_000);

  it('are refused when the Location carries user info (no Basic credentials are sent)', async () => {
    stub = await loginStub((url) => `${url.replace('http://', 'http://evil:pw@')}/v1/login/moved`);
    const result = await runBinary(cli.bin, ['login', stub.url, '--client', 'laptop'], {
      RELAY_CONFIG_DIR: join(dir.path, 'config'),
      GH_TOKEN: 'gho_forge',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('(redirect_refused)');
    expect(stub.requests.map((request) => request.url)).toEqual([
      '/.well-known/relay',
      '/v1/login/forge-cli',
    ]);
  }, 20_000);
});

describe('pools', () => {
  it.each([
    ['health', ['health', '--pool', '..']],
    ['stats', ['stats', '--pool', '.']],
    ['request', ['request', '--path', '/repos/a/b', '--pool', '../admin']],
  ])(
    '%s refuses a pool that is no pool id instead of sending the token to another path',
    async (_name, argv) => {
      const env = await loggedIn();
      const result = await runBinary(cli.bin, argv, env);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('(usage_error)');
      expect(stub?.requests).toEqual([]);
    },
    20_000,
  );

  it('login refuses a --pool that is no pool id before reading the forge token', async () => {
    stub = await startStubRelay(() => ({ status: 200, json: {} }));
    const result = await runBinary(cli.bin, ['login', stub.url, '--pool', '..'], {
      RELAY_CONFIG_DIR: join(dir.path, 'config'),
      GH_TOKEN: 'gho_forge',
    });
    expect(result.code).toBe(2);
    expect(stub.requests).toEqual([]);
  }, 20_000);
});

describe('relay login server arguments', () => {
  it('refuses two different servers instead of picking one silently', async () => {
    stub = await startStubRelay(() => ({ status: 200, json: {} }));
    const result = await runBinary(
      cli.bin,
      ['login', stub.url, '--server', 'https://relay.example.com'],
      { RELAY_CONFIG_DIR: join(dir.path, 'config'), GH_TOKEN: 'gho_forge' },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('(usage_error)');
    expect(stub.requests).toEqual([]);
  }, 20_000);
});
