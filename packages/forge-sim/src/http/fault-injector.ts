import type { SimHost } from './request-log.js';

/** What an injected fault does to a matching request. */
export type FaultAction =
  /** Answer with this status (and optional JSON body / headers) instead of the real one. */
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly body?: unknown;
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
  #nextId = 1;

  /** Adds a fault; returns its id (for {@link FaultInjector.clear}). */
  inject(spec: FaultSpec): number {
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

  /** The first fault matching a request (its use is counted; exhausted faults are removed). */
  take(probe: FaultProbe): FaultAction | undefined {
    const fault = this.#faults.find((f) => matches(f.spec, probe));
    if (!fault) return undefined;
    fault.hits += 1;
    if (fault.spec.times !== undefined && fault.hits >= fault.spec.times) this.clear(fault.id);
    return fault.spec.action;
  }
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
