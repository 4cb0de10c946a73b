import type { ServePlan } from '../argv/native-plan.js';
import { delegated, printed, writeExport } from '../export/export-output.js';
import type { CommandOutcome, JqRunner } from '../export/export-output.js';
import type { GoJsonValue } from '../export/go-json-encoder.js';
import { formatJsonFieldError, selectJsonFields } from '../export/json-field-catalogue.js';
import {
  decodeReadme,
  isRestRepoField,
  renderRepoView,
  repoFieldValue,
} from '../export/repo-export.js';
import type { RelayPort } from '../relay-port.js';
import type { ServedCommand } from './served-command.js';

/** Branch names gh puts in `?ref=` that Go sends unchanged. */
const PLAIN_BRANCH = /^[A-Za-z0-9._/-]+$/;

/** Control characters whose sanitized form depends on how GitHub escaped them in JSON. */
// eslint-disable-next-line no-control-regex -- control characters are what it detects
const AMBIGUOUS_CONTROL = /[\u0000-\u0008\u000c\u000e-\u001f\u0080-\u009f]/;

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `gh repo view [OWNER/REPO | URL] [--branch B]` through the relay (cli/cli v2.60.0
 * `viewRun`, stdout not a terminal). gh reads the repository by GraphQL; the relay reads
 * `/repos/O/R` (route repo_view, its public subset) and, for the plain output,
 * `/repos/O/R/readme[?ref=B]` (route repo_readme). Plain: `name:\tOWNER/REPO` as named,
 * `description:`, then `--` and the README through Go's printf (gh's `Fprintf(out, content)`)
 * and `\n`; no README (404): no `--`. `--json`: only the fields REST gives with gh's exact
 * shape ({@link isRestRepoField}); any other field, a forge error (GraphQL words it), a
 * description with a control character other than tab, LF, VT, CR, a README Go would not
 * decode and a branch needing escaping run gh.
 */
export async function runRepoView(
  port: RelayPort,
  plan: Pick<ServePlan, 'flags' | 'repo'>,
  jq: JqRunner,
): Promise<CommandOutcome> {
  const selection = selectJsonFields('repo view', plan.flags);
  if (!selection.ok) {
    if (selection.error.code === 'invalid_csv') return delegated('invalid_usage');
    return printed('', formatJsonFieldError(selection.error), 1);
  }
  const repo = plan.repo?.repo;
  if (repo === undefined) return delegated('unsupported_shape');
  const selected = selection.value;
  const restFields = selected.kind === 'json' ? selected.fields.filter(isRestRepoField) : [];
  if (selected.kind === 'json' && restFields.length !== selected.fields.length) {
    return delegated('unsupported_flag');
  }
  const branch = plan.flags.branch?.at(-1);
  if (
    selected.kind === 'human' &&
    branch !== undefined &&
    branch !== '' &&
    !PLAIN_BRANCH.test(branch)
  ) {
    return delegated('unsupported_shape');
  }

  const base = `/repos/${repo.owner}/${repo.name}`;
  const read = await port.read({ path: base });
  if (read.kind === 'fallback') return read;
  const { envelope } = read;
  if (envelope.status !== 200 || !isRecord(envelope.body)) return delegated('unsupported_shape');
  const body = envelope.body;

  if (selected.kind === 'json') {
    const data: Record<string, GoJsonValue> = {};
    for (const field of restFields) {
      const value = repoFieldValue(body, field);
      if (value === undefined) return delegated('unsupported_shape');
      if (typeof value === 'string' && AMBIGUOUS_CONTROL.test(value)) {
        return delegated('unsupported_shape');
      }
      data[field] = value;
    }
    return writeExport(data, selected.jq, jq);
  }

  const description = repoFieldValue(body, 'description');
  if (typeof description !== 'string' || AMBIGUOUS_CONTROL.test(description)) {
    return delegated('unsupported_shape');
  }
  const readmeRead = await port.read({
    path: `${base}/readme`,
    ...(branch === undefined || branch === '' ? {} : { query: { ref: branch } }),
  });
  if (readmeRead.kind === 'fallback') return readmeRead;
  const answer = readmeRead.envelope;
  let readme: string | null = null;
  if (answer.status === 200) {
    const content = isRecord(answer.body) ? answer.body.content : undefined;
    const decoded = typeof content === 'string' ? decodeReadme(content) : undefined;
    if (decoded === undefined) return delegated('unsupported_shape');
    readme = decoded;
  } else if (answer.status !== 404) {
    return delegated('unsupported_shape');
  }
  return printed(renderRepoView(`${repo.owner}/${repo.name}`, description, readme));
}

/** `gh repo view` (SPEC.md `relay native` row; README "repo view"). */
export const REPO_VIEW_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const [{ createSessionRelayPort }, { createJqRunner, finishOutcome }] = await Promise.all([
      import('../relay-port.js'),
      import('./served-outcome.js'),
    ]);
    const outcome = await runRepoView(createSessionRelayPort(deps), plan, createJqRunner(deps));
    return finishOutcome(deps, output, argv, outcome);
  },
};
