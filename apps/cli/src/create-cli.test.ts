import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createCli } from './create-cli.js';
import { helpColors } from './terminal-style.js';
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

  it.each<[string, string[], string]>([
    ['an unknown command', ['no-such-command'], 'Command not found'],
    ['an unknown option', ['stats', '--bogus'], 'Unsupported option name ("--bogus")'],
    ['a missing option value', ['stats', '--since'], 'Not enough arguments to option'],
    ['an extra argument', ['whoami', 'extra'], 'Extraneous positional argument'],
  ])('prints %s as a usage error on stderr and exits 2', async (_name, argv, message) => {
    const { code, out, err } = await run(argv);
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toContain(message);
    expect(err).not.toContain('\u001b[');
  });

  it('reports an error a command throws on stderr, never on stdout, and exits 1', async () => {
    // No dependencies in the context: whoami fails unexpectedly.
    const { code, out, err } = await run(['whoami']);
    expect({ code, out }).toEqual({ code: 1, out: '' });
    expect(err).not.toBe('');
  });

  it.each<[string, boolean]>([
    ['plain help by default (a pipe)', false],
    ['coloured help when asked', true],
  ])('%s', async (_name, colors) => {
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const base = { stdin: process.stdin, stdout, stderr: new PassThrough(), env: {} };
    // colorDepth 256 would colour clipanion's own default: the option decides, not the depth.
    expect(await createCli({ colors }).run(['stats', '--help'], { ...base, colorDepth: 256 })).toBe(
      0,
    );
    expect(out.includes('\u001b[')).toBe(colors);
  });
});

describe('helpColors', () => {
  it.each<[Record<string, string>, boolean, boolean]>([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ TERM: 'dumb' }, true, false],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: '0' }, false, false],
  ])('%j on a terminal %s → %s', (env, isTTY, expected) => {
    expect(helpColors(env, isTTY)).toBe(expected);
  });
});
