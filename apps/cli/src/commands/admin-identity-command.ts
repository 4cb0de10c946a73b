import { Command, Option } from 'clipanion';
import type { CliDependencies } from '../cli-dependencies.js';
import { RelayCommand } from '../relay-command.js';

/** `relay admin identity`: POST /v1/admin/pools/:pool/identities with the admin token. */
export class AdminIdentityCommand extends RelayCommand {
  static override paths = [['admin', 'identity']];

  static override usage = Command.Usage({
    category: 'Admin',
    description: 'Register or update a pooled identity',
    details: `
      Either --file (a JSON identity: id, kind, login, secret_ref, installation_id, scopes,
      weight; '-' reads stdin) or the flags. Scopes are owner or owner/repo; '*' marks a broad
      PAT. The secret itself is never sent: secret_ref names the binding on the server.
      Needs RELAY_ADMIN_TOKEN.
    `,
    examples: [
      [
        'A PAT for one owner',
        '$0 admin identity --pool team --id reader-1 --kind pat --login bot --secret-ref READER_1 --scope acme',
      ],
      ['From a file', '$0 admin identity --pool team --file identity.json'],
    ],
  });

  pool = Option.String('--pool', { required: true, description: 'The pool' });
  file = Option.String('--file', { description: "A JSON identity ('-' reads stdin)" });
  id = Option.String('--id', { description: 'The identity id' });
  kind = Option.String('--kind', { description: 'pat or forge_app' });
  login = Option.String('--login', { description: 'The account login' });
  secretRef = Option.String('--secret-ref', { description: 'The secret binding name' });
  installationId = Option.String('--installation-id', { description: 'forge_app installation id' });
  scope = Option.Array('--scope', [], { description: 'owner or owner/repo (repeatable)' });
  weight = Option.String('--weight', { description: 'Selection weight (default 100)' });
  server = Option.String('--server', {
    description: 'The relay URL (default: RELAY_URL, else the saved one)',
  });

  override async run(deps: CliDependencies): Promise<number> {
    const { sendAdminRequest, readInputFile } = await import('../admin-session.js');
    const { getIdentityRegistrationSchema } = await import('@relay/protocol');
    const { CliError } = await import('../cli-error.js');
    let input: unknown;
    if (this.file !== undefined) {
      try {
        input = JSON.parse(Buffer.from(await readInputFile(deps, this.file)).toString('utf8'));
      } catch (error) {
        if (error instanceof CliError) throw error;
        throw new CliError('usage_error', { message: 'The identity file is not JSON.' });
      }
    } else {
      const integer = (flag: string, value: string | undefined): number | undefined => {
        if (value === undefined) return undefined;
        // Decimal digits only: Number() would read '' and ' ' as 0, and '1e3' or '0x10' too.
        if (!/^\d{1,16}$/.test(value)) {
          throw new CliError('usage_error', { message: `${flag} takes a decimal integer.` });
        }
        return Number(value);
      };
      const installationId = integer('--installation-id', this.installationId);
      const weight = integer('--weight', this.weight);
      const scopes = this.scope.map((scope) => {
        // owner or owner/repo, nothing more: split('/', 2) dropped a third part silently.
        const parts = scope.split('/');
        if (parts.length > 2 || parts.some((part) => part === '')) {
          throw new CliError('usage_error', { message: '--scope takes owner or owner/repo.' });
        }
        const [owner, repo] = parts;
        return repo === undefined ? { owner } : { owner, repo };
      });
      input = {
        id: this.id,
        kind: this.kind,
        login: this.login,
        secret_ref: this.secretRef,
        ...(installationId === undefined ? {} : { installation_id: installationId }),
        scopes,
        ...(weight === undefined ? {} : { weight }),
      };
    }
    const parsed = getIdentityRegistrationSchema().safeParse(input);
    if (!parsed.success) {
      const fields = [
        ...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(root)')),
      ];
      throw new CliError('usage_error', { message: `Invalid identity: ${fields.join(', ')}.` });
    }
    const json = await sendAdminRequest(deps, this.server, {
      method: 'POST',
      path: `/v1/admin/pools/${encodeURIComponent(this.pool)}/identities`,
      body: parsed.data,
    });
    this.context.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return 0;
  }
}
