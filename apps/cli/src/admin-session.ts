import { readFile } from 'node:fs/promises';
import { readSavedLogin, resolveConfigDir } from './auth-store.js';
import { canonicalUrl, invalidRelayUrlError, isTokenText } from './caller-auth.js';
import type { CliDependencies } from './cli-dependencies.js';
import { CliError } from './cli-error.js';
import { joinUrl, sendRelayRequest, toReplyError } from './relay-http.js';

/** One admin request. */
export interface AdminRequest {
  readonly method: 'GET' | 'POST' | 'PUT';
  /** The absolute relay path (`/v1/admin/...`). */
  readonly path: string;
  readonly body?: unknown;
  /** String-rewrite policy requests refuse every redirect; others follow same-origin ones. */
  readonly refuseRedirects?: boolean;
}

/**
 * Sends an admin request with RELAY_ADMIN_TOKEN to `--server`, else RELAY_URL, else the saved
 * login's URL, and resolves the JSON body of a 2xx answer.
 *
 * @throws CliError `not_logged_in` (no admin token or no URL) or the relay's code
 */
export async function sendAdminRequest(
  deps: CliDependencies,
  server: string | undefined,
  request: AdminRequest,
): Promise<unknown> {
  const token = deps.env.RELAY_ADMIN_TOKEN?.trim();
  if (token === undefined || token === '') {
    throw new CliError('not_logged_in', { message: 'Admin commands need RELAY_ADMIN_TOKEN.' });
  }
  if (!isTokenText(token)) {
    throw new CliError('not_logged_in', {
      message: 'RELAY_ADMIN_TOKEN does not hold a token (visible ASCII characters only).',
    });
  }
  let raw = server ?? deps.env.RELAY_URL?.trim();
  let url: string | undefined;
  if (raw === undefined || raw === '') {
    const saved = await readSavedLogin(resolveConfigDir(deps.env, deps.homeDir));
    raw = saved.ok ? saved.value?.url : undefined;
    url = raw === undefined ? undefined : canonicalUrl(raw);
  } else {
    url = canonicalUrl(raw);
    // An explicit URL that is no relay base URL is a usage error (and never echoed: it may
    // carry credentials).
    if (url === undefined) throw invalidRelayUrlError();
  }
  if (url === undefined) {
    throw new CliError('not_logged_in', {
      message: 'Which relay? Pass --server, set RELAY_URL, or run `relay login`.',
    });
  }
  const reply = await sendRelayRequest(deps.fetch, {
    method: request.method,
    url: joinUrl(url, request.path),
    token,
    ...(request.body === undefined ? {} : { body: request.body }),
    redirects: request.refuseRedirects === true ? 'refuse' : 'same-origin',
  });
  if (reply.kind !== 'ok') throw toReplyError(reply);
  return reply.json;
}

/**
 * Reads an input file, or stdin for `-`.
 *
 * @throws CliError `usage_error` when the file cannot be read
 */
export async function readInputFile(deps: CliDependencies, path: string): Promise<Uint8Array> {
  if (path === '-') return deps.readStdin();
  try {
    return await readFile(path);
  } catch {
    throw new CliError('usage_error', { message: `Cannot read ${path}.` });
  }
}
