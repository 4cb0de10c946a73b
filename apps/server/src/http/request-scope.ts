import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditRecord } from '../audit/audit-record.js';

/**
 * What one request gathers on its way for its log line and its metrics: facts only (ids, codes,
 * counts), never a token, a path or query value, a body or a pattern.
 */
export interface RequestTrace {
  /** Upstream requests sent on behalf of this request (the relay's lanes, login, provisioning). */
  upstreamRequests: number;
  /** The audit row of a relay request that passed the audit boundary. */
  audit: AuditRecord | undefined;
  /** The authenticated caller, when known before the audit row. */
  callerId: string | undefined;
  /** The catalogue code of an error answer (`fallback_local` for a 424). */
  errorCode: string | undefined;
  /** The reason of a 424 `fallback_local`. */
  reason: string | undefined;
}

/**
 * The request a piece of work runs for: code deep in the request path (the audit sink, the forge
 * transport) adds to the current request's {@link RequestTrace} without being handed it.
 */
export interface RequestScope {
  /** Runs `fn` (a request's handling) with `trace` as the current trace. */
  run<T>(trace: RequestTrace, fn: () => T): T;
  /** The trace of the request the caller runs for; undefined outside any request. */
  current(): RequestTrace | undefined;
}

/** A fresh, empty {@link RequestTrace}. */
export function createRequestTrace(): RequestTrace {
  return {
    upstreamRequests: 0,
    audit: undefined,
    callerId: undefined,
    errorCode: undefined,
    reason: undefined,
  };
}

/**
 * Creates a request scope over an `AsyncLocalStorage` of its own (one per app: no module-level
 * state). Work started for a request, awaited or not, sees its trace; a coalesced duplicate of a
 * miss in flight does not see the upstream requests of the call it shares (they run in the first
 * request's scope).
 */
export function createRequestScope(): RequestScope {
  const storage = new AsyncLocalStorage<RequestTrace>();
  return {
    run: (trace, fn) => storage.run(trace, fn),
    current: () => storage.getStore(),
  };
}
