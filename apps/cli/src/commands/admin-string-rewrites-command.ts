import { Command, Option } from 'clipanion';
import type { CliDependencies } from '../cli-dependencies.js';
import { RelayCommand } from '../relay-command.js';

/** `relay admin string-rewrites status`: the policy's revision and rule count. */
export class AdminStringRewritesStatusCommand extends RelayCommand {
  static override paths = [['admin', 'string-rewrites', 'status']];

  static override usage = Command.Usage({
    category: 'Admin',
    description: 'Show the string-rewrite policy revision and rule count',
    details:
      'Never prints patterns or replacements. Needs RELAY_ADMIN_TOKEN; redirects are refused.',
    examples: [['Show the policy status', '$0 admin string-rewrites status']],
  });

  server = Option.String('--server', {
    description: 'The relay URL (default: RELAY_URL, else the saved one)',
  });

  override async run(deps: CliDependencies): Promise<number> {
    const { sendAdminRequest } = await import('../admin-session.js');
    const { getStringRewritePolicySchema } = await import('@relay/protocol');
    const { CliError } = await import('../cli-error.js');
    const json = await sendAdminRequest(deps, this.server, {
      method: 'GET',
      path: '/v1/admin/string-rewrites',
      refuseRedirects: true,
    });
    const parsed = getStringRewritePolicySchema().safeParse(json);
    if (!parsed.success) throw new CliError('relay_protocol_error');
    const policy = parsed.data;
    this.context.stdout.write(
      `revision ${policy.revision}\nrules ${policy.rules.length}\nupdated_at ${policy.updated_at}\n`,
    );
    return 0;
  }
}

/** `relay admin string-rewrites set --file path|- [--if-revision n]`: PUT the policy. */
export class AdminStringRewritesSetCommand extends RelayCommand {
  static override paths = [['admin', 'string-rewrites', 'set']];

  static override usage = Command.Usage({
    category: 'Admin',
    description: 'Replace the string-rewrite policy',
    details: `
      Reads an import file ({"schema_version": 1, "rules": [...]}; '-' reads stdin), validates
      it locally, and PUTs it with expected_revision (--if-revision, else the current
      revision). Prints only the new revision and the rule count. A stale revision fails with
      string_rewrite_revision_conflict. Needs RELAY_ADMIN_TOKEN; redirects are refused.
    `,
    examples: [
      ['Replace the rules', '$0 admin string-rewrites set --file rules.json'],
      [
        'Only if nobody changed revision 4',
        '$0 admin string-rewrites set --file - --if-revision 4 < rules.json',
      ],
    ],
  });

  file = Option.String('--file', {
    required: true,
    description: "The import file ('-' reads stdin)",
  });
  ifRevision = Option.String('--if-revision', { description: 'The expected current revision' });
  server = Option.String('--server', {
    description: 'The relay URL (default: RELAY_URL, else the saved one)',
  });

  override async run(deps: CliDependencies): Promise<number> {
    const { sendAdminRequest, readInputFile } = await import('../admin-session.js');
    const { getStringRewritePolicySchema, getStringRewritePutResultSchema } =
      await import('@relay/protocol');
    const { parsePolicyDocument } = await import('@relay/rewrite-engine');
    const { CliError } = await import('../cli-error.js');
    let expected: number | undefined;
    if (this.ifRevision !== undefined) {
      if (!/^\d{1,15}$/.test(this.ifRevision)) {
        throw new CliError('usage_error', { message: '--if-revision takes a revision number.' });
      }
      expected = Number(this.ifRevision);
    }
    const document = parsePolicyDocument(await readInputFile(deps, this.file));
    if (!document.ok) {
      const where =
        document.error.ruleIndex === undefined ? '' : ` in rule ${document.error.ruleIndex + 1}`;
      throw new CliError('invalid_string_rewrite_policy', {
        message: `The policy file is invalid: ${document.error.code}${where}.`,
      });
    }
    if (expected === undefined) {
      const current = getStringRewritePolicySchema().safeParse(
        await sendAdminRequest(deps, this.server, {
          method: 'GET',
          path: '/v1/admin/string-rewrites',
          refuseRedirects: true,
        }),
      );
      if (!current.success) throw new CliError('relay_protocol_error');
      expected = current.data.revision;
    }
    const json = await sendAdminRequest(deps, this.server, {
      method: 'PUT',
      path: '/v1/admin/string-rewrites',
      body: {
        schema_version: document.value.schemaVersion,
        expected_revision: expected,
        rules: document.value.rules,
      },
      refuseRedirects: true,
    });
    const result = getStringRewritePutResultSchema().safeParse(json);
    if (!result.success) throw new CliError('relay_protocol_error');
    this.context.stdout.write(
      `revision ${result.data.revision}\nrules ${result.data.rule_count}\n`,
    );
    return 0;
  }
}
