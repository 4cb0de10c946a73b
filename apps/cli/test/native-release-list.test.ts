import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ForgeSim } from '@relay/forge-sim';
import { buildCli, runBinary, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack } from './relay-stack.js';

/**
 * `relay native release list` end to end: the BUILT binary against relay-server and
 * @relay/forge-sim on loopback (routes release_list, release_latest), compared with the
 * releases forge-sim holds.
 */
let cli: BuiltCli;
/** Runs the built binary; the result as text (code, stdout, stderr). */
const relay = async (args: readonly string[], env: Record<string, string>) => {
  const { stdoutBytes: _bytes, ...text } = await runBinary(cli.bin, args, env);
  return text;
};

beforeAll(async () => {
  cli = await buildCli('relay-native-release-list-cli');
}, 120_000);
afterAll(() => {
  cli.remove();
});

describe('relay native release list through relay-server and the simulated forge', () => {
  let stack: RelayStack;
  let sim: ForgeSim;
  let env: Record<string, string>;

  beforeEach(async () => {
    stack = await startRelayStack({
      bin: cli.bin,
      seed: (forge, clock) => {
        // Releases a minute apart (gh orders by creation; equal seconds would run gh).
        clock.advance(60_000);
        forge.world.addRelease({
          owner: 'acme',
          repo: 'widgets',
          tag: 'v1.1.0-rc.1',
          name: 'RC  one',
          prerelease: true,
        });
        clock.advance(60_000);
        forge.world.addRelease({ owner: 'acme', repo: 'widgets', tag: 'v1.2.0', draft: true });
      },
      env: () => ({ RELAY_NO_FALLBACK: '1' }),
    });
    ({ sim, env } = stack);
  });
  afterEach(async () => {
    await stack.close();
  });

  it('--exclude-drafts prints gh’s table and --json, newest first, Latest from /releases/latest', async () => {
    const direct = await fetch(`${sim.urls.api}/repos/acme/widgets/releases`);
    const rest = (await direct.json()) as {
      tag_name: string;
      published_at: string | null;
      created_at: string;
    }[];
    const time = (tag: string) =>
      (rest.find((r) => r.tag_name === tag)?.published_at ?? '').replace(/\.\d+Z$/, 'Z');

    const table = await relay(
      ['native', 'release', 'list', '-R', 'acme/widgets', '--exclude-drafts'],
      env,
    );
    expect(table).toEqual({
      code: 0,
      stdout:
        `RC one\tPre-release\tv1.1.0-rc.1\t${time('v1.1.0-rc.1')}\n` +
        `Widgets 1.0\tLatest\tv1.0.0\t${time('v1.0.0')}\n`,
      stderr: '',
    });

    const json = await relay(
      [
        'native',
        'release',
        'list',
        '-R',
        'acme/widgets',
        '--exclude-drafts',
        '--order',
        'asc',
        '--json',
        'tagName,isLatest,isPrerelease',
      ],
      env,
    );
    expect(json).toEqual({
      code: 0,
      stdout:
        '[{"isLatest":true,"isPrerelease":false,"tagName":"v1.0.0"},' +
        '{"isLatest":false,"isPrerelease":true,"tagName":"v1.1.0-rc.1"}]\n',
      stderr: '',
    });

    const jq = await relay(
      [
        'native',
        'release',
        'list',
        '-R',
        'acme/widgets',
        '--exclude-drafts',
        '--exclude-pre-releases',
        '--json',
        'name',
        '--jq',
        '.[].name',
      ],
      env,
    );
    expect(jq).toEqual({ code: 0, stdout: 'Widgets 1.0\n', stderr: '' });

    // Without --exclude-drafts: the public list gh shows every reader without push access (the
    // relay reads releases anonymously, so the draft v1.2.0 never reaches it).
    const plain = await relay(['native', 'release', 'list', '-R', 'acme/widgets'], env);
    expect(plain).toEqual(table);
    expect(plain.stdout).not.toContain('v1.2.0');
  }, 60_000);
});
