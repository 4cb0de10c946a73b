import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createForgeSim, createSimClock, seedDemoWorld } from '@relay/forge-sim';
import type { ForgeSim } from '@relay/forge-sim';
import { loadServerConfig, startServer } from '@relay/server';
import type { RunningServer } from '@relay/server';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, envelopeOf, errorOf, startStubRelay } from './cli-harness.js';
import type { StubAnswer, StubRelay } from './cli-harness.js';

/**
 * End to end: the BUILT `relay` binary (tsdown, in beforeAll) in a child process, against the
 * real relay-server and @relay/forge-sim on loopback, and against a stub of the relay's
 * documented contract for the reads that need fallbacks; a fake native CLI script records its
 * argv and environment.
 */
const appDir = dirname(dirname(fileURLToPath(import.meta.url)));
const bin = join(appDir, 'dist', 'main.js');
const ADMIN = 'admin-token-for-cli-e2e-0123456789';

function build(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('pnpm', ['exec', 'tsdown', '--logLevel', 'error'], {
      cwd: appDir,
      stdio: 'ignore',
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`tsdown exited ${String(code)}`));
    });
  });
}

interface RunResult {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

function relay(
  args: readonly string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: env.RELAY_CONFIG_DIR ?? '/nonexistent', ...env },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdin.end(stdin);
    child.once('error', reject);
    child.once('close', (code) => {
      resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** A fake `gh` that records argv and environment, prints a line and exits 7. */
function writeFakeNative(dir: string): string {
  const path = join(dir, 'fake-gh');
  writeFileSync(
    path,
    `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/native-argv"\nenv > "${dir}/native-env"\necho "native says hi"\nexit 7\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

beforeAll(async () => {
  await build();
}, 120_000);

describe('the built relay against relay-server and the simulated forge', () => {
  let sim: ForgeSim;
  let server: RunningServer;
  let dir: ReturnType<typeof createTempDir>;
  let env: Record<string, string>;

  beforeEach(async () => {
    sim = await createForgeSim({ clock: createSimClock({ start: Date.now() }) });
    seedDemoWorld(sim.world);
    dir = createTempDir();
    const config = loadServerConfig({
      RELAY_PORT: '0',
      RELAY_DATABASE: join(dir.path, 'relay.db'),
      RELAY_ADMIN_TOKEN: ADMIN,
      RELAY_FORGE_API_URL: sim.urls.api,
      RELAY_FORGE_WEB_URL: sim.urls.web,
      RELAY_FORGE_RAW_URL: sim.urls.raw,
      ALLOWED_FORGE_ORG: 'acme',
      DEFAULT_LOGIN_POOL: 'team',
      DEFAULT_ALLOWED_OWNERS: 'acme',
    });
    if (!config.ok) throw new Error('invalid test configuration');
    server = await startServer(config.value);
    const { token } = sim.tokens.addPat({ login: 'alice' });
    env = { RELAY_CONFIG_DIR: join(dir.path, 'config'), GH_TOKEN: token };
  });
  afterEach(async () => {
    await server.close();
    await sim.close();
    dir.remove();
  });

  it('logs in, saves auth.json 0600, and whoami, health, stats and the login probe work', async () => {
    const login = await relay(['login', server.url, '--client', 'e2e-laptop'], env);
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    const authFile = join(env.RELAY_CONFIG_DIR ?? '', 'auth.json');
    expect(statSync(authFile).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(authFile, 'utf8')) as Record<string, string>;
    expect(Object.keys(saved).sort()).toEqual([
      'client',
      'login',
      'pool',
      'timestamp',
      'token',
      'url',
    ]);
    expect(saved).toMatchObject({
      url: server.url,
      pool: 'team',
      login: 'alice',
      client: 'e2e-laptop',
    });
    expect(login.stdout.toString()).not.toContain(saved.token);

    const whoami = await relay(['whoami', '--json'], env);
    expect(JSON.parse(whoami.stdout.toString())).toEqual({
      server: server.url,
      pool: 'team',
      login: 'alice',
      client: 'e2e-laptop',
    });

    const health = await relay(['health'], env);
    expect(health.code).toBe(0);
    expect(health.stdout.toString()).toMatch(/^pool: team\nidentities: 0 total/);

    const stats = await relay(['stats', '--since', '7d', '--json'], env);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout.toString())).toMatchObject({ pool: 'team', window: '7d' });

    const forgeReadsBefore = sim.requests.entries.length;
    const probe = await relay(['native', 'api', 'user', '--jq', '.login'], env);
    expect(probe).toMatchObject({ code: 0, stderr: '' });
    expect(probe.stdout.toString()).toBe('alice\n');
    expect(sim.requests.entries.length).toBe(forgeReadsBefore);
  }, 30_000);

  it('relays native api reads through the real pipeline, from cache the second time, and falls back for a private repository', async () => {
    const native = writeFakeNative(dir.path);
    const readEnv = { ...env, RELAY_NATIVE_CLI: native, RELAY_RETRIES: '0' };
    expect((await relay(['login', server.url], readEnv)).code).toBe(0);

    const first = await relay(['native', 'api', 'repos/acme/widgets'], readEnv);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(first.stdout.toString())).toMatchObject({
      full_name: 'acme/widgets',
      private: false,
    });
    const forgeCalls = sim.requests.entries.length;
    const second = await relay(['native', 'api', 'repos/acme/widgets'], readEnv);
    expect(second.stdout.equals(first.stdout)).toBe(true);
    expect(sim.requests.entries.length).toBe(forgeCalls);

    const jq = await relay(
      ['native', 'api', 'repos/acme/widgets/issues', '--paginate', '--jq', '.[].title'],
      readEnv,
    );
    expect(jq.code).toBe(0);
    expect(jq.stdout.toString().length).toBeGreaterThan(0);

    const secret = await relay(['native', 'api', 'repos/acme/secret-sauce'], readEnv);
    expect(secret.code).toBe(7);
    expect(readFileSync(join(dir.path, 'native-argv'), 'utf8')).toBe(
      'api\nrepos/acme/secret-sauce\n',
    );
    expect(readFileSync(join(dir.path, 'native-env'), 'utf8')).toContain(
      `GH_TOKEN=${env.GH_TOKEN ?? ''}`,
    );
  }, 60_000);

  it('refuses a login for an account outside the organization, with exit 4', async () => {
    const { token } = sim.tokens.addPat({ login: 'carol' });
    const result = await relay(['login', server.url], { ...env, GH_TOKEN: token });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('org_membership_required');
    expect(result.stderr).not.toContain(token);
    expect(existsSync(join(env.RELAY_CONFIG_DIR ?? '', 'auth.json'))).toBe(false);
  }, 30_000);

  it('admin: string-rewrites status and set, identity registration, caller provisioning', async () => {
    const adminEnv = { ...env, RELAY_ADMIN_TOKEN: ADMIN, RELAY_URL: server.url };
    const status = await relay(['admin', 'string-rewrites', 'status'], adminEnv);
    expect(status.stdout.toString()).toMatch(/^revision 1\nrules 0\n/);
    const rules = JSON.stringify({
      schema_version: 1,
      rules: [{ pattern: 'hush-[0-9]+', replacement: 'x' }],
    });
    const set = await relay(['admin', 'string-rewrites', 'set', '--file', '-'], adminEnv, rules);
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout.toString()).toBe('revision 2\nrules 1\n');
    const stale = await relay(
      ['admin', 'string-rewrites', 'set', '--file', '-', '--if-revision', '1'],
      adminEnv,
      rules,
    );
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('string_rewrite_revision_conflict');

    const identity = await relay(
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
        'alice',
        '--secret-ref',
        'READER_1',
        '--scope',
        'acme',
      ],
      adminEnv,
    );
    expect(identity.code).toBe(0);
    expect(JSON.parse(identity.stdout.toString())).toMatchObject({
      id: 'reader-1',
      pool: 'team',
      kind: 'pat',
    });

    const caller = await relay(
      ['admin', 'caller', '--pool', 'team', '--login', 'alice', '--name', 'ci', '--json'],
      adminEnv,
    );
    expect(caller.code).toBe(0);
    expect(JSON.parse(caller.stdout.toString())).toMatchObject({
      login: 'alice',
      pool: 'team',
      client: 'ci',
    });

    const denied = await relay(['admin', 'string-rewrites', 'status'], {
      ...adminEnv,
      RELAY_ADMIN_TOKEN: 'wrong-token-0123456789',
    });
    expect(denied.code).toBe(4);
    expect(denied.stderr).toContain('unauthorized');
  }, 30_000);
});

describe('the built relay: native api reads, fallback and delegation', () => {
  let stub: StubRelay | undefined;
  let dir: ReturnType<typeof createTempDir>;

  beforeEach(() => {
    dir = createTempDir();
  });
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
    dir.remove();
  });

  async function setup(answer: () => StubAnswer, extra: Record<string, string> = {}) {
    stub = await startStubRelay(answer);
    const native = writeFakeNative(dir.path);
    const configDir = join(dir.path, 'config');
    const env = {
      RELAY_CONFIG_DIR: configDir,
      RELAY_URL: stub.url,
      RELAY_POOL: 'team',
      RELAY_TOKEN: 'rly_e2e-explicit',
      RELAY_NATIVE_CLI: native,
      GH_TOKEN: 'gho_users-own',
      RELAY_RETRIES: '0',
      ...extra,
    };
    return env;
  }

  it('prints the exact body bytes of a relayed read, like gh api', async () => {
    const env = await setup(() => ({
      status: 200,
      json: envelopeOf({ full_name: 'acme/widgets', stars: 3 }),
    }));
    const result = await relay(['native', 'api', 'repos/acme/widgets'], env);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.toString()).toBe('{"full_name":"acme/widgets","stars":3}');
    expect(stub?.requests[0]?.headers.authorization).toBe('Bearer rly_e2e-explicit');
  }, 30_000);

  it('runs the native CLI on fallback_local with the original argv, inherited stdio and its exit code', async () => {
    const env = await setup(() => ({
      status: 424,
      json: errorOf('fallback_local', 'repo_not_public'),
    }));
    const result = await relay(['native', 'api', 'repos/acme/secret-sauce', '--jq', '.name'], env);
    expect(result.code).toBe(7);
    expect(result.stdout.toString()).toBe('native says hi\n');
    expect(readFileSync(join(dir.path, 'native-argv'), 'utf8')).toBe(
      'api\nrepos/acme/secret-sauce\n--jq\n.name\n',
    );
    const nativeEnv = readFileSync(join(dir.path, 'native-env'), 'utf8');
    expect(nativeEnv).toContain('GH_TOKEN=gho_users-own');
    expect(nativeEnv).not.toContain('rly_e2e-explicit');
  }, 30_000);

  it('fails instead under RELAY_NO_FALLBACK=1', async () => {
    const env = await setup(
      () => ({ status: 424, json: errorOf('fallback_local', 'route_denied') }),
      {
        RELAY_NO_FALLBACK: '1',
      },
    );
    const result = await relay(['native', 'api', 'repos/acme/widgets'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('fallback_local, reason route_denied');
    expect(existsSync(join(dir.path, 'native-argv'))).toBe(false);
  }, 30_000);

  it('delegates a write to the native CLI without asking the relay', async () => {
    const env = await setup(() => ({ status: 200, json: envelopeOf({}) }));
    const result = await relay(
      ['native', 'api', 'repos/acme/widgets/issues', '-f', 'title=hi'],
      env,
    );
    expect(result.code).toBe(7);
    expect(stub?.requests).toEqual([]);
    // A publication runs gh from a sanitized snapshot (client rule 16): gh api, same path.
    const argv = readFileSync(join(dir.path, 'native-argv'), 'utf8').split('\n');
    expect(argv[0]).toBe('api');
    expect(argv).toContain('repos/acme/widgets/issues');
  }, 30_000);

  it('prints a gh-style HTTP error and exits 1', async () => {
    // The relay carries error bodies as text (only 2xx JSON is parsed).
    const env = await setup(() => ({
      status: 200,
      json: {
        ...envelopeOf(null, { status: 404 }),
        body: '{"message":"Not Found"}',
        body_encoding: 'text',
      },
    }));
    const result = await relay(['native', 'api', 'repos/acme/nope'], env);
    expect(result.code).toBe(1);
    expect(result.stdout.toString()).toBe('{"message":"Not Found"}');
    expect(result.stderr).toBe('gh: Not Found (HTTP 404)\n');
  }, 30_000);
});
