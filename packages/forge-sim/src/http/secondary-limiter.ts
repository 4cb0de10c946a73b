/**
 * GitHub's secondary rate limits for REST as the simulator enforces them, per credential: no more
 * than `maxConcurrent` requests at once and no more than `pointsPerMinute` points in any sliding
 * 60 s window (every GET or HEAD is one point). GitHub's third limit (CPU time) is not modelled.
 */
export interface SecondaryLimits {
  /** Requests in flight at once per credential. GitHub: 100. */
  readonly maxConcurrent: number;
  /** Points per sliding minute per credential. GitHub: 900. */
  readonly pointsPerMinute: number;
  /** The `Retry-After` of a refusal, seconds. Default 60. */
  readonly retryAfterS?: number;
}

/** GitHub's documented secondary limits for REST (concurrency and points per minute). */
export const GITHUB_SECONDARY_LIMITS: SecondaryLimits = {
  maxConcurrent: 100,
  pointsPerMinute: 900,
  retryAfterS: 60,
};

const WINDOW_MS = 60_000;

/**
 * Counts, per credential, the requests in flight and the points of the last 60 s. A refused
 * request spends no point and takes no slot (GitHub's secondary-limit answer is cheap).
 */
export class SecondaryLimiter {
  readonly #limits: SecondaryLimits;
  readonly #now: () => number;
  readonly #points = new Map<string, number[]>();
  readonly #inFlight = new Map<string, number>();
  #refusals = 0;

  constructor(now: () => number, limits: SecondaryLimits = GITHUB_SECONDARY_LIMITS) {
    this.#now = now;
    this.#limits = limits;
  }

  /** The `Retry-After` of a refusal, seconds. */
  get retryAfterS(): number {
    return this.#limits.retryAfterS ?? 60;
  }

  /** Secondary-limit answers given so far. */
  get refusals(): number {
    return this.#refusals;
  }

  /**
   * Admits a request of `credential` (spending a point and a slot), or refuses it.
   *
   * @returns `true` when admitted (call {@link SecondaryLimiter.leave} when answered)
   */
  enter(credential: string): boolean {
    const now = this.#now();
    const points = (this.#points.get(credential) ?? []).filter((t) => t > now - WINDOW_MS);
    const inFlight = this.#inFlight.get(credential) ?? 0;
    if (points.length >= this.#limits.pointsPerMinute || inFlight >= this.#limits.maxConcurrent) {
      this.#points.set(credential, points);
      this.#refusals += 1;
      return false;
    }
    points.push(now);
    this.#points.set(credential, points);
    this.#inFlight.set(credential, inFlight + 1);
    return true;
  }

  /** Ends an admitted request of `credential`. */
  leave(credential: string): void {
    const inFlight = (this.#inFlight.get(credential) ?? 1) - 1;
    if (inFlight <= 0) this.#inFlight.delete(credential);
    else this.#inFlight.set(credential, inFlight);
  }
}
