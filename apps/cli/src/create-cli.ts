import { Builtins, Cli } from 'clipanion';
import type { Command } from 'clipanion';
import { AdminCallerCommand } from './commands/admin-caller-command.js';
import { AdminIdentityCommand } from './commands/admin-identity-command.js';
import {
  AdminStringRewritesSetCommand,
  AdminStringRewritesStatusCommand,
} from './commands/admin-string-rewrites-command.js';
import { HealthCommand } from './commands/health-command.js';
import { InstallShimCommand } from './commands/install-shim-command.js';
import { LoginCommand } from './commands/login-command.js';
import { NativeApiCommand } from './commands/native-api-command.js';
import { NativeCommand } from './commands/native-command.js';
import { RequestCommand } from './commands/request-command.js';
import { StatsCommand } from './commands/stats-command.js';
import { WhoamiCommand } from './commands/whoami-command.js';
import type { RelayContext } from './relay-command.js';
import { CLI_VERSION } from './version.js';

/** The exit code of a command line clipanion cannot parse (unknown option, missing argument). */
export const USAGE_EXIT_CODE = 2;

/** Options of {@link createCli}. */
export interface CreateCliOptions {
  /** Colour in help and usage errors (default: none; `main.ts` passes {@link helpColors}). */
  readonly colors?: boolean;
}

/**
 * clipanion's `Cli`, except that a command line it cannot parse prints its usage error on
 * stderr and exits {@link USAGE_EXIT_CODE} (clipanion prints it on stdout and exits 1).
 */
class RelayCli extends Cli<RelayContext> {
  /** Where {@link error} writes while a command runs: stderr, never stdout. */
  #errorSink: NodeJS.WritableStream | undefined;

  override async run(
    input: Command<RelayContext> | string[],
    context: Partial<RelayContext> & Pick<RelayContext, 'stdout' | 'stderr'>,
  ): Promise<number> {
    // runExit passes only what it was given: the streams come from clipanion's defaults, as in
    // super.run (without them, a usage error of the binary crashed on `context.stderr`).
    const full = { ...Cli.defaultContext, ...context };
    let command: Command<RelayContext>;
    if (Array.isArray(input)) {
      try {
        command = this.process(input, full);
      } catch (error) {
        full.stderr.write(this.error(error, { colored: this.enableColors ?? false }));
        return USAGE_EXIT_CODE;
      }
    } else command = input;
    // clipanion writes an error a command throws to stdout (then exits 1): relay's stdout is
    // data a pipe reads (gh's bytes), so the report goes to stderr instead.
    this.#errorSink = full.stderr;
    try {
      return await super.run(command, context);
    } finally {
      this.#errorSink = undefined;
    }
  }

  override error(...args: Parameters<Cli<RelayContext>['error']>): string {
    const text = super.error(...args);
    if (this.#errorSink === undefined) return text;
    this.#errorSink.write(text);
    return '';
  }
}

/**
 * Builds the `relay` command line: every command registered, nothing run. `main.ts` alone
 * calls `runExit`; tests call `cli.run(argv, context)` with captured streams and fake
 * dependencies in `context.deps`. Command modules load their implementations lazily. Help is
 * plain unless `options.colors`; a command line that does not parse prints its usage error on
 * stderr and exits 2.
 *
 * @example
 * ```ts
 * const code = await createCli().run(['whoami'], { stdout, stderr, deps });
 * ```
 */
export function createCli(options: CreateCliOptions = {}): Cli<RelayContext> {
  const cli = new RelayCli({
    binaryLabel: 'Relay — a shared, cached read relay for the GitHub CLI',
    binaryName: 'relay',
    binaryVersion: CLI_VERSION,
    enableCapture: false,
    enableColors: options.colors ?? false,
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
  cli.register(InstallShimCommand);
  return cli;
}
