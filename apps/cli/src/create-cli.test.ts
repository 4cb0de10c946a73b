import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createCli } from './create-cli.js';
import { CLI_VERSION } from './version.js';

async function run(argv: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await createCli().run(argv, {
    stdin: process.stdin,
    stdout,
    stderr,
    env: {},
    colorDepth: 1,
  });
  return { code, out, err };
}

describe('relay', () => {
  it('prints its version with --version', async () => {
    const { code, out } = await run(['--version']);
    expect(code).toBe(0);
    expect(out.trim()).toBe(CLI_VERSION);
  });

  it('prints usage with --help', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    expect(out).toContain('relay');
    expect(out).toContain('Relay — a shared, cached read relay');
    expect(out).toContain(CLI_VERSION);
    expect(out).toContain('relay <command>');
  });

  it('fails with a usage error on an unknown command', async () => {
    const { code, out } = await run(['no-such-command']);
    expect(code).toBe(1);
    expect(out).toContain('Command not found');
  });
});
