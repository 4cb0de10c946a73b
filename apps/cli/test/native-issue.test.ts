import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createForgeSim, createSimClock, seedDemoWorld } from '@relay/forge-sim';
import type { ForgeSim } from '@relay/forge-sim';
import { loadServerConfig, startServer } from '@relay/server';
import type { RunningServer } from '@relay/server';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from './cli-harness.js';

/**
 * `relay native issue view` and `issue list` end to end: the BUILT binary against
 * relay-server and @relay/forge-sim on loopback (routes issue_view, issue_list, repo_view),
 * compared with what forge-sim holds and answers.
 */
const appDir = dirname(dirname(fileURLToPath(import.meta.url)));
const bin = join(appDir, 'dist', 'main.js');

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

function relay(args: readonly string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: env.RELAY_CONFIG_DIR ?? '/nonexistent', ...env },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdin.end();
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

beforeAll(async () => {
  await build();
}, 120_000);

describe('relay native issue view / issue list through relay-server and the simulated forge', () => {
  let sim: ForgeSim;
  let server: RunningServer;
  let dir: ReturnType<typeof createTempDir>;
  let env: Record<string, string>;
  let token: string;
  let number: number;

  beforeEach(async () => {
    sim = await createForgeSim({ clock: createSimClock({ start: Date.now() }) });
    seedDemoWorld(sim.world);
    sim.world.addLabel({ owner: 'acme', repo: 'widgets', name: 'Docs' });
    sim.world.addLabel({ owner: 'acme', repo: 'widgets', name: 'api' });
    number = sim.world.addIssue({
      owner: 'acme',
      repo: 'widgets',
      title: 'Crash   on <start> & exit',
      body: 'Steps:\r\n1. run',
      author: 'bob',
      labels: ['api', 'Docs'],
      assignees: ['carol'],
      milestone: 'v1',
    }).number;
    dir = createTempDir();
    const config = loadServerConfig({
      RELAY_PORT: '0',
      RELAY_DATABASE: join(dir.path, 'relay.db'),
      RELAY_ADMIN_TOKEN: 'admin-token-for-issue-e2e-0123456789',
      RELAY_FORGE_API_URL: sim.urls.api,
      RELAY_FORGE_WEB_URL: sim.urls.web,
      RELAY_FORGE_RAW_URL: sim.urls.raw,
      ALLOWED_FORGE_ORG: 'acme',
      DEFAULT_LOGIN_POOL: 'team',
      DEFAULT_ALLOWED_OWNERS: 'acme',
    });
    if (!config.ok) throw new Error('invalid test configuration');
    server = await startServer(config.value);
    token = sim.tokens.addPat({ login: 'alice' }).token;
    env = {
      RELAY_CONFIG_DIR: join(dir.path, 'config'),
      GH_TOKEN: token,
      RELAY_RETRIES: '0',
      RELAY_NO_FALLBACK: '1',
    };
    const login = await relay(['login', server.url], env);
    if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
  });
  afterEach(async () => {
    await server.close();
    await sim.close();
    dir.remove();
  });

  /** What forge-sim answers for a REST path (read directly, not through the relay). */
  async function forge(path: string): Promise<unknown> {
    const response = await fetch(`${sim.urls.api}${path}`, {
      headers: { authorization: `token ${token}` },
    });
    return response.json();
  }

  it('issue view prints gh’s preview and --json, then notes the cache hit on stderr', async () => {
    const expected = [
      'title:\tCrash   on <start> & exit',
      'state:\tOPEN',
      'author:\tbob',
      'labels:\tapi, Docs',
      'comments:\t0',
      'assignees:\tcarol',
      'projects:\t',
      'milestone:\tv1',
      `number:\t${String(number)}`,
      '--',
      'Steps:\r\n1. run',
      '',
    ].join('\n');
    const argv = ['native', 'issue', 'view', String(number), '-R', 'acme/widgets'];
    const first = await relay(argv, env);
    expect(first).toEqual({ code: 0, stdout: expected, stderr: '' });

    const again = await relay(argv, env);
    expect(again).toEqual({
      code: 0,
      stdout: expected,
      stderr:
        'relay: issue_view served from the relay cache (hit; the relay reports no refresh time — RELAY_FRESH=1 reads it fresh)\n',
    });
    expect(await relay(argv, { ...env, RELAY_QUIET_CACHE: '1' })).toMatchObject({ stderr: '' });

    const rest = (await forge(`/repos/acme/widgets/issues/${String(number)}`)) as {
      node_id: string;
      html_url: string;
      labels: { id: number; node_id: string; name: string; color: string }[];
    };
    const labels = [...rest.labels].sort((a, b) => a.id - b.id);
    const json = await relay(
      [
        'native',
        'issue',
        'view',
        `https://github.com/acme/widgets/issues/${String(number)}`,
        // The URL's repository wins; -R only spares the planner a git remote lookup.
        '-R',
        'other/elsewhere',
        '--json',
        'title,labels,id,url,state',
      ],
      { ...env, RELAY_QUIET_CACHE: '1' },
    );
    expect(json).toEqual({
      code: 0,
      stderr: '',
      stdout: `{"id":${JSON.stringify(rest.node_id)},"labels":[${labels
        .map(
          (l) =>
            `{"id":${JSON.stringify(l.node_id)},"name":${JSON.stringify(l.name)},"description":"","color":${JSON.stringify(l.color)}}`,
        )
        .join(
          ',',
        )}],"state":"OPEN","title":"Crash   on <start> & exit","url":${JSON.stringify(rest.html_url)}}\n`,
    });
  }, 60_000);

  it('issue view --json author,assignees reads each name through the relay (user_view)', async () => {
    const rest = (await forge(`/repos/acme/widgets/issues/${String(number)}`)) as {
      user: { node_id: string };
      assignees: { node_id: string }[];
    };
    const json = await relay(
      [
        'native',
        'issue',
        'view',
        String(number),
        '-R',
        'acme/widgets',
        '--json',
        'author,assignees',
      ],
      env,
    );
    expect(json).toEqual({
      code: 0,
      stderr: '',
      stdout: `{"assignees":[{"id":${JSON.stringify(rest.assignees[0]?.node_id)},"login":"carol","name":"Carol Danvers"}],"author":{"id":${JSON.stringify(rest.user.node_id)},"is_bot":false,"login":"bob","name":"Bob Builder"}}\n`,
    });
  }, 60_000);

  it('issue view prints gh’s errors: a missing issue, a word, an unknown field', async () => {
    const missing = await relay(['native', 'issue', 'view', '9999', '-R', 'acme/widgets'], env);
    expect(missing).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'GraphQL: Could not resolve to an issue or pull request with the number of 9999. (repository.issue)\n',
    });
    const word = await relay(['native', 'issue', 'view', 'five', '-R', 'acme/widgets'], env);
    expect(word).toEqual({ code: 1, stdout: '', stderr: 'invalid issue format: "five"\n' });
    const unknown = await relay(
      ['native', 'issue', 'view', '1', '-R', 'acme/widgets', '--json', 'nope'],
      env,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /^Unknown JSON field: "nope"\nAvailable fields:\n {2}assignees\n/,
    );
    const comments = await relay(
      ['native', 'issue', 'view', '1', '-R', 'acme/widgets', '--json', 'comments'],
      env,
    );
    expect(comments.code).toBe(1);
    expect(comments.stderr).toContain('fallback_local, reason unsupported_flag');
  }, 60_000);

  it('issue list prints the forge’s open issues without pull requests, as a table and --json', async () => {
    const rest = (await forge(
      '/repos/acme/widgets/issues?state=open&sort=created&direction=desc&per_page=100',
    )) as {
      number: number;
      title: string;
      updated_at: string;
      pull_request?: unknown;
      labels: { id: number; name: string }[];
    }[];
    const issues = rest.filter((item) => item.pull_request === undefined);
    expect(rest.length).toBeGreaterThan(issues.length);
    expect(issues.length).toBeGreaterThan(0);

    const table = await relay(['native', 'issue', 'list', '-R', 'acme/widgets'], {
      ...env,
      RELAY_QUIET_CACHE: '1',
    });
    expect(table).toEqual({
      code: 0,
      stderr: '',
      stdout: issues
        .map(
          (i) =>
            `${String(i.number)}\tOPEN\t${i.title.replace(/\s+/g, ' ').trim()}\t${[...i.labels]
              .sort((a, b) => a.id - b.id)
              .map((l) => l.name)
              .join(', ')}\t${i.updated_at}\n`,
        )
        .join(''),
    });

    const json = await relay(
      ['native', 'issue', 'list', '-R', 'acme/widgets', '--json', 'number,state', '-L', '1'],
      { ...env, RELAY_QUIET_CACHE: '1' },
    );
    expect(json).toEqual({
      code: 0,
      stderr: '',
      stdout: `[{"number":${String(issues[0]?.number)},"state":"OPEN"}]\n`,
    });

    const none = await relay(
      ['native', 'issue', 'list', '-R', 'acme/widgets', '--author', 'nobody-here'],
      env,
    );
    expect(none).toEqual({ code: 0, stdout: '', stderr: '' });
  }, 60_000);
});
