import { Command, Option } from 'clipanion';
import type { CliDependencies } from '../cli-dependencies.js';
import { RelayCommand } from '../relay-command.js';

/** `relay stats [--pool] [--since] [--client] [--json]`: GET /v1/pools/:pool/stats. */
export class StatsCommand extends RelayCommand {
  static override paths = [['stats']];

  static override usage = Command.Usage({
    description: "Show a pool's statistics",
    details:
      'Requests, service errors, local fallbacks, cache hit rates, usage per caller and client, upstream work and fallback reasons over a window (30m, 24h, 7d; at most 30 days).',
    examples: [
      ['The last 24 hours', '$0 stats'],
      ['The last 7 days of one client, as JSON', '$0 stats --since 7d --client laptop --json'],
    ],
  });

  pool = Option.String('--pool', { description: 'The pool (default: the saved one)' });
  since = Option.String('--since', { description: 'The window: 30m, 24h, 7d (default 24h)' });
  client = Option.String('--client', { description: 'Only this client' });
  json = Option.Boolean('--json', false, { description: 'Print JSON' });
  server = Option.String('--server', { description: 'Another relay URL (needs RELAY_TOKEN)' });
  tokenEnv = Option.String('--token-env', { description: 'Read the token from this variable' });

  override async run(deps: CliDependencies): Promise<number> {
    const { loadCallerSession, getPoolResource } = await import('../caller-session.js');
    const { toReplyError } = await import('../relay-http.js');
    const { CliError } = await import('../cli-error.js');
    const { DEFAULT_STATS_WINDOW, normalizeClientName, parseStatsWindow } =
      await import('@relay/protocol');
    const { parsePoolStats, formatPoolStats } = await import('../pool-report.js');
    const { createTerminalStyle } = await import('../terminal-style.js');
    const window = parseStatsWindow(this.since ?? DEFAULT_STATS_WINDOW);
    if (!window.ok) {
      throw new CliError('usage_error', { message: '--since takes a window like 30m, 24h or 7d.' });
    }
    // The client filter is a client name (SPEC.md: 1-80 characters after normalization): checked
    // here, so that an empty or overlong one is a usage error, not the relay's invalid_request.
    let client: string | undefined;
    if (this.client !== undefined) {
      const normalized = normalizeClientName(this.client);
      if (!normalized.ok) {
        throw new CliError('usage_error', {
          message: `--client takes a client name of 1-80 characters (${normalized.error.cause}).`,
        });
      }
      client = normalized.value;
    }
    const session = await loadCallerSession(deps, {
      pool: this.pool,
      server: this.server,
      tokenEnv: this.tokenEnv,
    });
    const params = new URLSearchParams({ window: window.value.label });
    if (client !== undefined) params.set('client', client);
    const reply = await getPoolResource(deps, session.auth, `stats?${params.toString()}`);
    if (reply.kind !== 'ok') throw toReplyError(reply);
    const stats = parsePoolStats(reply.json);
    this.context.stdout.write(
      this.json
        ? `${JSON.stringify(stats, null, 2)}\n`
        : formatPoolStats(stats, createTerminalStyle(deps.env, deps.stdoutIsTTY)),
    );
    return 0;
  }
}
