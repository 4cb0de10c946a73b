/**
 * SQLSTATE codes, and the classes of them, that mean the database cannot be reached or is not
 * accepting work now (rather than that the statement was wrong): class 08 (connection
 * exception), 53300 (too many connections), 57P01-57P03 (shutdown, crash, cannot connect now).
 */
const UNAVAILABLE_SQLSTATES = new Set(['53300', '57P01', '57P02', '57P03']);

/** Node socket errors of a connection that could not be made or was lost. */
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Messages of node-postgres's own connection failures (it sets no code on them). */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
  // query_timeout: the server stopped answering (a partition) within the statement's time.
  'Query read timeout',
];

function field(error: object, name: string): unknown {
  return name in error ? (error as Record<string, unknown>)[name] : undefined;
}

/**
 * Whether `error` says that the database server is unreachable or not accepting work (a lost
 * or refused connection, a server shutting down or starting, a full connection table), as
 * opposed to a failed statement. Looks through `cause` chains and aggregate errors. Such a
 * failure is answered 503 `relay_overloaded` (424 `fallback_local` with that reason on the relay
 * endpoint), never an untyped 500; the pool reconnects by itself once the server is back.
 *
 * @param error - anything thrown by a store
 */
export function isDatabaseUnavailableError(error: unknown, depth = 0): boolean {
  if (depth > 8 || typeof error !== 'object' || error === null) return false;
  const code = field(error, 'code');
  if (typeof code === 'string') {
    if (code.startsWith('08') && code.length === 5) return true;
    if (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_ERRNOS.has(code)) return true;
  }
  const message = field(error, 'message');
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) {
    return true;
  }
  const errors = field(error, 'errors');
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailableError(e, depth + 1))) {
    return true;
  }
  return isDatabaseUnavailableError(field(error, 'cause'), depth + 1);
}
