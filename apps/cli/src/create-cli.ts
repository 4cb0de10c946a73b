import { Builtins, Cli } from 'clipanion';
import { CLI_VERSION } from './version.js';

/**
 * Builds the `relay` command line: every command registered, nothing run. `main.ts` alone
 * calls `runExit`; tests call `cli.run(argv, context)` with captured streams.
 */
export function createCli(): Cli {
  const cli = new Cli({
    binaryLabel: 'Relay — a shared, cached read relay for the GitHub CLI',
    binaryName: 'relay',
    binaryVersion: CLI_VERSION,
    enableCapture: false,
  });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  cli.register(Builtins.DefinitionsCommand);
  return cli;
}
