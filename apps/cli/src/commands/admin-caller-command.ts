import { Command, Option } from 'clipanion';
import type { CliDependencies } from '../cli-dependencies.js';
import { RelayCommand } from '../relay-command.js';

/** `relay admin caller`: POST /v1/admin/callers with the admin token. */
export class AdminCallerCommand extends RelayCommand {
  static override paths = [['admin', 'caller']];

  static override usage = Command.Usage({
    category: 'Admin',
    description: 'Provision a caller and print its one-time token',
    details:
      'Grants the pool to the forge account (a verified organization member) and rotates the named client. Needs RELAY_ADMIN_TOKEN. The token is printed once.',
    examples: [['Provision a CI client', '$0 admin caller --pool team --login hubot --name ci']],
  });

  pool = Option.String('--pool', { required: true, description: 'The pool to grant' });
  login = Option.String('--login', { required: true, description: 'The forge login' });
  name = Option.String('--name', { required: true, description: 'The client name' });
  server = Option.String('--server', {
    description: 'The relay URL (default: RELAY_URL, else the saved one)',
  });
  json = Option.Boolean('--json', false, { description: 'Print the whole response as JSON' });

  override async run(deps: CliDependencies): Promise<number> {
    const { sendAdminRequest } = await import('../admin-session.js');
    const { getCallerProvisioningResponseSchema } = await import('@relay/protocol');
    const { CliError } = await import('../cli-error.js');
    const json = await sendAdminRequest(deps, this.server, {
      method: 'POST',
      path: '/v1/admin/callers',
      body: { pool: this.pool, forge_login: this.login, name: this.name },
    });
    const parsed = getCallerProvisioningResponseSchema().safeParse(json);
    if (!parsed.success) throw new CliError('relay_protocol_error');
    const c = parsed.data;
    this.context.stdout.write(
      this.json
        ? `${JSON.stringify(c, null, 2)}\n`
        : `caller ${c.caller_id} (${c.login}, forge id ${c.forge_user_id}) pool ${c.pool} client ${c.client}, expires ${c.expires_at}\ntoken: ${c.token}\n`,
    );
    return 0;
  }
}
