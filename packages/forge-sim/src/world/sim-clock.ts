/**
 * The simulator's notion of time. Every time-dependent behaviour (rate-limit reset
 * windows, installation-token expiry, signed log URLs, stats computation, timestamps of
 * seeded entities) reads it, so tests move time instead of sleeping.
 */
export interface SimClock {
  /** Current time in epoch milliseconds. */
  now(): number;
  /** Moves time forward by `ms` milliseconds (never backward). */
  advance(ms: number): void;
  /** Sets the current time to `epochMs`. */
  set(epochMs: number): void;
}

/** Options of {@link createSimClock}. */
export interface SimClockOptions {
  /**
   * Where time starts, in epoch ms. With `frozen` (the default when `start` is given) the
   * clock only moves when told to; otherwise it follows `source` plus any offset.
   */
  readonly start?: number;
  /** When true, time never moves on its own. Default: true when `start` is given. */
  readonly frozen?: boolean;
  /** Wall-clock source for an unfrozen clock. Default: `Date.now`. */
  readonly source?: () => number;
}

/**
 * Creates a controllable clock: frozen at `start` for tests, or following the wall
 * clock (plus whatever `advance` added) for the demo.
 *
 * @example
 * const clock = createSimClock({ start: Date.parse('2026-01-01T00:00:00Z') });
 * clock.advance(60_000);
 */
export function createSimClock(options: SimClockOptions = {}): SimClock {
  const source = options.source ?? (() => Date.now());
  const frozen = options.frozen ?? options.start !== undefined;
  let base = options.start ?? source();
  const origin = source();
  return {
    now: () => (frozen ? base : base + (source() - origin)),
    advance: (ms) => {
      if (ms < 0) throw new RangeError('the clock only moves forward');
      base += ms;
    },
    set: (epochMs) => {
      base = frozen ? epochMs : epochMs - (source() - origin);
    },
  };
}

/** Formats epoch ms as GitHub does in JSON bodies: ISO 8601 UTC without milliseconds. */
export function toIsoSeconds(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Formats epoch ms as an HTTP date (Last-Modified, Date). */
export function toHttpDate(epochMs: number): string {
  return new Date(epochMs).toUTCString();
}
