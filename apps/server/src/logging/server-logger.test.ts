import { describe, expect, it } from 'vitest';
import { createServerLogger, logRequest, toLogSinks } from './server-logger.js';

function capture(level: Parameters<typeof createServerLogger>[0]['level']) {
  const lines: string[] = [];
  const logger = createServerLogger({
    level,
    destination: { write: (line: string) => lines.push(line) },
    now: () => Date.UTC(2030, 0, 1),
  });
  return {
    logger,
    lines,
    parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const ENTRY = {
  level: 'info',
  msg: 'request',
  request_id: 'req_1',
  method: 'GET',
  route: '/.well-known/relay',
  status: 200,
  duration_ms: 1.5,
  upstream_requests: 0,
} as const;

describe('createServerLogger', () => {
  it('writes one JSON object per line: level name, ISO time, fields, msg; no pid or hostname', () => {
    const { logger, lines, parsed } = capture('info');
    logRequest(logger, ENTRY);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.endsWith('\n')).toBe(true);
    expect(lines[0]?.trimEnd().includes('\n')).toBe(false);
    expect(parsed()[0]).toEqual({
      level: 'info',
      time: '2030-01-01T00:00:00.000Z',
      request_id: 'req_1',
      method: 'GET',
      route: '/.well-known/relay',
      status: 200,
      duration_ms: 1.5,
      upstream_requests: 0,
      msg: 'request',
    });
  });

  it.each([
    ['trace', ['debug', 'info', 'warn', 'error']],
    ['info', ['info', 'warn', 'error']],
    ['warn', ['warn', 'error']],
    ['error', ['error']],
    ['silent', []],
  ] as const)('at level %s writes %j', (level, written) => {
    const { logger, parsed } = capture(level);
    logger.debug('d');
    logRequest(logger, ENTRY);
    logRequest(logger, { ...ENTRY, level: 'warn', status: 404 });
    logRequest(logger, { ...ENTRY, level: 'error', status: 500 });
    expect(parsed().map((l) => l.level)).toEqual(written);
  });

  it('redacts credential-named fields, whoever logs them', () => {
    const { logger, lines } = capture('info');
    logger.info(
      { authorization: 'Bearer rly_secret', token: 'rly_other', headers: { authorization: 'x' } },
      'careless',
    );
    expect(lines.join('')).not.toContain('rly_');
    expect(lines.join('')).toContain('[redacted]');
  });
});

describe('toLogSinks', () => {
  it('logs an unexpected error by class name only, and a background problem by code', () => {
    const { logger, parsed } = capture('info');
    const sinks = toLogSinks(logger);
    sinks.onUnexpectedError(new TypeError('secret-in-message'), 'req_9');
    sinks.onBackgroundProblem({
      code: 'audit_batch_failed',
      rows: 3,
      cause: new Error('sql text'),
    });
    const lines = parsed();
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'error',
        msg: 'unexpected',
        error: 'TypeError',
        request_id: 'req_9',
      }),
      expect.objectContaining({
        level: 'error',
        msg: 'audit_batch_failed',
        code: 'audit_batch_failed',
        rows: 3,
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('secret-in-message');
    expect(JSON.stringify(lines)).not.toContain('sql text');
  });
});
