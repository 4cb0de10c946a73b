#!/usr/bin/env node
import { toRelayArgv } from './native/delegate/shim-argv.js';
import { CLI_VERSION } from './version.js';

// Started as `gh` (the install-shim symlink), relay is `relay native <argv>`.
const argv = toRelayArgv(process.argv[1], process.argv.slice(2));
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  // The fast path: the version needs neither clipanion nor any command module.
  process.stdout.write(`${CLI_VERSION}\n`);
} else {
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
