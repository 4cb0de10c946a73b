import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EXIT, runDemo } from '../../../scripts/demo/demo-main.ts';
import type { DemoProcess } from '../../../scripts/demo/demo-main.ts';
import { parseDemoInvocation } from '../../../scripts/demo/demo-options.ts';
import { resolveDemoBuild } from '../../../scripts/demo/demo-stack.ts';
import type { DemoBuild } from '../../../scripts/demo/demo-stack.ts';
import {
  describeCredential,
  formatForgeRequests,
  parseCliErrorLine,
  quoteShellArgument,
} from '../../../scripts/demo/tour-format.ts';

/**
 * `pnpm demo` (scripts/demo.mjs, scripts/demo/): the tour run in-process against the BUILT
 * relay-server, @relay/forge-sim and relay CLI, with its signal injected; the real entry point
 * for usage errors; and the pure pieces of the tour by table.
 *
 * beforeAll builds what the demo runs: relay-server and forge-sim with turbo (as `pnpm demo`
 * does), and the CLI with tsdown into a directory of its own, so that the other end-to-end
 * file of this project, which rebuilds apps/cli/dist, cannot pull it away mid-tour.
 */
const root = dirname(dirname(dirname(dirname(fileURLToPath(import.meta.url)))));
const cliDir = join(root, 'apps', 'cli');
const SIMULATED_SECRET = /gh[ps]_[A-Za-z0-9]|PRIVATE KEY|demo-admin-/;

function run(command: string, args: readonly string[], cwd: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => {
      resolve(code);
    });
  });
}

interface Captured {
  readonly out: string[];
  readonly errors: string[];
  readonly text: () => string;
}

function capture(): Captured {
  const out: string[] = [];
  const errors: string[] = [];
  return { out, errors, text: () => out.join('\n') };
}

/** The value printed after `label` on one line of the demo's output. */
function printed(text: string, label: RegExp): string {
  const match = label.exec(text);
  if (match?.[1] === undefined) throw new Error(`not printed: ${String(label)}`);
  return match[1];
}

async function refusesConnections(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return false;
  } catch {
    return true;
  }
}

describe('pnpm demo against the built stack', () => {
  let cliOut: string;
  let build: DemoBuild;

  beforeAll(async () => {
    const turbo = await run(
      'pnpm',
      [
        'exec',
        'turbo',
        'run',
        'build',
        '--filter=@relay/server...',
        '--filter=@relay/forge-sim',
        '--output-logs=errors-only',
      ],
      root,
    );
    if (turbo !== 0) throw new Error(`turbo build exited ${String(turbo)}`);
    cliOut = mkdtempSync(join(tmpdir(), 'relay-demo-cli-'));
    const tsdown = await run(
      'pnpm',
      ['exec', 'tsdown', '--logLevel', 'error', '--out-dir', cliOut],
      cliDir,
    );
    if (tsdown !== 0) throw new Error(`tsdown exited ${String(tsdown)}`);
    build = { ...resolveDemoBuild(root), cliBin: join(cliOut, 'main.js') };
  }, 300_000);
  afterAll(() => {
    rmSync(cliOut, { recursive: true, force: true });
  });

  function demoProcess(
    argv: readonly string[],
    output: Captured,
    untilSignal: () => Promise<string>,
  ): DemoProcess {
    return {
      root,
      argv,
      env: { PATH: process.env.PATH },
      build,
      print: (line) => output.out.push(line),
      printError: (line) => output.errors.push(line),
      untilSignal,
    };
  }

  it('--exit runs the whole tour with the outcomes it describes, then stops everything', async () => {
    const output = capture();
    const code = await runDemo(demoProcess(['--exit'], output, () => new Promise(() => undefined)));
    const text = output.text();
    expect(output.errors).toEqual([]);
    expect(code).toBe(DEMO_EXIT.ok);

    // The pool, through the CLI's admin commands.
    expect(text).toContain('registered reader-1: pat acme-reader-1, scope acme');
    expect(text).toContain("--scope '*'");
    expect(text).toContain('registered widgets-app: forge_app installation 77');
    // The login through the CLI, checked with the simulated GitHub.
    expect(text).toMatch(/Logged in to http:\/\/127\.0\.0\.1:\d+ as alice \(pool demo/);
    expect(text).toContain("GET /user/memberships/orgs/acme as alice's own token → 200");
    // Miss, then hit with nothing sent upstream.
    expect(text).toMatch(
      /relay\.cache miss · route repo_view[^\n]*\n {2}simulated GitHub saw: GET \/repos\/acme\/widgets as anonymous → 200/,
    );
    expect(text).toMatch(
      /relay\.cache hit · route repo_view[^\n]*\n {2}simulated GitHub saw: none/,
    );
    // The PR list through `relay native api`, served by the app installation.
    expect(text).toContain('#1 Add sprockets (open, by bob)');
    expect(text).toContain('#2 Fix typo (closed, by carol)');
    expect(text).toContain("POST /app/installations/77/access_tokens as the app's JWT → 201");
    expect(text).toContain(
      'GET /repos/acme/widgets/pulls?state=all as installation 77 token → 200',
    );
    // Refusals, with the codes a user's scripts would see.
    expect(text).toContain('(fallback_local, reason repo_not_public, request req_');
    expect(text).toContain('(fallback_local, reason local_credentials_required, request req_');
    expect(text).toMatch(
      /revision 2\n {4}rules 1\n {2}\$ relay request --path \/repos\/acme\/moonshot/,
    );
    expect(text).toContain('(string_rewrite_denied, request req_');
    // Health and stats.
    expect(text).toContain('identities: 3 total, 3 healthy, 0 cooling down');
    expect(text).toMatch(/^ {4}repo_not_public +1$/m);
    expect(text).toMatch(/^ {4}pr_list +forge_identity +1$/m);
    expect(text).not.toContain('✗');
    expect(text).toContain('Tour complete: all 10 steps behaved as described.');
    // No simulated token, key or admin token on screen.
    expect(text).not.toMatch(SIMULATED_SECRET);

    // Everything it started is gone.
    const tempDir = printed(text, /temporary directory (\S+)/);
    expect(existsSync(tempDir)).toBe(false);
    expect(await refusesConnections(printed(text, /relay-server {8}(\S+)/))).toBe(true);
    expect(await refusesConnections(printed(text, /simulated GitHub {4}(\S+)/))).toBe(true);
  }, 120_000);

  it('keeps the stack running for `pnpm relay` until Ctrl-C, then stops it and removes its files', async () => {
    const output = capture();
    let interrupt: (name: string) => void = () => undefined;
    const signal = new Promise<string>((resolve) => {
      interrupt = resolve;
    });
    let ready: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => {
      ready = resolve;
    });
    const process_ = demoProcess([], output, () => signal);
    const demo = runDemo({
      ...process_,
      print: (line) => {
        process_.print(line);
        if (line.startsWith('Ctrl-C stops everything')) ready();
      },
    });
    await waiting;

    const text = output.text();
    const configDir = printed(text, /export RELAY_CONFIG_DIR=(\S+)/);
    const relayUrl = printed(text, /export RELAY_URL=(\S+)/);
    const adminTokenFile = printed(text, /RELAY_ADMIN_TOKEN="\$\(cat (\S+)\)"/);
    // The saved login and the admin token file are where the instructions say.
    const auth = JSON.parse(readFileSync(join(configDir, 'auth.json'), 'utf8')) as Record<
      string,
      string
    >;
    expect(auth).toMatchObject({ url: relayUrl, login: 'alice', pool: 'demo' });
    const health = await fetch(`${relayUrl}/v1/pools/demo/health`, {
      headers: { authorization: `Bearer ${auth.token ?? ''}` },
    });
    expect(health.status).toBe(200);
    const adminToken = readFileSync(adminTokenFile, 'utf8').trim();
    const policy = await fetch(`${relayUrl}/v1/admin/string-rewrites`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(policy.status).toBe(200);
    expect(text).not.toContain(adminToken);
    expect(text).not.toContain(auth.token);

    interrupt('SIGINT');
    expect(await demo).toBe(DEMO_EXIT.ok);
    expect(existsSync(configDir)).toBe(false);
    expect(await refusesConnections(relayUrl)).toBe(true);
  }, 120_000);

  it('stops at once, with exit 3, when the stack is not built', async () => {
    const output = capture();
    const code = await runDemo({
      ...demoProcess([], output, () => new Promise(() => undefined)),
      build: { ...build, serverMain: join(cliOut, 'missing-main.js') },
    });
    expect(code).toBe(DEMO_EXIT.startFailed);
    expect(output.errors.join('\n')).toContain('not built');
    expect(output.out).toEqual([]);
  });
});

describe('scripts/demo.mjs arguments', () => {
  function runEntry(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(root, 'scripts', 'demo.mjs'), ...args], {
        env: { PATH: process.env.PATH ?? '' },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      child.once('error', reject);
      child.once('close', (code) => {
        resolve({ code, stderr });
      });
    });
  }

  it('refuses an unknown argument with exit 2 and the usage', async () => {
    const result = await runEntry(['--bogus']);
    expect(result.code).toBe(DEMO_EXIT.usage);
    expect(result.stderr).toContain('unknown argument "--bogus"');
    expect(result.stderr).toContain('Usage: pnpm demo [--exit]');
  }, 30_000);

  it.each([
    { argv: [], env: {}, expected: { kind: 'run', options: { exitAfterTour: false } } },
    { argv: ['--exit'], env: {}, expected: { kind: 'run', options: { exitAfterTour: true } } },
    {
      argv: ['--', '--exit'],
      env: {},
      expected: { kind: 'run', options: { exitAfterTour: true } },
    },
    {
      argv: [],
      env: { RELAY_DEMO_EXIT: '1' },
      expected: { kind: 'run', options: { exitAfterTour: true } },
    },
    {
      argv: [],
      env: { RELAY_DEMO_EXIT: 'yes' },
      expected: { kind: 'run', options: { exitAfterTour: false } },
    },
    { argv: ['--help'], env: {}, expected: { kind: 'help' } },
    { argv: ['--exit', '-h'], env: {}, expected: { kind: 'help' } },
    { argv: ['--exit', 'now'], env: {}, expected: { kind: 'usage_error', argument: 'now' } },
  ])('$argv with $env → $expected.kind', ({ argv, env, expected }) => {
    expect(parseDemoInvocation(argv, env)).toEqual(expected);
  });
});

describe('the tour output', () => {
  const names = new Map([['pat-1', 'pooled PAT reader-1']]);

  it.each([
    ['anonymous', 'anonymous'],
    ['jwt', "the app's JWT"],
    ['inst-77-4', 'installation 77 token'],
    ['pat-1', 'pooled PAT reader-1'],
    ['pat-9', 'pat-9'],
  ])('names the credential %s as %s', (label, expected) => {
    expect(describeCredential(label, names)).toBe(expected);
  });

  it('folds consecutive identical forge requests and says none for none', () => {
    const request = {
      method: 'GET',
      host: 'api',
      path: '/repos/acme/widgets',
      query: '',
      credential: 'anonymous',
      status: 200,
    } as const;
    expect(formatForgeRequests([], names)).toEqual(['none']);
    expect(
      formatForgeRequests(
        [request, request, { ...request, query: 'page=2', credential: 'pat-1' }, request],
        names,
      ),
    ).toEqual([
      'GET /repos/acme/widgets as anonymous → 200 (×2)',
      'GET /repos/acme/widgets?page=2 as pooled PAT reader-1 → 200',
      'GET /repos/acme/widgets as anonymous → 200',
    ]);
  });

  it.each([
    [
      'relay: The read must run locally. (fallback_local, reason repo_not_public, request req_1)\n',
      { code: 'fallback_local', reason: 'repo_not_public' },
    ],
    [
      'relay: Denied. (string_rewrite_denied, request req_2)\n',
      { code: 'string_rewrite_denied', reason: undefined },
    ],
    [
      'relay: Admin commands need RELAY_ADMIN_TOKEN. (not_logged_in)\n',
      { code: 'not_logged_in', reason: undefined },
    ],
    ['something else\n', undefined],
  ])('reads the CLI error line %j', (stderr, expected) => {
    expect(parseCliErrorLine(stderr)).toEqual(expected);
  });

  it.each([
    ['acme/widgets', 'acme/widgets'],
    ['*', "'*'"],
    ['repos/acme/widgets/pulls?state=all', "'repos/acme/widgets/pulls?state=all'"],
    ["it's", "'it'\\''s'"],
  ])('quotes %s for the shell as %s', (argument, expected) => {
    expect(quoteShellArgument(argument)).toBe(expected);
  });
});
