import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ForgeSim } from '@relay/forge-sim';
import { buildCli, runBinary, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack } from './relay-stack.js';

/**
 * `relay native release view` end to end: the BUILT binary against relay-server and
 * @relay/forge-sim on loopback (routes release_view, release_latest), compared with the
 * release forge-sim answers directly.
 */
let cli: BuiltCli;
/** Runs the built binary; the result as text (code, stdout, stderr). */
const relay = async (args: readonly string[], env: Record<string, string>) => {
  const { stdoutBytes: _bytes, ...text } = await runBinary(cli.bin, args, env);
  return text;
};

beforeAll(async () => {
  cli = await buildCli('relay-native-release-view-cli');
}, 120_000);
afterAll(() => {
  cli.remove();
});

describe('relay native release view through relay-server and the simulated forge', () => {
  let stack: RelayStack;
  let sim: ForgeSim;
  let env: Record<string, string>;

  beforeEach(async () => {
    stack = await startRelayStack({
      bin: cli.bin,
      env: () => ({ RELAY_NO_FALLBACK: '1' }),
    });
    ({ sim, env } = stack);
  });
  afterEach(async () => {
    await stack.close();
  });

  it('prints gh’s plain layout and --json of the forge’s release, by tag and latest', async () => {
    const direct = await fetch(`${sim.urls.api}/repos/acme/widgets/releases/tags/v1.0.0`);
    const rest = (await direct.json()) as {
      id: number;
      name: string;
      body: string;
      html_url: string;
      created_at: string;
      published_at: string;
      author: { login: string; node_id: string };
      assets: { name: string }[];
    };
    expect(rest.name).toBe('Widgets 1.0');
    const plain =
      `title:\tWidgets 1.0\ntag:\tv1.0.0\ndraft:\tfalse\nprerelease:\tfalse\n` +
      `author:\t${rest.author.login}\ncreated:\t${rest.created_at.replace(/\.\d+Z$/, 'Z')}\n` +
      `published:\t${rest.published_at.replace(/\.\d+Z$/, 'Z')}\nurl:\t${rest.html_url}\n` +
      rest.assets.map((a) => `asset:\t${a.name}\n`).join('') +
      `--\n${rest.body}\n`;

    for (const args of [['v1.0.0'], []]) {
      const view = await relay(['native', 'release', 'view', ...args, '-R', 'acme/widgets'], env);
      expect(view).toEqual({ code: 0, stdout: plain, stderr: '' });
    }

    const json = await relay(
      [
        'native',
        'release',
        'view',
        'v1.0.0',
        '-R',
        'acme/widgets',
        '--json',
        'databaseId,author,tagName',
      ],
      env,
    );
    expect(json).toEqual({
      code: 0,
      stdout: `{"author":{"id":"${rest.author.node_id}","login":"${rest.author.login}"},"databaseId":${String(rest.id)},"tagName":"v1.0.0"}\n`,
      stderr: '',
    });

    const jq = await relay(
      [
        'native',
        'release',
        'view',
        '-R',
        'acme/widgets',
        '--json',
        'assets',
        '--jq',
        '.assets[].name',
      ],
      env,
    );
    expect(jq).toEqual({
      code: 0,
      stdout: rest.assets.map((a) => `${a.name}\n`).join(''),
      stderr: '',
    });
  }, 60_000);

  it('a repository without a published release prints gh’s `release not found`, exit 1; a missing tag runs gh', async () => {
    sim.world.addRepo({ owner: 'acme', name: 'gadgets', files: { 'a.txt': 'a\n' } });
    sim.world.addRelease({ owner: 'acme', repo: 'gadgets', tag: 'v0.1.0', draft: true });
    const latest = await relay(['native', 'release', 'view', '-R', 'acme/gadgets'], env);
    expect(latest).toEqual({ code: 1, stdout: '', stderr: 'release not found\n' });

    const tag = await relay(['native', 'release', 'view', 'v9.9.9', '-R', 'acme/widgets'], env);
    expect(tag.code).toBe(1);
    expect(tag.stderr).toContain('fallback_local, reason unsupported_shape');
  }, 60_000);
});
