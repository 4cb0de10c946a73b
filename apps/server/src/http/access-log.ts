import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from '../app-env.js';

/**
 * One structured log line per request. It names the route pattern (`/v1/pools/:pool/stats`),
 * never the path's values, the query, a header or a body.
 */
export interface AccessLogEntry {
  readonly level: 'info' | 'warn' | 'error';
  readonly msg: 'request';
  readonly request_id: string;
  readonly method: string;
  readonly route: string;
  readonly status: number;
  readonly duration_ms: number;
}

/**
 * Middleware writing one {@link AccessLogEntry} per request.
 *
 * @param log - the sink (main.ts prints JSON lines)
 * @param now - the clock, milliseconds (a monotonic one in production)
 */
export function createAccessLog(
  log: (entry: AccessLogEntry) => void,
  now: () => number,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = now();
    await next();
    const status = c.res.status;
    let route: string;
    try {
      route = routePath(c, -1);
    } catch {
      route = '*';
    }
    if (route === '/*' || route === '*') route = '(unmatched)';
    log({
      level: status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info',
      msg: 'request',
      request_id: c.get('requestId'),
      method: c.req.method,
      route,
      status,
      duration_ms: Math.max(0, Math.round((now() - started) * 1000) / 1000),
    });
  };
}

/** A writer of log lines that batches them into one write per tick. */
export interface BufferedLineWriter {
  /** Queues one line (without its newline); written at the next flush. */
  writeLine(line: string): void;
  /** Writes every queued line now, in one write. */
  flush(): void;
}

/** Options of {@link createBufferedLineWriter}. */
export interface BufferedLineWriterOptions {
  /** Runs the flush later. Default `setImmediate` (after the tick's I/O callbacks). */
  readonly schedule?: (flush: () => void) => void;
  /** Flushes at once when this many characters are queued. Default 64 Ki. */
  readonly maxBufferedChars?: number;
}

/**
 * Batches log lines: `writeLine` only appends to a string and schedules one flush, which hands
 * every line queued meanwhile to `write` in one call (one syscall on `process.stdout` instead of
 * one `console.log` per request). The response never waits for the write; lines keep their
 * order and each stays one JSON line. Call `flush()` before exiting.
 *
 * @param write - the sink of a chunk of whole lines (for example `process.stdout.write`)
 * @param options - scheduler and size bound
 */
export function createBufferedLineWriter(
  write: (chunk: string) => void,
  options: BufferedLineWriterOptions = {},
): BufferedLineWriter {
  const schedule = options.schedule ?? ((flush: () => void) => setImmediate(flush));
  const maxBufferedChars = options.maxBufferedChars ?? 65_536;
  let buffer = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (buffer === '') return;
    const chunk = buffer;
    buffer = '';
    write(chunk);
  };
  return {
    writeLine(line) {
      buffer += `${line}\n`;
      if (buffer.length >= maxBufferedChars) {
        flush();
      } else if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
  };
}
