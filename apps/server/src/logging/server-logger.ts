import { pino, type DestinationStream, type Logger } from 'pino';
import type { AccessLogEntry } from '../http/access-log.js';
import type { LogLevel } from '../server-config.js';
import type { StartServerOptions } from '../start-server.js';

/** The structured logger of relay-server (pino): JSON lines, one per call. */
export type ServerLogger = Logger;

/** Options of {@link createServerLogger}. */
export interface ServerLoggerOptions {
  /** The least severe level written (RELAY_LOG_LEVEL); `silent` writes nothing. */
  readonly level: LogLevel;
  /**
   * Where lines go. Default: stdout through pino's asynchronous destination (lines written
   * meanwhile are joined into one write; flushed when the process exits).
   */
  readonly destination?: DestinationStream;
  /** The clock of the `time` field, epoch milliseconds. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * Field names that must never carry a value into a line, whoever logs them: pino replaces their
 * values with `[redacted]`. Nothing logs them today; this is the net under a future mistake.
 */
const REDACTED_PATHS = [
  'authorization',
  'token',
  'forge_token',
  'secret',
  'password',
  'headers.authorization',
  'headers.cookie',
];

/**
 * Creates the server's logger: one JSON object per line with `level` (as a name), `time` (ISO
 * 8601 UTC), the bound and call fields, and `msg`. No pid or hostname.
 *
 * @param options - level, destination and clock
 * @example
 * ```ts
 * const logger = createServerLogger({ level: config.logLevel });
 * logger.info({ url }, `relay-server listening on ${url}`);
 * ```
 */
export function createServerLogger(options: ServerLoggerOptions): ServerLogger {
  const now = options.now ?? Date.now;
  return pino(
    {
      level: options.level,
      base: null,
      timestamp: () => `,"time":"${new Date(now()).toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/**
 * Writes one access-log entry at its level, with `msg` `request` and its fields.
 *
 * @param logger - the server's logger
 * @param entry - the entry of one request
 */
export function logRequest(logger: ServerLogger, entry: AccessLogEntry): void {
  const { level, msg, ...fields } = entry;
  logger[level](fields, msg);
}

/**
 * The sinks of {@link StartServerOptions} written to `logger`: one `request` line per request at
 * its level; unexpected failures (`unexpected`, with the error's class name and the request id:
 * never its message, which may quote input); background problems (their code, and a row count).
 *
 * @param logger - the server's logger
 */
export function toLogSinks(
  logger: ServerLogger,
): Required<Pick<StartServerOptions, 'onLog' | 'onUnexpectedError' | 'onBackgroundProblem'>> {
  return {
    onLog: (entry) => {
      logRequest(logger, entry);
    },
    onUnexpectedError: (error, requestId) => {
      const name = error instanceof Error ? error.name : 'unknown';
      logger.error({ error: name, request_id: requestId }, 'unexpected');
    },
    onBackgroundProblem: (problem) => {
      logger.error(
        { code: problem.code, ...('rows' in problem ? { rows: problem.rows } : {}) },
        problem.code,
      );
    },
  };
}
