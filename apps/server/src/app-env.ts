/** The Hono environment of the relay app: per-request variables. */
export interface AppEnv {
  Variables: {
    /** The id of this request, also sent as `x-relay-request-id`. */
    requestId: string;
  };
}
