import { err, ok, type Result } from '@relay/protocol';

/** Where the relay keeps its durable state. */
export type DatabaseLocation =
  | { readonly dialect: 'sqlite'; readonly path: string }
  | { readonly dialect: 'postgres'; readonly url: string };

/** Why a database URL is unusable (the URL itself is never repeated). */
export interface DatabaseLocationError {
  readonly code: 'invalid_database_url';
  readonly expected: string;
}

/** What RELAY_DATABASE_URL may hold. */
export const DATABASE_URL_EXPECTED =
  'postgres://user[:password]@host[:port]/database, postgresql://…, or sqlite:<file> (sqlite::memory: allowed)';

/**
 * Reads a database URL: `sqlite:<path>` (`sqlite:relay.db`, `sqlite:/var/lib/relay/relay.db`,
 * `sqlite::memory:`) selects the embedded SQLite file; `postgres://` or `postgresql://` with a
 * host and a database name selects PostgreSQL (the URL is kept whole for the driver: query
 * parameters such as `sslmode` pass through).
 *
 * @param raw - the URL
 */
export function parseDatabaseUrl(raw: string): Result<DatabaseLocation, DatabaseLocationError> {
  const fail = () =>
    err<DatabaseLocationError>({ code: 'invalid_database_url', expected: DATABASE_URL_EXPECTED });
  const value = raw.trim();
  if (/^sqlite:/i.test(value)) {
    const path = value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    return path === '' ? fail() : ok({ dialect: 'sqlite', path });
  }
  if (!/^postgres(ql)?:\/\//i.test(value)) return fail();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail();
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (url.hostname === '' || database === '' || database.includes('/') || url.hash !== '') {
    return fail();
  }
  return ok({ dialect: 'postgres', url: value });
}

/**
 * A database location as it may be logged: PostgreSQL URLs without their password (and with no
 * query, which may carry one), SQLite paths as they are.
 *
 * @param location - the location
 */
export function describeDatabaseLocation(location: DatabaseLocation): string {
  if (location.dialect === 'sqlite') return `sqlite:${location.path}`;
  const url = new URL(location.url);
  const user = url.username === '' ? '' : `${url.username}${url.password === '' ? '' : ':***'}@`;
  return `${url.protocol}//${user}${url.host}${url.pathname}`;
}
