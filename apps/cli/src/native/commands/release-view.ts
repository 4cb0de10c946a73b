import type { ServePlan } from '../argv/native-plan.js';
import { sanitizeJson } from '../export/ascii-sanitizer.js';
import { delegated, printed, writeExport } from '../export/export-output.js';
import type { CommandOutcome, JqRunner } from '../export/export-output.js';
import { exportFields } from '../export/json-export-writer.js';
import { formatJsonFieldError, selectJsonFields } from '../export/json-field-catalogue.js';
import {
  decodeRestRelease,
  releaseViewFieldValue,
  renderReleaseView,
} from '../export/release-export.js';
import type { RelayPort } from '../relay-port.js';
import type { ServedCommand } from './served-command.js';

/** gh's error text when `/releases/latest` answers 404 (`errNotFound`; exit 1). */
export const RELEASE_NOT_FOUND = 'release not found\n';

/**
 * Tags whose path gh builds and Go sends unchanged (no escaping, no dot segment): letters,
 * digits, `._+-`, segments joined by `/`. Any other tag runs gh.
 */
const PLAIN_TAG = /^[A-Za-z0-9._+-]+(?:\/[A-Za-z0-9._+-]+)*$/;

function isPlainTag(tag: string): boolean {
  return PLAIN_TAG.test(tag) && !tag.split('/').some((part) => part === '.' || part === '..');
}

/**
 * `gh release view [<tag>]` through the relay (cli/cli v2.60.0 `viewRun`, stdout not a
 * terminal): one REST read, `/releases/tags/TAG` (route release_view) or `/releases/latest`
 * (route release_latest); a 200 prints gh's plain layout or its `--json` export. Latest 404
 * prints `release not found` (exit 1). A tag that 404s runs gh: gh also finds drafts by their
 * pending tag through GraphQL, which the anonymous relay cannot see. Other forge errors, a
 * body Go would not decode the same way and a tag needing URL escaping run gh too.
 */
export async function runReleaseView(
  port: RelayPort,
  plan: Pick<ServePlan, 'args' | 'flags' | 'repo'>,
  jq: JqRunner,
): Promise<CommandOutcome> {
  const selection = selectJsonFields('release view', plan.flags);
  if (!selection.ok) {
    if (selection.error.code === 'invalid_csv') return delegated('invalid_usage');
    return printed('', formatJsonFieldError(selection.error), 1);
  }
  const repo = plan.repo?.repo;
  if (repo === undefined) return delegated('unsupported_shape');
  const [tag] = plan.args;
  if (tag !== undefined && !isPlainTag(tag)) return delegated('unsupported_shape');
  const base = `/repos/${repo.owner}/${repo.name}/releases`;
  const result = await port.read({
    path: tag === undefined ? `${base}/latest` : `${base}/tags/${tag}`,
  });
  if (result.kind === 'fallback') return result;
  const { envelope } = result;
  if (envelope.status === 404 && tag === undefined) return printed('', RELEASE_NOT_FOUND, 1);
  if (envelope.status !== 200 || envelope.body_encoding !== 'json') {
    return delegated('unsupported_shape');
  }
  const release = decodeRestRelease(sanitizeJson(envelope.body));
  if (release === undefined) return delegated('unsupported_shape');
  const selected = selection.value;
  if (selected.kind === 'human') {
    const text = renderReleaseView(release);
    return text === undefined ? delegated('unsupported_shape') : printed(text);
  }
  const data = exportFields(release, selected.fields, releaseViewFieldValue);
  return writeExport(data, selected.jq, jq);
}

/** `gh release view` (SPEC.md `relay native` row; README "release view"). */
export const RELEASE_VIEW_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const [{ createSessionRelayPort }, { createJqRunner, finishOutcome }] = await Promise.all([
      import('../relay-port.js'),
      import('./served-outcome.js'),
    ]);
    const outcome = await runReleaseView(createSessionRelayPort(deps), plan, createJqRunner(deps));
    return finishOutcome(deps, output, argv, outcome);
  },
};
