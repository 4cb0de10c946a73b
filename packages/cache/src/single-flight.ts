/** The result of {@link SingleFlight.run}: the value, and whether it came from another caller's fetch. */
export interface FlightResult<T> {
  readonly value: T;
  /** True when this call joined a fetch already in flight (a coalesced duplicate). */
  readonly shared: boolean;
}

/** Coalesces concurrent misses for one key into one upstream fetch. */
export interface SingleFlight<T> {
  /**
   * Runs `fetch` for `key`, unless a fetch for `key` is already in flight, in which case the call
   * waits for that one and shares its value or its rejection.
   */
  run(key: string, fetch: () => Promise<T>): Promise<FlightResult<T>>;
  /** How many calls joined a fetch already in flight, since creation. */
  coalescedCount(): number;
  /** How many fetches are in flight now. */
  inFlightCount(): number;
  /**
   * True when the group spans processes (a shared coordinator such as Redis): the first call for
   * a key may start a fetch just after another process's identical fetch ended and stored its
   * result, so a caller should look for that result (re-read its cache) before fetching.
   * Undefined or false for a group within one process, where a fetch ends only after its result
   * is stored and no call can fall between the two.
   */
  readonly spansProcesses?: boolean;
}

/**
 * Creates a single-flight group. A key is in flight from the first call until its fetch settles;
 * the next call after that starts a new fetch. Rejections are shared as well and never cached.
 *
 * @returns a new, empty group.
 *
 * @example
 * ```ts
 * const flights = createSingleFlight<UpstreamAnswer>();
 * const { value, shared } = await flights.run(key, () => fetchUpstream(request));
 * ```
 */
export function createSingleFlight<T>(): SingleFlight<T> {
  const inFlight = new Map<string, Promise<T>>();
  let coalesced = 0;
  return {
    async run(key, fetch) {
      const pending = inFlight.get(key);
      if (pending !== undefined) {
        coalesced++;
        return { value: await pending, shared: true };
      }
      const started = (async () => fetch())();
      inFlight.set(key, started);
      try {
        return { value: await started, shared: false };
      } finally {
        inFlight.delete(key);
      }
    },
    coalescedCount: () => coalesced,
    inFlightCount: () => inFlight.size,
  };
}
