import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ForgeSim } from '@relay/forge-sim';
import { createTempDir } from './cli-harness.js';
import { buildCli, runBinary, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack } from './relay-stack.js';

/**
 * `relay native api` parity with gh 2.60 end to end: the BUILT binary against relay-server and
 * @relay/forge-sim on loopback, compared with what forge-sim answers directly. RELAY_NO_FALLBACK=1
 * makes any hand-over to the native gh a failure, so every case here is served by the relay.
 */
let cli: BuiltCli;
const relay = async (args: readonly string[], env: Record<string, string>, cwd?: string) => {
  const { stdoutBytes: _bytes, ...text } = await runBinary(cli.bin, args, env, cwd);
  return text;
};

beforeAll(async () => {
  cli = await buildCli('relay-native-api-parity-cli');
}, 120_000);
afterAll(() => {
  cli.remove();
});

describe('relay native api through relay-server and the simulated forge', () => {
  let stack: RelayStack;
  let sim: ForgeSim;
  let env: Record<string, string>;
  const direct = async (path: string) => {
    const response = await fetch(`${sim.urls.api}${path}`);
    return { status: response.status, text: await response.text() };
  };

  beforeEach(async () => {
    stack = await startRelayStack({ bin: cli.bin, env: () => ({ RELAY_NO_FALLBACK: '1' }) });
    ({ sim, env } = stack);
  });
  afterEach(async () => {
    await stack.close();
  });

  it('prints a 404 as gh does: the forge body on stdout, `gh: Not Found (HTTP 404)`, exit 1', async () => {
    const forge = await direct('/repos/acme/widgets/issues/9999');
    expect(forge.status).toBe(404);
    const result = await relay(['native', 'api', 'repos/acme/widgets/issues/9999'], env);
    expect(result).toEqual({ code: 1, stdout: forge.text, stderr: 'gh: Not Found (HTTP 404)\n' });
  });

  it('ends --paginate at the Link header without rel="next" (a full last page included)', async () => {
    const all = await direct('/repos/acme/widgets/branches');
    const count = (JSON.parse(all.text) as unknown[]).length;
    expect(count).toBeGreaterThan(1);
    // Pages of one: every page is full; the last has a Link header (prev, first) and no next.
    const pages: string[] = [];
    for (let page = 1; page <= count; page += 1) {
      pages.push((await direct(`/repos/acme/widgets/branches?per_page=1&page=${page}`)).text);
    }
    const result = await relay(
      ['native', 'api', 'repos/acme/widgets/branches?per_page=1', '--paginate'],
      env,
    );
    // gh's paginatedArrayReader: `[a]` `[b]` `[c]` → `[a,b,c]`.
    const spliced = pages.map((text) => text.slice(1, -1)).join(',');
    expect(result).toEqual({ code: 0, stdout: `[${spliced}]`, stderr: '' });
  });

  it('-X GET sends -f/-F fields as the query string, as gh does', async () => {
    const forge = await direct('/repos/acme/widgets/branches?per_page=1&page=2');
    const result = await relay(
      [
        'native',
        'api',
        'repos/acme/widgets/branches',
        '-X',
        'GET',
        '-F',
        'per_page=1',
        '-f',
        'page=2',
      ],
      env,
    );
    expect(result).toEqual({ code: 0, stdout: forge.text, stderr: '' });
  });

  it("prints the forge's JSON bytes as gh does: whitespace, 1.0, escapes, big integers, key order", async () => {
    const text =
      '[\n  {"id": 12345678901234567890, "score": 1.0, "t": "\\u003cb\\u003e", "+1": 1, "100": 2}\n]\n';
    sim.faults.inject({
      host: 'api',
      path: '/repos/acme/widgets/issues',
      action: { kind: 'status', status: 200, bodyText: text },
    });
    expect((await direct('/repos/acme/widgets/issues')).text).toBe(text);
    const result = await relay(['native', 'api', 'repos/acme/widgets/issues'], env);
    expect(result).toEqual({ code: 0, stdout: text, stderr: '' });
  });

  it('writes the control characters of a forge error in caret notation, as go-gh does', async () => {
    sim.faults.inject({
      host: 'api',
      path: '/repos/acme/widgets/issues/1',
      action: {
        kind: 'status',
        status: 422,
        body: { message: 'bad \u001b]0;title\u0007 \u001b[31mred', errors: [] },
      },
    });
    const forge = await direct('/repos/acme/widgets/issues/1');
    expect(forge.text).toContain('\\u001b');
    const result = await relay(['native', 'api', 'repos/acme/widgets/issues/1'], env);
    expect(result).toEqual({
      code: 1,
      stdout: forge.text.replaceAll('\\u001b', '^[').replaceAll('\\u0007', '^G'),
      stderr: 'gh: bad ^[]0;title^G ^[[31mred (HTTP 422)\n',
    });
  });

  it('hands a path the relay refuses to the native gh, before any relay request', async () => {
    const dir = createTempDir();
    try {
      const gh = join(dir.path, 'fake-gh');
      writeFileSync(gh, `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir.path}/argv"\nexit 7\n`);
      chmodSync(gh, 0o755);
      sim.requests.clear();
      const path = 'repos/acme/widgets/branches/feature%2Fsprockets';
      const result = await relay(['native', 'api', path, '--jq', '.name'], {
        ...env,
        RELAY_NATIVE_CLI: gh,
      });
      expect(result.code).toBe(7);
      expect(readFileSync(join(dir.path, 'argv'), 'utf8')).toBe(`api\n${path}\n--jq\n.name\n`);
      expect(sim.requests.count({})).toBe(0);
    } finally {
      dir.remove();
    }
  });

  it('hands a query with a raw `;` to the native gh (gh sends it verbatim; --paginate adds per_page)', async () => {
    const dir = createTempDir();
    try {
      const gh = join(dir.path, 'fake-gh');
      writeFileSync(gh, `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir.path}/argv"\nexit 7\n`);
      chmodSync(gh, 0o755);
      sim.requests.clear();
      const path = 'repos/acme/widgets/labels?per_page=1;x=1';
      const result = await relay(['native', 'api', path, '--paginate', '--jq', 'length'], {
        ...env,
        RELAY_NATIVE_CLI: gh,
      });
      expect(result.code).toBe(7);
      expect(result.stdout).toBe('');
      expect(readFileSync(join(dir.path, 'argv'), 'utf8')).toBe(
        `api\n${path}\n--paginate\n--jq\nlength\n`,
      );
      expect(sim.requests.count({})).toBe(0);
    } finally {
      dir.remove();
    }
  });

  it('exits quietly with 141 when the reader of its stdout goes away, as gh dies of SIGPIPE', async () => {
    const text = JSON.stringify(Array.from({ length: 400 }, () => ({ x: 'a'.repeat(1000) })));
    sim.faults.inject({
      host: 'api',
      path: '/repos/acme/widgets/issues',
      action: { kind: 'status', status: 200, bodyText: text },
    });
    const child = spawn(process.execPath, [cli.bin, 'native', 'api', 'repos/acme/widgets/issues'], {
      env: { PATH: process.env.PATH ?? '', HOME: env.RELAY_CONFIG_DIR ?? '', ...env },
    });
    const stderr: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    // `| head -c 10`: read one chunk, then close the pipe.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect({ code, stderr: Buffer.concat(stderr).toString('utf8') }).toEqual({
      code: 141,
      stderr: '',
    });
  });

  it('fills {owner} and {repo} from GH_REPO', async () => {
    const forge = await direct('/repos/acme/widgets/branches/main');
    const result = await relay(['native', 'api', 'repos/{owner}/{repo}/branches/main'], {
      ...env,
      GH_REPO: 'acme/widgets',
    });
    expect(result).toEqual({ code: 0, stdout: forge.text, stderr: '' });
  });

  it('fills {owner}, {repo} and {branch} from a git repository’s remote and current branch', async () => {
    const repo = createTempDir();
    try {
      const git = (...args: string[]) =>
        execFileSync('git', args, {
          cwd: repo.path,
          stdio: 'ignore',
          env: { PATH: process.env.PATH },
        });
      git('init', '--quiet', '--initial-branch=main');
      git('remote', 'add', 'origin', 'https://github.com/acme/widgets.git');
      git('remote', 'add', 'fork', 'git@github.com:alice/widgets.git');
      const forge = await direct('/repos/acme/widgets/branches/main');
      const result = await relay(
        ['native', 'api', 'repos/{owner}/{repo}/branches/{branch}'],
        env,
        repo.path,
      );
      expect(result).toEqual({ code: 0, stdout: forge.text, stderr: '' });
    } finally {
      repo.remove();
    }
  });
});
