import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from './cli-harness.js';
import { buildCli, putStringRewrites, runBinary, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack } from './relay-stack.js';

/**
 * The outbound string guard (SPEC.md client rule 15) through the BUILT binary: a protected
 * `relay native` invocation needs a relay login and a fresh policy from the pool's
 * string-rewrites endpoint before gh runs and before each relay request; an argument matching
 * the policy is refused and gh never runs. A recording fake gh shows whether gh ran.
 */
let cli: BuiltCli;
beforeAll(async () => {
  cli = await buildCli('relay-outbound-guard-cli');
}, 120_000);
afterAll(() => {
  cli.remove();
});

/** The policy-failure line: fixed fields, in order. */
const FAILURE_LINE =
  /^relay: string-rewrite policy unavailable: class ([a-z_]+), attempt_utc (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z), elapsed_ms (\d+)(, http_status (\d{3}))?(, cf_ray ([0-9A-Za-z-]+))?(; [^\n]*)? \(string_rewrite_policy_failure\)\n$/;

/** A fake gh that records its argv (one per line) and exits 42. */
function writeFakeGh(dir: string): string {
  const path = join(dir, 'fake-gh');
  writeFileSync(
    path,
    `#!/bin/sh\n: > "${dir}/native-argv"\nfor a in "$@"; do printf '%s\\n' "$a" >> "${dir}/native-argv"; done\nexit 42\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

function ghArgv(dir: string): string[] | undefined {
  const file = join(dir, 'native-argv');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(0, -1) : undefined;
}

describe('rule 15 against relay-server: policy fetched, argv checked, gh run or not', () => {
  let stack: RelayStack;
  let env: Record<string, string>;

  beforeEach(async () => {
    stack = await startRelayStack({
      bin: cli.bin,
      env: (dir) => ({ RELAY_NATIVE_CLI: writeFakeGh(dir), RELAY_QUIET_FALLBACK: '1' }),
    });
    ({ env } = stack);
    await putStringRewrites(stack, [{ pattern: 'project-falcon', replacement: 'project-x' }]);
  }, 60_000);
  afterEach(async () => {
    await stack.close();
  });

  // Unmodeled gh commands (client rule 16 rewrites modeled publications such as issue create
  // instead of refusing them): rule 15's argv check is what stands between them and gh.
  it('refuses a delegated write whose flag value matches, and gh does not run', async () => {
    const result = await runBinary(
      cli.bin,
      ['native', 'repo', 'edit', 'acme/widgets', '--description', 'about project-falcon'],
      env,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'relay: refused: argument 5 matches the string-rewrite policy (string_rewrite_blocked)\n',
    );
    expect(result.stderr).not.toContain('falcon');
    expect(ghArgv(stack.dir)).toBeUndefined();
  });

  it('refuses a matching --name=value too', async () => {
    const result = await runBinary(
      cli.bin,
      ['native', 'label', 'create', 'bug', '-R', 'acme/widgets', '--description=project-falcon'],
      env,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^relay: refused: argument 6 matches/);
    expect(ghArgv(stack.dir)).toBeUndefined();
  });

  it('runs gh with a passing argv, with its exit code', async () => {
    const argv = ['repo', 'edit', 'acme/widgets', '--description', 'about birds'];
    const result = await runBinary(cli.bin, ['native', ...argv], env);
    expect(result).toMatchObject({ code: 42, stderr: '' });
    expect(ghArgv(stack.dir)).toEqual(argv);
  });

  it('refuses a served read whose path matches, before it reaches the relay', async () => {
    const result = await runBinary(
      cli.bin,
      ['native', 'repo', 'view', 'acme/project-falcon', '--json', 'name'],
      env,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'relay: refused: path matches the string-rewrite policy (string_rewrite_blocked)\n',
    );
    expect(ghArgv(stack.dir)).toBeUndefined();
  });

  it('serves a clean read with the policy in force', async () => {
    const result = await runBinary(
      cli.bin,
      ['native', 'repo', 'view', 'acme/widgets', '--json', 'name'],
      env,
    );
    expect(result).toMatchObject({ code: 0, stdout: '{"name":"widgets"}\n', stderr: '' });
  });

  it('adds the local rules file: RELAY_STRING_REWRITE_FILE refuses what only it names', async () => {
    const file = join(stack.dir, 'local.json');
    writeFileSync(
      file,
      JSON.stringify({ schema_version: 1, rules: [{ pattern: 'eagle', replacement: '' }] }),
    );
    const result = await runBinary(
      cli.bin,
      ['native', 'label', 'create', 'eagle', '-R', 'acme/widgets'],
      { ...env, RELAY_STRING_REWRITE_FILE: file },
    );
    expect(result).toMatchObject({ code: 1 });
    expect(result.stderr).toMatch(/^relay: refused: argument 3 matches/);
    expect(ghArgv(stack.dir)).toBeUndefined();
  });

  it('the default string-rewrites.json beside auth.json applies too; a conflict is a merge failure', async () => {
    writeFileSync(
      join(env.RELAY_CONFIG_DIR ?? '', 'string-rewrites.json'),
      JSON.stringify({
        schema_version: 1,
        rules: [{ pattern: 'project-falcon', replacement: 'other' }],
      }),
    );
    const result = await runBinary(cli.bin, ['native', 'issue', 'create', '--body', 'x'], env);
    expect(result.code).toBe(1);
    expect(FAILURE_LINE.exec(result.stderr)?.[1]).toBe('merge');
    expect(ghArgv(stack.dir)).toBeUndefined();
  });

  it('an explicit local rules file that is missing fails closed (local_read)', async () => {
    const result = await runBinary(cli.bin, ['native', 'issue', 'create', '--body', 'x'], {
      ...env,
      RELAY_STRING_REWRITE_FILE: join(stack.dir, 'missing.json'),
    });
    expect(result.code).toBe(1);
    expect(FAILURE_LINE.exec(result.stderr)?.[1]).toBe('local_read');
    expect(ghArgv(stack.dir)).toBeUndefined();
  });

  it('an invalid local rules file fails closed (local_validation)', async () => {
    const file = join(stack.dir, 'bad.json');
    writeFileSync(
      file,
      '{"schema_version": 1, "rules": [{"pattern": "(?i)x", "replacement": ""}]}',
    );
    const result = await runBinary(cli.bin, ['native', 'issue', 'create', '--body', 'x'], {
      ...env,
      RELAY_STRING_REWRITE_FILE: file,
    });
    expect(FAILURE_LINE.exec(result.stderr)?.[1]).toBe('local_validation');
    expect(result.stderr).not.toContain('(?i)');
    expect(ghArgv(stack.dir)).toBeUndefined();
  });
});

describe('rule 15 without a login', () => {
  let dir: ReturnType<typeof createTempDir>;
  let env: Record<string, string>;
  beforeEach(() => {
    dir = createTempDir();
    env = { RELAY_CONFIG_DIR: join(dir.path, 'config'), RELAY_NATIVE_CLI: writeFakeGh(dir.path) };
  });
  afterEach(() => {
    dir.remove();
  });

  it('a protected invocation fails with class setup, and gh does not run', async () => {
    const result = await runBinary(cli.bin, ['native', 'issue', 'create', '--body', 'x'], env);
    expect(result.code).toBe(1);
    const line = FAILURE_LINE.exec(result.stderr);
    expect(line?.[1]).toBe('setup');
    expect(result.stderr).toContain('; no relay login, run `relay login`');
    expect(ghArgv(dir.path)).toBeUndefined();
  });

  it.each<[string[]]>([
    [[]],
    [['--version']],
    [['help']],
    [['help', 'environment']],
    [['auth', 'login', '--hostname', 'github.com']],
    [['auth', 'status']],
  ])('%j needs no policy: gh runs', async (argv) => {
    const result = await runBinary(cli.bin, ['native', ...argv], {
      ...env,
      RELAY_QUIET_FALLBACK: '1',
    });
    expect(result.code).toBe(42);
    expect(ghArgv(dir.path)).toEqual(argv);
  });
});

describe('rule 15 failure classes against a loopback policy endpoint', () => {
  type Handler = (res: ServerResponse) => void;
  let handler: Handler;
  let url: string;
  let close: () => Promise<void>;
  let dir: ReturnType<typeof createTempDir>;
  let env: Record<string, string>;

  beforeEach(async () => {
    dir = createTempDir();
    const sockets = new Set<Socket>();
    const server = createServer((_req, res) => {
      handler(res);
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
    close = () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      });
    env = {
      RELAY_CONFIG_DIR: join(dir.path, 'config'),
      RELAY_NATIVE_CLI: writeFakeGh(dir.path),
      RELAY_URL: url,
      RELAY_TOKEN: 'rly_test-token',
      RELAY_POOL: 'team',
    };
  });
  afterEach(async () => {
    await close();
    dir.remove();
  });

  const run = () => runBinary(cli.bin, ['native', 'issue', 'create', '--body', 'x'], env);

  it.each<[string, Handler, string, string | undefined, string | undefined]>([
    [
      'a redirect',
      (res) => {
        res.writeHead(302, { location: '/v1/pools/team/string-rewrites' });
        res.end();
      },
      'http_status',
      '302',
      undefined,
    ],
    [
      'a 500 with a cf-ray',
      (res) => {
        res.writeHead(500, { 'cf-ray': '8f2c1a9b7d3e4f10-AMS' });
        res.end();
      },
      'http_status',
      '500',
      '8f2c1a9b7d3e4f10-AMS',
    ],
    [
      'a 502 with an invalid cf-ray',
      (res) => {
        res.writeHead(502, { 'cf-ray': '8f2c1a9b7d3e4f10-ams' });
        res.end();
      },
      'http_status',
      '502',
      undefined,
    ],
    [
      'a 65,537-byte body',
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(' '.repeat(65_537));
      },
      'response_size',
      '200',
      undefined,
    ],
    [
      'garbage JSON',
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"schema_version": 1, "rules": [');
      },
      'server_validation',
      '200',
      undefined,
    ],
  ])(
    '%s: one failure line, exit 1, gh not run',
    async (_name, answer, failureClass, status, ray) => {
      handler = answer;
      const result = await run();
      expect(result.code).toBe(1);
      const line = FAILURE_LINE.exec(result.stderr);
      expect(line?.slice(1, 2)).toEqual([failureClass]);
      expect(Date.parse(line?.[2] ?? '')).not.toBeNaN();
      expect(line?.[5]).toBe(status);
      expect(line?.[7]).toBe(ray);
      expect(result.stderr).not.toContain('rly_test-token');
      expect(ghArgv(dir.path)).toBeUndefined();
    },
  );

  it('a policy endpoint that never answers times out after five seconds', async () => {
    handler = () => undefined;
    const result = await run();
    expect(result.code).toBe(1);
    const line = FAILURE_LINE.exec(result.stderr);
    expect(line?.[1]).toBe('timeout');
    expect(Number(line?.[3])).toBeGreaterThanOrEqual(5_000);
    expect(Number(line?.[3])).toBeLessThan(9_000);
    expect(ghArgv(dir.path)).toBeUndefined();
  }, 20_000);

  it('a refused connection is a transport failure', async () => {
    await close();
    close = () => Promise.resolve();
    const result = await run();
    expect(FAILURE_LINE.exec(result.stderr)?.[1]).toBe('transport');
    expect(ghArgv(dir.path)).toBeUndefined();
  });
});
