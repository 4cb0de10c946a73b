import { Command, Option } from 'clipanion';
import type { CliDependencies } from '../cli-dependencies.js';
import { RelayCommand } from '../relay-command.js';

/** `relay health [--pool]`: GET /v1/pools/:pool/health. */
export class HealthCommand extends RelayCommand {
  static override paths = [['health']];

  static override usage = Command.Usage({
    description: "Show a pool's health",
    details:
      "Identity counts (healthy counts stored active identities, not verified credentials), the string-rewrite revision, the pool policy and, per rate-limit bucket, when the pool's quota runs out at the last minute's rate.",
    examples: [
      ['The saved pool', '$0 health'],
      ['Another pool, as JSON', '$0 health --pool team --json'],
    ],
  });

  pool = Option.String('--pool', { description: 'The pool (default: the saved one)' });
  json = Option.Boolean('--json', false, { description: 'Print JSON' });
  server = Option.String('--server', { description: 'Another relay URL (needs RELAY_TOKEN)' });
  tokenEnv = Option.String('--token-env', { description: 'Read the token from this variable' });

  override async run(deps: CliDependencies): Promise<number> {
    const { loadCallerSession, getPoolResource } = await import('../caller-session.js');
    const { toReplyError } = await import('../relay-http.js');
    const { parsePoolHealth, formatPoolHealth } = await import('../pool-report.js');
    const session = await loadCallerSession(deps, {
      pool: this.pool,
      server: this.server,
      tokenEnv: this.tokenEnv,
    });
    const reply = await getPoolResource(deps, session.auth, 'health');
    if (reply.kind !== 'ok') throw toReplyError(reply);
    const health = parsePoolHealth(reply.json);
    this.context.stdout.write(
      this.json ? `${JSON.stringify(health, null, 2)}\n` : formatPoolHealth(health),
    );
    return 0;
  }
}
