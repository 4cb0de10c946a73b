import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Printed {
  api: string;
  web: string;
  raw: string;
  log: string;
  tokens: { alice: string; carol: string };
}

/** Starts the `forge-sim` command from source and waits for its printed URLs. */
function startCommand() {
  const child = spawn(
    process.execPath,
    ['--conditions=@relay/source', '--import', 'tsx', join(packageDir, 'src/cli.ts')],
    { cwd: packageDir, env: { PATH: process.env.PATH ?? '' } },
  );
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      resolve(code);
    });
  });
  const printed = new Promise<Printed>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      try {
        resolve(JSON.parse(stdout) as Printed);
      } catch {
        // not complete yet
      }
    });
    void exited.then((code) => {
      reject(new Error(`forge-sim exited ${String(code)}: ${stderr}`));
    });
  });
  return { child, printed, exited };
}

describe('the forge-sim command', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'serves the demo world on loopback, prints its URLs and tokens, and stops on %s',
    async (signal) => {
      const sim = startCommand();
      const printed = await sim.printed;
      for (const url of [printed.api, printed.web, printed.raw, printed.log]) {
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      }
      const anonymous = await fetch(`${printed.api}/repos/acme/widgets`);
      expect(anonymous.status).toBe(200);
      const hidden = await fetch(`${printed.api}/repos/acme/secret-sauce`);
      expect(hidden.status).toBe(404);
      const asAlice = await fetch(`${printed.api}/user`, {
        headers: { authorization: `Bearer ${printed.tokens.alice}` },
      });
      expect(((await asAlice.json()) as { login: string }).login).toBe('alice');
      const privateAsAlice = await fetch(`${printed.api}/repos/acme/secret-sauce`, {
        headers: { authorization: `Bearer ${printed.tokens.alice}` },
      });
      expect(privateAsAlice.status).toBe(200);
      sim.child.kill(signal);
      expect(await sim.exited).toBe(0);
    },
    30_000,
  );
});
