import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, startStubRelay } from './cli-harness.js';
import type { StubRelay } from './cli-harness.js';

/**
 * `relay native <gh argv>` through the BUILT binary (tsdown into a directory of its own, so
 * that the other end-to-end files, which rebuild apps/cli/dist, cannot pull it away): every
 * shape the relay does not serve runs a fake native gh that records its argv and stdin, with
 * stdio passed through and its exit code propagated; RELAY_NO_FALLBACK=1 runs nothing.
 */
const appDir = dirname(dirname(fileURLToPath(import.meta.url)));
let outDir: string;
let bin: string;

function run(command: string, args: readonly string[], cwd: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => {
      resolve(code);
    });
  });
}

interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function relay(
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
  stdin = '',
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdin.end(stdin);
    child.once('error', reject);
    child.once('close', (code) => {
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

/** A fake gh: records argv (one per line) and stdin, writes to both streams, exits FAKE_GH_EXIT. */
function writeFakeGh(dir: string): string {
  const path = join(dir, 'fake-gh');
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      `printf '%s\\n' "$@" > "${dir}/native-argv"`,
      `cat > "${dir}/native-stdin"`,
      'echo "gh stdout"',
      'echo "gh stderr" >&2',
      'exit "${FAKE_GH_EXIT:-0}"',
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return path;
}

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'relay-native-cli-'));
  const code = await run(
    'pnpm',
    ['exec', 'tsdown', '--logLevel', 'error', '--out-dir', outDir],
    appDir,
  );
  if (code !== 0) throw new Error(`tsdown exited ${String(code)}`);
  bin = join(outDir, 'main.js');
}, 120_000);
afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
});

/**
 * A relay login (explicit token) whose pool has an empty string-rewrite policy: every protected
 * native dispatch fetches it first (client rule 15).
 */
let stub: StubRelay;
beforeAll(async () => {
  stub = await startStubRelay(() => ({ status: 500, json: {} }));
});
afterAll(async () => {
  await stub.close();
});

describe('relay native <gh argv> (built binary): delegation to the native gh', () => {
  let dir: ReturnType<typeof createTempDir>;
  let env: Record<string, string>;

  beforeEach(() => {
    dir = createTempDir();
    env = {
      RELAY_CONFIG_DIR: join(dir.path, 'config'),
      RELAY_NATIVE_CLI: writeFakeGh(dir.path),
      FAKE_GH_EXIT: '42',
      RELAY_URL: stub.url,
      RELAY_TOKEN: 'rly_test-token',
      RELAY_POOL: 'team',
    };
  });
  afterEach(() => {
    dir.remove();
  });

  it.each<[string, string[], Record<string, string>, string]>([
    ['an unknown command', ['frobnicate', '--x', 'y'], {}, 'unknown_command'],
    ['an unknown flag', ['pr', 'view', '1', '-R', 'acme/widgets', '--frob'], {}, 'unknown_flag'],
    ['--web', ['pr', 'view', '1', '-R', 'acme/widgets', '--web'], {}, 'web'],
    [
      '--template',
      ['issue', 'view', '3', '-R', 'acme/widgets', '--json', 'title', '-t', '{{.title}}'],
      {},
      'template',
    ],
    // Unmodeled writes: rule 16 runs modeled ones (pr create --title --body) from snapshots.
    ['a write: pr create', ['pr', 'create', '--fill'], {}, 'write'],
    ['a write: issue comment', ['issue', 'comment', '3', '--editor'], {}, 'write'],
    ['a write: repo clone', ['repo', 'clone', 'acme/widgets', '--', '--depth', '1'], {}, 'write'],
    [
      'terminal output (GH_FORCE_TTY)',
      ['pr', 'view', '1', '-R', 'acme/widgets'],
      { GH_FORCE_TTY: '1' },
      'tty_output',
    ],
    [
      'a pr list with repeated --label (a search query: GraphQL ranking) and --json',
      [
        'pr',
        'list',
        '-R',
        'acme/widgets',
        '--label',
        'bug',
        '-l',
        'ui',
        '--json',
        'number',
        '--json',
        'title',
      ],
      {},
      'unsupported_flag',
    ],
    [
      'a pr view with --comments (minimized comments and edit flags are GraphQL-only)',
      ['pr', 'view', '1', '-R', 'acme/widgets', '--comments'],
      {},
      'unsupported_flag',
    ],
    [
      'a pr diff in colour on a pipe',
      ['pr', 'diff', '1', '-R', 'acme/widgets', '--color', 'always'],
      {},
      'color_output',
    ],
    [
      'an issue list by app (gh resolves the app login by GraphQL)',
      ['issue', 'list', '--app', 'dependabot'],
      { GH_REPO: 'acme/widgets' },
      'unsupported_flag',
    ],
    [
      'a repo view of a GraphQL-only field',
      ['repo', 'view', 'acme/widgets', '--json', 'viewerPermission'],
      {},
      'unsupported_flag',
    ],
    [
      'a gh read the relay does not serve (repo list)',
      ['repo', 'list', 'acme', '--limit', '5'],
      {},
      'unsupported_command',
    ],
    [
      'a release view of a tag needing URL escaping',
      ['release', 'view', 'v1 beta', '-R', 'acme/widgets'],
      {},
      'unsupported_shape',
    ],
    [
      'a label list search (GraphQL ranking)',
      ['label', 'list', '-R', 'acme/widgets', '--search', 'bug'],
      {},
      'unsupported_flag',
    ],
    ['no repository (no remotes here)', ['pr', 'view', '1'], {}, 'repo_unresolved'],
    [
      'a repository name the relay refuses as a path (gh prints its own not-found error)',
      ['label', 'list', '-R', 'acme/..'],
      {},
      'unsupported_shape',
    ],
    [
      'a GH_HOST with a stray space (gh reads it verbatim; its request URL does not parse)',
      ['label', 'list', '-R', 'acme/widgets'],
      { GH_HOST: 'github.com ' },
      'other_host',
    ],
    [
      'a run view log (gh prints the log zip’s per-step files)',
      ['run', 'view', '--job', '7', '--log-failed', '-R', 'acme/widgets'],
      {},
      'unsupported_flag',
    ],
    [
      'a gist list of every gist (secret ones are the viewer’s private data)',
      ['gist', 'list', '-L', '5'],
      {},
      'unsupported_shape',
    ],
    [
      'a gist list --public under an explicit relay token (it names no login)',
      ['gist', 'list', '--public'],
      {},
      'unsupported_shape',
    ],
  ])(
    '%s runs gh with the exact argv, stdio and exit code',
    async (_name, argv, extra, reason) => {
      const result = await relay(
        ['native', ...argv],
        { ...env, ...extra },
        dir.path,
        'piped input\n',
      );
      expect(result.code).toBe(42);
      expect(result.stdout).toBe('gh stdout\n');
      expect(result.stderr).toBe(`relay: running the native gh (reason ${reason})\ngh stderr\n`);
      expect(readFileSync(join(dir.path, 'native-argv'), 'utf8')).toBe(
        argv.map((arg) => `${arg}\n`).join(''),
      );
      expect(readFileSync(join(dir.path, 'native-stdin'), 'utf8')).toBe('piped input\n');
    },
    30_000,
  );

  it('propagates exit 0 and stays quiet under RELAY_QUIET_FALLBACK=1', async () => {
    const result = await relay(
      ['native', 'frobnicate'],
      { ...env, FAKE_GH_EXIT: '0', RELAY_QUIET_FALLBACK: '1' },
      dir.path,
    );
    expect(result).toEqual({ code: 0, stdout: 'gh stdout\n', stderr: 'gh stderr\n' });
  }, 30_000);

  it.each([
    [['frobnicate'], 'unknown_command'],
    [['pr', 'create', '--fill'], 'write'],
    [['pr', 'view', '1', '-R', 'acme/widgets', '--comments'], 'unsupported_flag'],
  ])(
    'under RELAY_NO_FALLBACK=1 %j fails with one line (%s) and runs nothing',
    async (argv, reason) => {
      const result = await relay(['native', ...argv], { ...env, RELAY_NO_FALLBACK: '1' }, dir.path);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `relay: This gh command needs the native CLI and RELAY_NO_FALLBACK=1 forbids it. (fallback_local, reason ${reason})\n`,
      );
      expect(existsSync(join(dir.path, 'native-argv'))).toBe(false);
    },
    30_000,
  );

  it('never answers "Command not found"', async () => {
    for (const argv of [['native'], ['native', 'x', 'y', 'z'], ['native', '--nope']]) {
      const result = await relay(argv, env, dir.path);
      expect(result.stdout + result.stderr).not.toMatch(/Command not found/);
      expect(result.code).toBe(42);
    }
  }, 60_000);
});
