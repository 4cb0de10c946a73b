import { Command, Option } from 'clipanion';
import type { CliDependencies } from '../cli-dependencies.js';
import { RelayCommand } from '../relay-command.js';

/** `relay whoami [--json]`: the saved login, without the token. */
export class WhoamiCommand extends RelayCommand {
  static override paths = [['whoami']];

  static override usage = Command.Usage({
    description: 'Show the saved login',
    details: 'Prints the server, pool, login and client of the saved login. No request is made.',
    examples: [
      ['Show the saved login', '$0 whoami'],
      ['As JSON', '$0 whoami --json'],
    ],
  });

  json = Option.Boolean('--json', false, { description: 'Print JSON' });

  override async run(deps: CliDependencies): Promise<number> {
    const { readSavedLogin, resolveConfigDir } = await import('../auth-store.js');
    const { CliError } = await import('../cli-error.js');
    const saved = await readSavedLogin(resolveConfigDir(deps.env, deps.homeDir));
    if (!saved.ok) throw new CliError('invalid_config');
    if (saved.value === undefined) throw new CliError('not_logged_in');
    const { url, pool, login, client } = saved.value;
    this.context.stdout.write(
      this.json
        ? `${JSON.stringify({ server: url, pool, login, client }, null, 2)}\n`
        : `server: ${url}\npool: ${pool}\nlogin: ${login}\nclient: ${client}\n`,
    );
    return 0;
  }
}
