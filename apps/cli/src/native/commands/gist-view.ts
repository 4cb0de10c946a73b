import type { ServePlan } from '../argv/native-plan.js';
import { sanitizeJson } from '../export/ascii-sanitizer.js';
import { delegated, printed } from '../export/export-output.js';
import type { CommandOutcome } from '../export/export-output.js';
import { parseGistSelector, renderGistFileNames } from '../export/gist-export.js';
import type { RelayPort } from '../relay-port.js';
import type { ServedCommand } from './served-command.js';
import { finishOutcome } from './served-outcome.js';

/**
 * `gh gist view <id | url> --files` through the relay (stdout not a terminal), as gh v2.60:
 * `GET /gists/{id}` (route gist_view, public gists only) and the file names sorted
 * case-insensitively, one a line; `not found` (exit 1) for a gist the forge does not have.
 * Everything else runs gh: no argument (gh's prompt), `--filename` and the file contents
 * (gh's binary check is the mimetype library's signature tree, not reproduced), a selector
 * gh parses in a way not reproduced, a secret gist (the relay answers `fallback_local`,
 * `repo_not_public`) and any other forge error. `gh gist list` is never served: it lists the
 * *viewer's* gists (secret ones included) over GraphQL, and the relay's pooled identity is not
 * the viewer.
 *
 * @param port - the relay (a fake one in unit tests)
 * @throws CliError for relay failures (from the port)
 */
export async function runGistView(
  port: RelayPort,
  plan: Pick<ServePlan, 'args' | 'flags'>,
): Promise<CommandOutcome> {
  const [selector] = plan.args;
  if (selector === undefined) return delegated('unsupported_shape');
  if (plan.flags.files?.at(-1) !== 'true' || plan.flags.filename !== undefined) {
    return delegated('unsupported_flag');
  }
  const id = parseGistSelector(selector);
  if (id === undefined) return delegated('unsupported_shape');
  const result = await port.read({ path: `/gists/${id}` });
  if (result.kind === 'fallback') return result;
  const { envelope } = result;
  if (envelope.status === 404) return printed('', 'not found\n', 1);
  const gist = envelope.body_encoding === 'json' ? sanitizeJson(envelope.body) : undefined;
  if (envelope.status !== 200 || typeof gist !== 'object' || gist === null) {
    return delegated('unsupported_shape');
  }
  const files = (gist as { files?: unknown }).files;
  if (
    files !== undefined &&
    files !== null &&
    (typeof files !== 'object' || Array.isArray(files))
  ) {
    return delegated('unsupported_shape');
  }
  const listing = renderGistFileNames(Object.keys(files ?? {}));
  return listing === undefined ? delegated('unsupported_shape') : printed(listing);
}

/** `gh gist view` (README "gist view"). */
export const GIST_VIEW_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const { createSessionRelayPort } = await import('../relay-port.js');
    const outcome = await runGistView(createSessionRelayPort(deps), plan);
    return finishOutcome(deps, output, argv, outcome);
  },
};
