import type { RequestTrace } from './http/request-scope.js';

/** The authenticated caller of a request on a caller surface. */
export interface AuthenticatedCaller {
  readonly callerId: string;
  readonly clientId: string;
  readonly clientName: string;
  readonly login: string;
}

/** The Hono environment of the relay app: per-request variables. */
export interface AppEnv {
  Variables: {
    /** The id of this request, also sent as `x-relay-request-id`. */
    requestId: string;
    /** The caller, on caller surfaces after authentication. */
    caller: AuthenticatedCaller;
    /** The cap on request bodies, bytes (RELAY_MAX_REQUEST_BYTES); `readJsonBody`'s default. */
    maxRequestBytes: number;
    /**
     * What the request gathers for its log line and metrics (error code, caller, upstream
     * count); set by the request observer, undefined in an app without one.
     */
    trace: RequestTrace | undefined;
  };
}
