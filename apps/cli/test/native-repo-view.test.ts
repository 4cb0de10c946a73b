import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCli, runBinary, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack } from './relay-stack.js';

/**
 * `relay native repo view` end to end: the BUILT binary against relay-server and
 * @relay/forge-sim on loopback (routes repo_view, repo_readme), compared with the
 * repository forge-sim holds.
 */
let cli: BuiltCli;
/** Runs the built binary; the result as text (code, stdout, stderr). */
const relay = async (args: readonly string[], env: Record<string, string>) => {
  const { stdoutBytes: _bytes, ...text } = await runBinary(cli.bin, args, env);
  return text;
};

beforeAll(async () => {
  cli = await buildCli('relay-native-repo-view-cli');
}, 120_000);
afterAll(() => {
  cli.remove();
});

describe('relay native repo view through relay-server and the simulated forge', () => {
  let stack: RelayStack;
  let env: Record<string, string>;

  beforeEach(async () => {
    stack = await startRelayStack({
      bin: cli.bin,
      seed: (forge) => {
        forge.world.addRepo({
          owner: 'acme',
          name: 'gadgets',
          description: 'Gadgets <&> co',
          files: { 'README.md': '# gadgets\n\n100% tested, 50%% less\n' },
        });
        forge.world.addRepo({ owner: 'acme', name: 'bare', files: { 'a.txt': 'a\n' } });
      },
      env: () => ({ RELAY_NO_FALLBACK: '1' }),
    });
    ({ env } = stack);
  });
  afterEach(async () => {
    await stack.close();
  });

  it('prints gh’s name/description/README layout (printf-mangled) and --json from REST', async () => {
    const widgets = await relay(['native', 'repo', 'view', 'acme/widgets'], env);
    expect(widgets).toEqual({
      code: 0,
      stdout:
        'name:\tacme/widgets\ndescription:\tWidgets for everyone\n--\n# widgets\n\nWidgets for everybody.\n\n',
      stderr: '',
    });

    const gadgets = await relay(['native', 'repo', 'view', 'https://github.com/acme/gadgets'], env);
    expect(gadgets).toEqual({
      code: 0,
      stdout:
        'name:\tacme/gadgets\ndescription:\tGadgets <&> co\n--\n# gadgets\n\n100%!t(MISSING)ested, 50% less\n\n',
      stderr: '',
    });

    const bare = await relay(['native', 'repo', 'view', 'acme/bare'], env);
    expect(bare).toEqual({ code: 0, stdout: 'name:\tacme/bare\ndescription:\t\n', stderr: '' });

    const json = await relay(
      [
        'native',
        'repo',
        'view',
        'acme/widgets',
        '--json',
        'nameWithOwner,isPrivate,visibility,description',
      ],
      env,
    );
    expect(json).toEqual({
      code: 0,
      stdout:
        '{"description":"Widgets for everyone","isPrivate":false,"nameWithOwner":"acme/widgets","visibility":"PUBLIC"}\n',
      stderr: '',
    });

    const jq = await relay(
      ['native', 'repo', 'view', 'acme/widgets', '--json', 'watchers', '--jq', '.watchers'],
      env,
    );
    expect(jq.code).toBe(0);
    expect(jq.stdout).toMatch(/^\{"totalCount":\d+\}\n$/);

    const graphqlOnly = await relay(
      ['native', 'repo', 'view', 'acme/widgets', '--json', 'viewerPermission'],
      env,
    );
    expect(graphqlOnly.code).toBe(1);
    expect(graphqlOnly.stderr).toContain('fallback_local, reason unsupported_flag');
  }, 60_000);
});
