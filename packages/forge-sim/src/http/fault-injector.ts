import type { SimHost } from './request-log.js';

/** What an injected fault does to a matching request. */
export type FaultAction =
  /** Answer with this status (and optional JSON body / headers) instead of the real one. */
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly body?: unknown;
      /**
       * The body's exact text, sent as JSON (`application/json`) instead of `body` serialized:
       * for answers whose bytes JSON.stringify would not write (whitespace, `1.0`, escapes).
       */
      readonly bodyText?: string;
      readonly headers?: Record<string, string>;
    }
  /** GitHub's secondary rate limit: 403 or 429 with Retry-After while primary budget remains. */
  | { readonly kind: 'secondary_limit'; readonly status?: 403 | 429; readonly retryAfterS?: number }
  /** Wait this long before answering. */
  | { readonly kind: 'latency'; readonly ms: number }
  /** Destroy the connection before any response byte. */
  | { readonly kind: 'reset' }
  /** Send the headers (with the full Content-Length) and only the first `bytes` bytes of the body, then close. */
  | { readonly kind: 'truncate'; readonly bytes?: number }
  /** Replace the body with `bytes` bytes of valid JSON padding (for response-size caps). */
  | { readonly kind: 'oversize'; readonly bytes: number }
  /** Send the body in `chunkBytes` pieces every `intervalMs`. */
  | { readonly kind: 'drip'; readonly chunkBytes?: number; readonly intervalMs: number };

/** Which requests a fault applies to; every given field must match. */
export interface FaultMatch {
  readonly host?: SimHost;
  /** Credential label (`pat-1`, `anonymous`, …) or the raw token value. */
  readonly credential?: string;
  /** Exact path. */
  readonly path?: string;
  /** Path prefix. */
  readonly pathPrefix?: string;
  readonly method?: string;
}

/** A fault to inject. */
export interface FaultSpec extends FaultMatch {
  readonly action: FaultAction;
  /** How many matching requests it applies to. Default: every one until cleared. */
  readonly times?: number;
  /**
   * The share of matching requests it applies to, from 0 to 1: each matching request draws once
   * from the injector's random source ({@link FaultInjectorOptions.random}) and the fault applies
   * when the draw is below it. A request the draw spares is tested against the next fault, and
   * counts towards neither `hits` nor `times`. Default 1: every matching request.
   */
  readonly probability?: number;
}

/** Options of {@link FaultInjector}. */
export interface FaultInjectorOptions {
  /**
   * Uniform draws in [0, 1) for faults with a `probability`. Default `Math.random`; tests pass a
   * seeded source ({@link createSeededRandom}) so that a run can be repeated.
   */
  readonly random?: () => number;
}

/** An injected fault and how often it fired. */
export interface ActiveFault {
  readonly id: number;
  readonly spec: FaultSpec;
  hits: number;
}

/** What the servers know about a request when they ask for a fault. */
export interface FaultProbe {
  readonly host: SimHost;
  readonly method: string;
  readonly path: string;
  readonly credential: string;
  readonly token: string | undefined;
}

/** Fault switches, per token, path or host. */
export class FaultInjector {
  readonly #faults: ActiveFault[] = [];
  readonly #random: () => number;
  #nextId = 1;

  /** @param options - the random source of probabilistic faults */
  constructor(options: FaultInjectorOptions = {}) {
    this.#random = options.random ?? Math.random;
  }

  /**
   * Adds a fault; returns its id (for {@link FaultInjector.clear}).
   *
   * @throws RangeError when `probability` is not a number from 0 to 1, or `times` is not a
   *   positive integer
   */
  inject(spec: FaultSpec): number {
    if (spec.probability !== undefined && !(spec.probability >= 0 && spec.probability <= 1)) {
      throw new RangeError('probability must be a number from 0 to 1');
    }
    if (spec.times !== undefined && !(Number.isInteger(spec.times) && spec.times > 0)) {
      throw new RangeError('times must be a positive integer');
    }
    const id = this.#nextId++;
    this.#faults.push({ id, spec, hits: 0 });
    return id;
  }

  /** Removes one fault, or every fault when no id is given. */
  clear(id?: number): void {
    if (id === undefined) {
      this.#faults.length = 0;
      return;
    }
    const i = this.#faults.findIndex((f) => f.id === id);
    if (i >= 0) this.#faults.splice(i, 1);
  }

  /** The active faults. */
  get active(): readonly ActiveFault[] {
    return this.#faults;
  }

  /**
   * The first fault matching a request whose probability draw (if it has one) selects it; its use
   * is counted and exhausted faults are removed.
   */
  take(probe: FaultProbe): FaultAction | undefined {
    const fault = this.#faults.find((f) => matches(f.spec, probe) && this.#draw(f.spec));
    if (!fault) return undefined;
    fault.hits += 1;
    if (fault.spec.times !== undefined && fault.hits >= fault.spec.times) this.clear(fault.id);
    return fault.spec.action;
  }

  /** Whether a matching fault applies to this request: always, or by one random draw. */
  #draw(spec: FaultSpec): boolean {
    const { probability } = spec;
    if (probability === undefined || probability >= 1) return true;
    return this.#random() < probability;
  }
}

/**
 * A seeded source of uniform draws in [0, 1) (mulberry32): the same seed gives the same
 * sequence, so a run with probabilistic faults can be repeated.
 *
 * @param seed - any integer (taken modulo 2^32)
 * @example
 * const sim = await createForgeSim({ random: createSeededRandom(42) });
 * sim.faults.inject({ host: 'api', probability: 0.2, action: { kind: 'status', status: 502 } });
 */
export function createSeededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function matches(spec: FaultMatch, probe: FaultProbe): boolean {
  return (
    (spec.host === undefined || spec.host === probe.host) &&
    (spec.method === undefined || spec.method.toUpperCase() === probe.method) &&
    (spec.path === undefined || spec.path === probe.path) &&
    (spec.pathPrefix === undefined || probe.path.startsWith(spec.pathPrefix)) &&
    (spec.credential === undefined ||
      spec.credential === probe.credential ||
      spec.credential === probe.token)
  );
}
