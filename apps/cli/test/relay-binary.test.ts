import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };

const appDir = dirname(dirname(fileURLToPath(import.meta.url)));
const exec = promisify(execFile);

/** Runs the `relay` bin from source in a child process, as `pnpm relay` does. */
function relay(...args: string[]) {
  return exec(
    process.execPath,
    ['--conditions=@relay/source', '--import', 'tsx', join(appDir, 'src/main.ts'), ...args],
    {
      cwd: appDir,
      // No compile cache: main.ts would keep it under $HOME/.cache, here inside the package.
      env: { PATH: process.env.PATH ?? '', HOME: appDir, NODE_DISABLE_COMPILE_CACHE: '1' },
    },
  );
}

describe('the relay binary', () => {
  it('prints its version and exits 0', async () => {
    const { stdout } = await relay('--version');
    expect(stdout.trim()).toBe(packageJson.version);
  }, 20_000);

  it('prints help', async () => {
    const { stdout } = await relay('--help');
    expect(stdout).toMatch(/relay/);
  }, 20_000);

  it('prints the usage error of an unknown command on stderr and exits 2', async () => {
    await expect(relay('frobnicate')).rejects.toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^Unknown Syntax Error: Command not found/),
    });
  }, 20_000);
});
