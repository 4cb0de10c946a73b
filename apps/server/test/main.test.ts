import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoveryDocumentSchema } from '@relay/protocol';
import { afterEach, describe, expect, it } from 'vitest';

const appDir = dirname(dirname(fileURLToPath(import.meta.url)));
const children: ChildProcessWithoutNullStreams[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts relay-server from source, as `pnpm start` would from dist. */
function startRelayServer(env: Record<string, string>) {
  const cwd = mkdtempSync(join(tmpdir(), 'relay-main-'));
  dirs.push(cwd);
  const child = spawn(
    process.execPath,
    ['--conditions=@relay/source', '--import', 'tsx', join(appDir, 'src/main.ts')],
    {
      cwd: appDir,
      env: { PATH: process.env.PATH ?? '', RELAY_DATABASE: join(cwd, 'relay.db'), ...env },
    },
  );
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      resolve(code);
    }),
  );
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /relay-server listening on (http:\/\/[^\s"]+)/.exec(stdout);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then((code) => {
      reject(new Error(`exited ${String(code)}: ${stderr}`));
    });
  });
  // A start-up failure is asserted through `exited`; keep the rejection from going unhandled.
  listening.catch(() => undefined);
  return { child, cwd, listening, exited, output: () => ({ stdout, stderr }) };
}

describe('relay-server', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'answers discovery on an ephemeral port and stops cleanly on %s',
    async (signal) => {
      const server = startRelayServer({ RELAY_PORT: '0', DEFAULT_LOGIN_POOL: 'team' });
      const url = await server.listening;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${url}/.well-known/relay`);
      const body = discoveryDocumentSchema.parse(await response.json());
      expect(body).toMatchObject({ service: 'relay', api_base: url, default_pool: 'team' });
      const admin = await fetch(`${url}/v1/admin/string-rewrites?token=query-secret`, {
        headers: { authorization: 'Bearer not-the-admin-token-value' },
      });
      expect(admin.status).toBe(401);
      await admin.text();
      server.child.kill(signal);
      expect(await server.exited).toBe(0);
      expect(server.output().stdout).toContain('relay-server stopped');
      const lines = server
        .output()
        .stdout.split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      // Every line is one JSON object (pino): start, requests, shutdown.
      expect(lines[0]).toMatchObject({
        level: 'info',
        url,
        msg: `relay-server listening on ${url}`,
      });
      expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'relay-server stopped' });
      const requests = lines.filter((l) => l.msg === 'request');
      expect(requests.map((l) => [l.route, l.status])).toEqual([
        ['/.well-known/relay', 200],
        ['/v1/admin/string-rewrites', 401],
      ]);
      expect(server.output().stdout).not.toContain('query-secret');
      expect(server.output().stdout).not.toContain('not-the-admin-token-value');
    },
    20_000,
  );

  it('refuses an invalid configuration without echoing the value', async () => {
    const server = startRelayServer({ RELAY_PORT: '0', RELAY_ADMIN_TOKEN: 'tooshort' });
    expect(await server.exited).toBe(1);
    const { stdout } = server.output();
    expect(JSON.parse(stdout.trim())).toMatchObject({
      level: 'fatal',
      code: 'invalid_config',
      variable: 'RELAY_ADMIN_TOKEN',
    });
    expect(stdout).not.toContain('tooshort');
  }, 20_000);
});
