/**
 * The pace of one upstream sender (a pooled identity, or a token-free source such as the
 * relay's anonymous address): at most `maxInFlight` requests at once and `pointsPerMinute`
 * points in any sliding 60 s window. A GET is one point (GitHub's secondary-limit rule); the
 * relay sends only reads, so every request is one point.
 */
export interface PaceLimits {
  /** Requests in flight at once. */
  readonly maxInFlight: number;
  /** Points in any 60 s window. */
  readonly pointsPerMinute: number;
}

/** The sliding window the points are counted in: GitHub's secondary limits use one minute. */
export const PACE_WINDOW_MS = 60_000;
/** How long a halved pace takes to recover fully (linearly): about ten minutes. */
export const PACE_RECOVERY_MS = 600_000;
/** The lowest the adaptive factor goes after repeated secondary-limit answers. */
export const MIN_PACE_FACTOR = 1 / 16;

/**
 * The answer of {@link PaceLedger.tryTake}: admitted (a point is spent and a slot taken), or not,
 * with the earliest time a point frees (`undefined` when only a release frees a slot).
 */
export type PaceAdmission =
  | { readonly ok: true; readonly slot?: string }
  | { readonly ok: false; readonly retryAt: number | undefined };

/**
 * Thrown (or rejected) by a networked {@link PaceLedger} that cannot reach its store: the governor
 * then refuses the request (424 `relay_overloaded`, nothing sent) rather than send unpaced.
 */
export class PaceLedgerUnavailableError extends Error {
  readonly code = 'pace_ledger_unavailable';
  constructor() {
    super('pace ledger unavailable');
    this.name = 'PaceLedgerUnavailableError';
  }
}

/** What {@link PaceLedger.penalize} and {@link PaceLedger.inspect} report of a key's pace. */
export interface PaceStanding {
  /** The adaptive factor now: 1 at full pace, 0.5 right after a secondary-limit answer. */
  readonly factor: number;
  /** The limits in force now (the configured ones scaled by `factor`, at least 1). */
  readonly limits: PaceLimits;
  /** Points spent in the last 60 s. */
  readonly pointsInWindow: number;
  /** Requests in flight. */
  readonly inFlight: number;
}

/**
 * The shared state of the governor's pacing, per key. The in-process implementation is
 * {@link createMemoryPaceLedger}; a networked one (Redis, so that several relay replicas share
 * each identity's window and in-flight count — issue 27 item 6) implements the same interface:
 * every method may return a promise, and every method takes the time from its caller so that the
 * ledger itself keeps no clock. A networked ledger that cannot reach its store rejects with
 * {@link PaceLedgerUnavailableError}. Both implementations run the same tests
 * (pace-ledger.test.ts).
 */
export interface PaceLedger {
  /**
   * Spends one point and takes one in-flight slot of `key`, when both are free under `limits`. A
   * networked ledger names the slot it took (`slot`), to be handed back to {@link release}.
   */
  tryTake(key: string, limits: PaceLimits, now: number): PaceAdmission | Promise<PaceAdmission>;
  /** Gives back an in-flight slot (the point stays spent for its 60 s). */
  release(key: string, now: number, slot?: string): void | Promise<void>;
  /**
   * Halves the key's adaptive factor (from its value now), after a secondary-limit answer; it then
   * recovers linearly to 1 over {@link PACE_RECOVERY_MS}.
   */
  penalize(key: string, now: number): number | Promise<number>;
  /** The key's adaptive factor, points and in-flight count now. */
  inspect(key: string, limits: PaceLimits, now: number): PaceStanding | Promise<PaceStanding>;
}

/** The in-process {@link PaceLedger}: every method answers synchronously. */
export interface MemoryPaceLedger extends PaceLedger {
  tryTake(key: string, limits: PaceLimits, now: number): PaceAdmission;
  release(key: string, now: number): void;
  penalize(key: string, now: number): number;
  inspect(key: string, limits: PaceLimits, now: number): PaceStanding;
}

interface KeyState {
  /** Admission times of the points of the window, oldest first. */
  starts: number[];
  inFlight: number;
  /** The factor right after the last penalty, and when it was applied. */
  penaltyFactor: number;
  penalizedAt: number | undefined;
}

/**
 * The adaptive factor at `now` after a penalty to `penaltyFactor` at `penalizedAt`: it climbs
 * linearly from `penaltyFactor` to 1 over {@link PACE_RECOVERY_MS} (a halved pace is back after
 * about ten minutes; a quartered one climbs at the same slope and takes longer).
 *
 * @param penaltyFactor - the factor right after the penalty
 * @param penalizedAt - when the penalty was applied, epoch ms (`undefined`: never)
 * @param now - the current time, epoch ms
 */
export function toPaceFactor(
  penaltyFactor: number,
  penalizedAt: number | undefined,
  now: number,
): number {
  if (penalizedAt === undefined) return 1;
  const recovered = (Math.max(0, now - penalizedAt) / PACE_RECOVERY_MS) * 0.5;
  return Math.min(1, penaltyFactor + recovered);
}

/**
 * The limits in force at `factor`: each scaled down and rounded down, never below 1.
 *
 * @param limits - the configured limits
 * @param factor - the adaptive factor
 */
export function scalePaceLimits(limits: PaceLimits, factor: number): PaceLimits {
  return {
    maxInFlight: Math.max(1, Math.floor(limits.maxInFlight * factor)),
    pointsPerMinute: Math.max(1, Math.floor(limits.pointsPerMinute * factor)),
  };
}

/**
 * Creates the in-process pace ledger: per key, the admission times of the last 60 s, the
 * in-flight count and the adaptive factor. A point admitted at `t` counts in every window that
 * holds `t` and ends before `t + 60 s`: a new point is admitted at `now` only while fewer than
 * `pointsPerMinute` were admitted in `(now - 60 s, now]`, so no 60 s window ever holds more.
 * Idle keys (no point in the window, nothing in flight, full pace) are forgotten.
 */
export function createMemoryPaceLedger(): MemoryPaceLedger {
  const keys = new Map<string, KeyState>();

  function stateOf(key: string, now: number): KeyState {
    let state = keys.get(key);
    if (state === undefined) {
      state = { starts: [], inFlight: 0, penaltyFactor: 1, penalizedAt: undefined };
      keys.set(key, state);
    }
    const horizon = now - PACE_WINDOW_MS;
    let expired = 0;
    while (expired < state.starts.length && (state.starts[expired] ?? 0) <= horizon) expired++;
    if (expired > 0) state.starts.splice(0, expired);
    if (
      state.penalizedAt !== undefined &&
      toPaceFactor(state.penaltyFactor, state.penalizedAt, now) >= 1
    ) {
      state.penalizedAt = undefined;
      state.penaltyFactor = 1;
    }
    return state;
  }

  function forgetIfIdle(key: string, state: KeyState): void {
    if (state.starts.length === 0 && state.inFlight === 0 && state.penalizedAt === undefined) {
      keys.delete(key);
    }
  }

  return {
    tryTake(key, limits, now) {
      const state = stateOf(key, now);
      const factor = toPaceFactor(state.penaltyFactor, state.penalizedAt, now);
      const pace = scalePaceLimits(limits, factor);
      if (state.starts.length >= pace.pointsPerMinute) {
        const oldest = state.starts[state.starts.length - pace.pointsPerMinute] ?? now;
        return { ok: false, retryAt: oldest + PACE_WINDOW_MS };
      }
      if (state.inFlight >= pace.maxInFlight) return { ok: false, retryAt: undefined };
      state.starts.push(now);
      state.inFlight += 1;
      return { ok: true };
    },
    release(key, now) {
      const state = stateOf(key, now);
      state.inFlight = Math.max(0, state.inFlight - 1);
      forgetIfIdle(key, state);
    },
    penalize(key, now) {
      const state = stateOf(key, now);
      const factor = toPaceFactor(state.penaltyFactor, state.penalizedAt, now);
      state.penaltyFactor = Math.max(MIN_PACE_FACTOR, factor / 2);
      state.penalizedAt = now;
      return state.penaltyFactor;
    },
    inspect(key, limits, now) {
      const state = stateOf(key, now);
      const factor = toPaceFactor(state.penaltyFactor, state.penalizedAt, now);
      const standing = {
        factor,
        limits: scalePaceLimits(limits, factor),
        pointsInWindow: state.starts.length,
        inFlight: state.inFlight,
      };
      forgetIfIdle(key, state);
      return standing;
    },
  };
}
