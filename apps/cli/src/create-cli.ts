import { Builtins, Cli } from 'clipanion';
import { AdminCallerCommand } from './commands/admin-caller-command.js';
import { AdminIdentityCommand } from './commands/admin-identity-command.js';
import {
  AdminStringRewritesSetCommand,
  AdminStringRewritesStatusCommand,
} from './commands/admin-string-rewrites-command.js';
import { HealthCommand } from './commands/health-command.js';
import { LoginCommand } from './commands/login-command.js';
import { NativeApiCommand } from './commands/native-api-command.js';
import { NativeCommand } from './commands/native-command.js';
import { RequestCommand } from './commands/request-command.js';
import { StatsCommand } from './commands/stats-command.js';
import { WhoamiCommand } from './commands/whoami-command.js';
import type { RelayContext } from './relay-command.js';
import { CLI_VERSION } from './version.js';

/**
 * Builds the `relay` command line: every command registered, nothing run. `main.ts` alone
 * calls `runExit`; tests call `cli.run(argv, context)` with captured streams and fake
 * dependencies in `context.deps`. Command modules load their implementations lazily.
 *
 * @example
 * ```ts
 * const code = await createCli().run(['whoami'], { stdout, stderr, deps });
 * ```
 */
export function createCli(): Cli<RelayContext> {
  const cli = new Cli<RelayContext>({
    binaryLabel: 'Relay — a shared, cached read relay for the GitHub CLI',
    binaryName: 'relay',
    binaryVersion: CLI_VERSION,
    enableCapture: false,
  });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  cli.register(Builtins.DefinitionsCommand);
  cli.register(LoginCommand);
  cli.register(WhoamiCommand);
  cli.register(RequestCommand);
  cli.register(HealthCommand);
  cli.register(StatsCommand);
  cli.register(AdminCallerCommand);
  cli.register(AdminIdentityCommand);
  cli.register(AdminStringRewritesStatusCommand);
  cli.register(AdminStringRewritesSetCommand);
  cli.register(NativeApiCommand);
  cli.register(NativeCommand);
  return cli;
}
