import { err, getPoolIdSchema, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';
import type { SavedLogin } from './auth-store.js';
import type { CliEnv } from './cli-dependencies.js';
import { CliError } from './cli-error.js';

/** One snapshot of where to send caller requests and with which token (client rule 2). */
export interface CallerAuth {
  /** The relay base URL. */
  readonly url: string;
  /** The caller token. */
  readonly token: string;
  /** The pool requests go to. */
  readonly pool: string;
  /** Where the token came from. */
  readonly source: 'saved' | 'env';
}

/** What the command line adds to the saved login. */
export interface CallerAuthOptions {
  /** `--server`: a relay URL other than the saved one. */
  readonly server?: string | undefined;
  /** `--pool`. */
  readonly pool?: string | undefined;
  /** `--token-env NAME`: read the token from this variable instead of RELAY_TOKEN. */
  readonly tokenEnv?: string | undefined;
}

/**
 * Whether a token can be sent at all: visible ASCII only (caller tokens are `rly_` and
 * base64url). Anything else — a newline or another control character inside, a character
 * Node refuses in a header — made the request fail before it left, reported as an unreachable
 * relay.
 */
export function isTokenText(value: string): boolean {
  return /^[\x21-\x7e]+$/.test(value);
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * Whether a parsed URL carries user info, a query or a fragment — also an empty one (`…/?`,
 * `…/#`), which `URL.search` and `URL.hash` report as `''` but which would still swallow the
 * `/v1/...` path joined after it.
 */
export function hasUrlExtras(url: URL): boolean {
  return url.username !== '' || url.password !== '' || /[?#]/.test(url.href);
}

/**
 * A relay base URL in one canonical form (no trailing slash), or undefined when it is not an
 * http(s) URL or carries user info, a query or a fragment: a base URL takes a `/v1/...` path
 * after it, and credentials in it would be printed in messages.
 */
export function canonicalUrl(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    if (hasUrlExtras(url)) return undefined;
    return url.href.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

/**
 * Whether `pool` is a pool id (`[A-Za-z0-9][A-Za-z0-9._-]{0,99}`). It becomes a path segment
 * of health and stats URLs: `..` or `.` would be resolved away by URL parsing and send the
 * token to another relay path (`--pool ..` asked GET /v1/health).
 */
export function isPoolId(pool: string): boolean {
  return getPoolIdSchema().safeParse(pool).success;
}

/** The usage error of a pool that is not a pool id. */
export function invalidPoolError(): CliError {
  return new CliError('usage_error', {
    message:
      'The pool must be 1-100 of A-Z, a-z, 0-9, ".", "_", "-", starting with a letter or digit.',
  });
}

/** The usage error of a relay URL {@link canonicalUrl} refuses (the URL itself is not echoed). */
export function invalidRelayUrlError(): CliError {
  return new CliError('usage_error', {
    message: 'The relay URL must be an http(s) URL without credentials, a query or a fragment.',
  });
}

/**
 * Resolves URL, token and pool as one snapshot (SPEC.md client rule 2): an explicit nonblank
 * token variable (RELAY_TOKEN, or the one `--token-env` names) wins over the saved token; the
 * saved token is sent only to the saved URL, so overriding the URL (`--server`, RELAY_URL)
 * needs an explicit token or a new login.
 *
 * @returns the snapshot, or `not_logged_in` / `usage_error`
 */
export function resolveCallerAuth(
  env: CliEnv,
  saved: SavedLogin | undefined,
  options: CallerAuthOptions = {},
): Result<CallerAuth, CliError> {
  const tokenVariable = options.tokenEnv ?? 'RELAY_TOKEN';
  const explicitToken = nonBlank(env[tokenVariable]);
  const rawUrl = nonBlank(options.server) ?? nonBlank(env.RELAY_URL);
  const url = rawUrl === undefined ? undefined : canonicalUrl(rawUrl);
  if (rawUrl !== undefined && url === undefined) {
    return err(invalidRelayUrlError());
  }
  const pool = nonBlank(options.pool) ?? nonBlank(env.RELAY_POOL) ?? saved?.pool;
  if (pool !== undefined && !isPoolId(pool)) return err(invalidPoolError());

  if (explicitToken !== undefined && !isTokenText(explicitToken)) {
    return err(
      new CliError('not_logged_in', {
        message: `The variable ${tokenVariable} does not hold a token (visible ASCII characters only).`,
      }),
    );
  }
  if (explicitToken !== undefined) {
    const target = url ?? saved?.url;
    if (target === undefined) {
      return err(
        new CliError('not_logged_in', {
          message: 'No relay URL: pass --server, set RELAY_URL, or run `relay login`.',
        }),
      );
    }
    if (pool === undefined) {
      return err(
        new CliError('usage_error', { message: 'No pool: pass --pool or set RELAY_POOL.' }),
      );
    }
    return ok({ url: canonicalUrl(target) ?? target, token: explicitToken, pool, source: 'env' });
  }
  if (options.tokenEnv !== undefined) {
    return err(
      new CliError('not_logged_in', {
        message: `The variable ${tokenVariable} is unset or blank.`,
      }),
    );
  }
  if (saved === undefined) return err(new CliError('not_logged_in'));
  const savedUrl = canonicalUrl(saved.url) ?? saved.url;
  if (url !== undefined && url !== savedUrl) {
    return err(
      new CliError('not_logged_in', {
        message: `The saved token is only sent to ${savedUrl}; set RELAY_TOKEN or run \`relay login ${url}\`.`,
      }),
    );
  }
  return ok({ url: savedUrl, token: saved.token, pool: pool ?? saved.pool, source: 'saved' });
}
