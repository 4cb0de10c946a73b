#!/usr/bin/env node
import { toRelayArgv } from './native/delegate/shim-argv.js';
import { CLI_VERSION } from './version.js';

/**
 * V8's compile cache for the bundle's chunks (Node's module compile cache), in the user's cache
 * directory (`$XDG_CACHE_HOME/relay/node-compile-cache`, else `~/.cache/relay/…`), not the shared
 * temporary directory Node would pick: a read parses about 0.5 MB of JavaScript, and a warm cache
 * spares most of it. Node keys each entry by the source's hash and its own version; it never
 * throws here, and a directory it cannot use only means no cache. NODE_COMPILE_CACHE (another
 * directory, enabled by Node itself first) and NODE_DISABLE_COMPILE_CACHE=1 take precedence.
 */
function enableCompileCache(): void {
  const path = process.getBuiltinModule('node:path');
  const xdg = process.env.XDG_CACHE_HOME?.trim();
  let base: string;
  if (xdg !== undefined && path.isAbsolute(xdg)) base = xdg;
  else {
    let home: string;
    try {
      home = process.getBuiltinModule('node:os').homedir();
    } catch {
      return; // No home directory: no cache.
    }
    if (!path.isAbsolute(home)) return; // A relative HOME would put it under the working directory.
    base = path.join(home, '.cache');
  }
  process
    .getBuiltinModule('node:module')
    .enableCompileCache(path.join(base, 'relay', 'node-compile-cache'));
}

// gh dies of SIGPIPE when the reader of its stdout goes away (`gh api … | head -c 10`): so does
// relay, quietly, with the shell's 128 + 13 (Node ignores SIGPIPE and would throw EPIPE instead).
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(141);
  throw error;
});

// Started as `gh` (the install-shim symlink), relay is `relay native <argv>`.
const argv = toRelayArgv(process.argv[1], process.argv.slice(2));
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  // The fast path: the version needs neither clipanion nor any command module.
  process.stdout.write(`${CLI_VERSION}\n`);
} else if (argv[0] === 'native') {
  // A gh command line: straight to the native runner, without building the command table.
  enableCompileCache();
  const { runNativeMain } = await import('./native-main.js');
  await runNativeMain(argv.slice(1), process.argv[1]);
} else {
  // install-shim writes only the files it reports (`--dry-run`: none): not Node's cache either.
  if (argv[0] !== 'install-shim') enableCompileCache();
  const [{ createCli }, { createNodeDependencies }, { colorDepthFor, helpColors }] =
    await Promise.all([
      import('./create-cli.js'),
      import('./node-dependencies.js'),
      import('./terminal-style.js'),
    ]);
  const stdoutIsTTY = process.stdout.isTTY;
  await createCli({ colors: helpColors(process.env, stdoutIsTTY) }).runExit(argv, {
    colorDepth: colorDepthFor(
      process.env,
      stdoutIsTTY,
      stdoutIsTTY ? process.stdout.getColorDepth() : 1,
    ),
    deps: createNodeDependencies({ selfPath: process.argv[1] }),
  });
}
