import { Command, Option } from 'clipanion';
import type { CliDependencies } from '../cli-dependencies.js';
import { RelayCommand } from '../relay-command.js';

/** `relay login [server]`: exchanges the local forge token for a caller token and saves it. */
export class LoginCommand extends RelayCommand {
  static override paths = [['login']];

  static override usage = Command.Usage({
    description: 'Log in to a relay with your local GitHub token',
    details: `
      Reads your GitHub token (GH_TOKEN, then GITHUB_TOKEN, then \`gh auth token\` for github.com;
      never an enterprise credential), checks the server's discovery document, exchanges the
      token for a relay caller token and saves it in auth.json (mode 0600) in the config
      directory (RELAY_CONFIG_DIR, else $XDG_CONFIG_HOME/relay, else ~/.config/relay).

      The server must use https; http is accepted for loopback hosts or with
      RELAY_ALLOW_INSECURE_LOGIN=1. Redirects to another origin are refused.
    `,
    examples: [
      ['Log in to a relay', '$0 login https://relay.example.com'],
      [
        'Log in to another pool with a named client',
        '$0 login relay.example.com --pool team --client laptop',
      ],
    ],
  });

  server = Option.String({ required: false, name: 'server' });
  serverOption = Option.String('--server', { description: 'The relay URL' });
  url = Option.String('--url', { description: 'The relay URL (older spelling of --server)' });
  pool = Option.String('--pool', { description: "The pool (default: discovery's default_pool)" });
  client = Option.String('--client', {
    description: 'The client name (default: this host name, normalized, at most 80 characters)',
  });
  trustDiscoveryRedirect = Option.Boolean('--trust-discovery-redirect', false, {
    description: 'Accept a discovery api_base on another host',
  });

  override async run(deps: CliDependencies): Promise<number> {
    const { performLogin } = await import('../login-flow.js');
    const given = [this.server, this.serverOption, this.url].filter((value) => value !== undefined);
    if (new Set(given).size > 1) {
      // `relay login A --server B` logged in to A without a word; the token would then be bound
      // to the server the user did not mean.
      const { CliError } = await import('../cli-error.js');
      throw new CliError('usage_error', {
        message: 'Give the server once: as the argument, --server or --url.',
      });
    }
    const saved = await performLogin(deps, {
      server: given[0],
      pool: this.pool,
      client: this.client,
      trustDiscoveryRedirect: this.trustDiscoveryRedirect,
    });
    this.context.stdout.write(
      `Logged in to ${saved.url} as ${saved.login} (pool ${saved.pool}, client ${saved.client}).\n`,
    );
    return 0;
  }
}
