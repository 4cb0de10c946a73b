import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCli } from '../src/create-cli.js';
import { createNodeDependencies } from '../src/node-dependencies.js';
import { buildCli, runBinary } from './relay-stack.js';
import type { BuiltCli } from './relay-stack.js';

/**
 * `relay native …` runs without clipanion (src/native-main.ts, chosen in main.ts): what the
 * BUILT binary prints and its exit code must stay byte-identical to a run of the whole
 * clipanion command table (`createCli().run`, as every other command runs), for help, the
 * version, an unknown command, and `native` invocations that fail in each way a run can end
 * without a relay: gh's own flag errors, a fallback without a native gh (`CliError`), no login.
 */

let cli: BuiltCli;
let dir: string;

beforeAll(async () => {
  cli = await buildCli('relay-native-entry');
  dir = mkdtempSync(join(tmpdir(), 'relay-native-entry-home-'));
  // An unusable relay login (no server listens on port 9): the cases below never reach it.
  writeFileSync(
    join(dir, 'auth.json'),
    JSON.stringify({
      url: 'http://127.0.0.1:9',
      pool: 'team',
      token: 'rly_entry',
      login: 'entry',
      client: 'entry',
      timestamp: new Date(0).toISOString(),
    }),
    { mode: 0o600 },
  );
}, 120_000);

afterAll(() => {
  cli.remove();
  rmSync(dir, { recursive: true, force: true });
});

function capture() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return { stream, text: () => text };
}

/** The clipanion run of `argv` in this process, with the binary's environment. */
async function viaCommandTable(argv: readonly string[], env: Record<string, string>) {
  const stdout = capture();
  const stderr = capture();
  const deps = {
    ...createNodeDependencies({ selfPath: cli.bin }),
    env,
    homeDir: dir,
    stdoutIsTTY: false,
    stderrIsTTY: false,
  };
  const code = await createCli().run([...argv], {
    stdout: stdout.stream,
    stderr: stderr.stream,
    colorDepth: 1,
    deps,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

interface Case {
  readonly name: string;
  readonly argv: readonly string[];
  readonly env?: Record<string, string>;
}

const cases: readonly Case[] = [
  { name: 'help', argv: ['--help'] },
  { name: 'the version', argv: ['--version'] },
  { name: 'an unknown command', argv: ['frobnicate'] },
  { name: 'a usage error of another command', argv: ['login', '--bogus'] },
  { name: 'native with no arguments', argv: ['native'] },
  { name: 'native --help (gh help: the native gh, missing here)', argv: ['native', '--help'] },
  { name: 'native api --help', argv: ['native', 'api', '--help'] },
  {
    name: 'an unknown gh flag (a fallback, no native gh)',
    argv: ['native', 'pr', 'view', '1', '--bogus'],
  },
  { name: 'a gh flag error', argv: ['native', 'pr', 'list', '--limit', 'x', '-R', 'acme/widgets'] },
  { name: 'a gh flag without its value', argv: ['native', 'issue', 'list', '-R'] },
  {
    name: 'native api with a bad method',
    argv: ['native', 'api', '-X', 'BREW', 'repos/acme/widgets'],
  },
  {
    name: 'no fallback allowed',
    argv: ['native', 'repo', 'create', 'x'],
    env: { RELAY_NO_FALLBACK: '1' },
  },
  {
    name: 'native without a login',
    argv: ['native', 'api', 'repos/acme/widgets'],
    env: { RELAY_CONFIG_DIR: '' },
  },
];

describe('relay native without the command table', () => {
  it.each(cases)(
    'prints what the command table prints: $name',
    async ({ argv, env: extra }) => {
      const env: Record<string, string> = {
        PATH: join(dir, 'no-bin'),
        HOME: dir,
        RELAY_CONFIG_DIR: dir,
        ...extra,
      };
      if (env.RELAY_CONFIG_DIR === '') env.RELAY_CONFIG_DIR = join(dir, 'nobody');
      const binary = await runBinary(cli.bin, argv, env);
      const table = await viaCommandTable(argv, env);
      // A policy failure names its attempt's time and duration (client rule 15): not compared.
      const timeless = (text: string) =>
        text.replace(/attempt_utc \S+, elapsed_ms \d+/g, 'attempt_utc T, elapsed_ms N');
      expect({ code: binary.code, stdout: binary.stdout, stderr: timeless(binary.stderr) }).toEqual(
        {
          ...table,
          stderr: timeless(table.stderr),
        },
      );
    },
    30_000,
  );
});
