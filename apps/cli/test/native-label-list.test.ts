import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ForgeSim } from '@relay/forge-sim';
import { buildCli, runBinary, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack } from './relay-stack.js';

/**
 * `relay native label list` end to end: the BUILT binary against relay-server and
 * @relay/forge-sim on loopback (route label_list), compared with the labels forge-sim holds.
 */
let cli: BuiltCli;
/** Runs the built binary; the result as text (code, stdout, stderr). */
const relay = async (args: readonly string[], env: Record<string, string>) => {
  const { stdoutBytes: _bytes, ...text } = await runBinary(cli.bin, args, env);
  return text;
};

beforeAll(async () => {
  cli = await buildCli('relay-label-list-cli');
}, 120_000);
afterAll(() => {
  cli.remove();
});

describe('relay native label list through relay-server and the simulated forge', () => {
  let stack: RelayStack;
  let sim: ForgeSim;
  let env: Record<string, string>;

  beforeEach(async () => {
    stack = await startRelayStack({
      bin: cli.bin,
      seed: (forge) => {
        forge.world.addLabel({
          owner: 'acme',
          repo: 'widgets',
          name: 'good first issue',
          description: 'Good for <newcomers> & co',
        });
      },
      env: () => ({ RELAY_NO_FALLBACK: '1' }),
    });
    ({ sim, env } = stack);
  });
  afterEach(async () => {
    await stack.close();
  });

  it('prints gh’s table and --json of the forge’s labels in creation order, and gh’s field error', async () => {
    const repo = sim.world.getRepo('acme', 'widgets');
    const labels = [...(repo?.labels.values() ?? [])].sort((a, b) => a.id - b.id);
    expect(labels.length).toBeGreaterThan(1);

    const table = await relay(['native', 'label', 'list', '-R', 'acme/widgets'], env);
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toBe(
      labels.map((l) => `${l.name}\t${l.description ?? ''}\t#${l.color}\n`).join(''),
    );

    const json = await relay(
      [
        'native',
        'label',
        'list',
        '-R',
        'acme/widgets',
        '--json',
        'name,color',
        '--order',
        'desc',
        '-L',
        '0x2',
      ],
      env,
    );
    expect(json).toMatchObject({ code: 0, stderr: '' });
    expect(json.stdout).toBe(
      `${JSON.stringify(
        labels
          .reverse()
          .slice(0, 2)
          .map((l) => ({ color: l.color, name: l.name })),
      )}\n`,
    );

    const jq = await relay(
      ['native', 'label', 'list', '-R', 'acme/widgets', '--json', 'name', '--jq', '.[0]'],
      env,
    );
    expect(jq).toMatchObject({ code: 0, stderr: '' });
    expect(jq.stdout).toBe(`${JSON.stringify({ name: labels.at(-1)?.name })}\n`);

    const unknown = await relay(
      ['native', 'label', 'list', '-R', 'acme/widgets', '--json', 'nope'],
      env,
    );
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toBe(
      'Unknown JSON field: "nope"\nAvailable fields:\n  color\n  createdAt\n  description\n  id\n  isDefault\n  name\n  updatedAt\n  url\n',
    );

    const createdAt = await relay(
      ['native', 'label', 'list', '-R', 'acme/widgets', '--json', 'createdAt'],
      env,
    );
    expect(createdAt.code).toBe(1);
    expect(createdAt.stderr).toContain('fallback_local, reason unsupported_flag');
  }, 60_000);
});
