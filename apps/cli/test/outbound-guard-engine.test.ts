import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCli, putStringRewrites, runBinary, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack } from './relay-stack.js';

/**
 * The outbound guard loads the regex engine (re2js, a chunk of its own in the BUILT binary) only
 * when the policy has rules (@relay/rewrite-engine's `compileRulesLazily`): an empty policy, the
 * common case, serves a read without it, and a policy with rules still refuses a matching read.
 * A load hook (NODE_OPTIONS=--import) records every module the binary loads.
 */

let cli: BuiltCli;
beforeAll(async () => {
  cli = await buildCli('relay-outbound-guard-engine');
}, 120_000);
afterAll(() => {
  cli.remove();
});

/** The binary's modules that hold re2js (its `RE2JS` class). */
function re2jsChunks(loaded: readonly string[]): string[] {
  const binDir = dirname(cli.bin);
  return loaded.filter(
    (path) => dirname(path) === binDir && readFileSync(path, 'utf8').includes('var RE2JS = class'),
  );
}

describe('the outbound guard and the regex engine', () => {
  let stack: RelayStack;
  let env: Record<string, string>;
  let log: string;

  beforeEach(async () => {
    stack = await startRelayStack({ bin: cli.bin });
    log = join(stack.dir, 'loaded-modules');
    const hook = join(stack.dir, 'record-loads.mjs');
    writeFileSync(
      hook,
      [
        "import { registerHooks } from 'node:module';",
        "import { appendFileSync } from 'node:fs';",
        'registerHooks({ load(url, context, next) {',
        `  if (url.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, url + '\\n');`,
        '  return next(url, context);',
        '} });',
      ].join('\n'),
    );
    env = { ...stack.env, NODE_OPTIONS: `--import=${hook}` };
  }, 60_000);
  afterEach(async () => {
    await stack.close();
  });

  const loaded = () =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((url) => fileURLToPath(url))
      : [];

  it('serves a read under an empty policy without loading re2js', async () => {
    const result = await runBinary(cli.bin, ['native', 'api', 'repos/acme/widgets'], env);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ full_name: 'acme/widgets' });
    // The hook saw the binary's modules, and the guard's, but no regex engine.
    expect(loaded()).toContain(cli.bin);
    expect(loaded().some((path) => path.includes('outbound-guard'))).toBe(true);
    expect(re2jsChunks(loaded())).toEqual([]);
  });

  it('loads it for a policy with rules, and refuses a matching read', async () => {
    await putStringRewrites(stack, [{ pattern: 'project-falcon', replacement: 'project-x' }]);
    const result = await runBinary(cli.bin, ['native', 'api', 'repos/acme/project-falcon'], env);
    expect(result).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'relay: refused: path matches the string-rewrite policy (string_rewrite_blocked)\n',
    });
    expect(re2jsChunks(loaded())).toHaveLength(1);
  });
});
