import type { ServePlan } from '../argv/native-plan.js';
import { sanitizeAscii, sanitizeJson } from '../export/ascii-sanitizer.js';
import { delegated, printed } from '../export/export-output.js';
import type { CommandOutcome } from '../export/export-output.js';
import { parseGistSelector, renderGistFileNames, renderGistView } from '../export/gist-export.js';
import type { GoGist, GoGistFile } from '../export/gist-export.js';
import { hasEscapeDependentControl } from '../export/release-export.js';
import type { RelayPort } from '../relay-port.js';
import type { ServedCommand } from './served-command.js';
import { finishOutcome } from './served-outcome.js';

/**
 * Decodes a (sanitized) REST gist as gh's `shared.Gist`; `undefined` where Go would refuse it,
 * a file is `null` (gh would dereference it), or a backspace or form feed makes gh's sanitized
 * text unproved. File names are the `files` keys as gh's sanitizer leaves them (`\u001b` → `^[`);
 * two keys that become one run gh.
 */
function decodeGist(body: unknown): GoGist | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  if (hasEscapeDependentControl(body)) return undefined;
  const { description, files } = body as Record<string, unknown>;
  if (description !== undefined && description !== null && typeof description !== 'string') {
    return undefined;
  }
  if (
    files !== undefined &&
    files !== null &&
    (typeof files !== 'object' || Array.isArray(files))
  ) {
    return undefined;
  }
  const decoded = new Map<string, GoGistFile>();
  for (const [key, file] of Object.entries((files ?? {}) as Record<string, unknown>)) {
    if (typeof file !== 'object' || file === null || Array.isArray(file)) return undefined;
    const content = (file as { content?: unknown }).content;
    if (content !== undefined && content !== null && typeof content !== 'string') return undefined;
    // gh's sanitizer rewrites the response's bytes, the files map's keys included.
    const name = sanitizeAscii(key);
    if (/[\b\f]/.test(key) || decoded.has(name)) return undefined;
    decoded.set(name, { content: content ?? '' });
  }
  return { description: description ?? '', files: decoded };
}

/**
 * `gh gist view <id | url> [--files] [--filename f]` through the relay (stdout not a terminal,
 * so gh's `--raw`), as gh v2.60: `GET /gists/{id}` (route gist_view, public gists only), then
 * the file names (`--files`) or the contents ({@link renderGistView}); `not found` (exit 1) for a
 * gist the forge does not have. Runs gh: no argument (gh's prompt), a selector gh parses in a way
 * not reproduced, a file whose binary check is not proved (a signature of mimetype's non-text
 * types), a secret gist (the relay answers `fallback_local`, `repo_not_public`) and any other
 * forge error. (`gh gist list` is served with `--public` only: gist-list.ts.)
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
  const id = parseGistSelector(selector);
  if (id === undefined) return delegated('unsupported_shape');
  const result = await port.read({ path: `/gists/${id}` });
  if (result.kind === 'fallback') return result;
  const { envelope } = result;
  if (envelope.status === 404) return printed('', 'not found\n', 1);
  const gist =
    envelope.status === 200 && envelope.body_encoding === 'json'
      ? decodeGist(sanitizeJson(envelope.body))
      : undefined;
  if (gist === undefined) return delegated('unsupported_shape');
  // gh reads --filename before --files.
  // An empty --filename is gh's zero value: no file selected.
  const given = plan.flags.filename?.at(-1);
  const filename = given === '' ? undefined : given;
  if (filename === undefined && plan.flags.files?.at(-1) === 'true') {
    const listing = renderGistFileNames([...gist.files.keys()]);
    return listing === undefined ? delegated('unsupported_shape') : printed(listing);
  }
  const output = renderGistView(gist, filename);
  if (output === undefined) return delegated('unsupported_shape');
  return printed(output.stdout, output.stderr, output.code);
}

/** `gh gist view` (README "gist view"). */
export const GIST_VIEW_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const { createSessionRelayPort } = await import('../relay-port.js');
    const outcome = await runGistView(createSessionRelayPort(deps), plan);
    return finishOutcome(deps, output, argv, outcome);
  },
};
