import type { ForgeResponse } from '@relay/forge-transport';

/**
 * The ETags pooled identities received for repository metadata probes (`GET /repos/{o}/{r}`),
 * per probe path and identity: the forge salts ETags per credential, so a conditional probe is
 * only worth sending from the identity that received the ETag, and an authenticated 304 costs
 * no quota. Only a hint for which identity to ask: what a 304 proves is decided by the
 * visibility guard, which accepts it only for an ETag it saw on an answer that said public.
 */
export interface ProbeValidators {
  /** Whether some identity holds an ETag for `path`. */
  has(path: string): boolean;
  /** The identities holding an ETag for `path`. */
  holders(path: string): ReadonlySet<string>;
  /** The `If-None-Match` header of `identityId` for `path`, if it holds an ETag. */
  conditionalHeaders(path: string, identityId: string): Readonly<Record<string, string>>;
  /** Records the ETag of a 200 (or a renewed one of a 304) that `identityId` received for `path`. */
  record(path: string, identityId: string, response: ForgeResponse): void;
}

/** Repositories remembered at most (oldest dropped first). */
export const MAX_PROBE_VALIDATOR_PATHS = 10_000;

/**
 * Creates the per-process memory of probe ETags.
 *
 * @param maxPaths - repositories remembered at most (default {@link MAX_PROBE_VALIDATOR_PATHS})
 */
export function createProbeValidators(maxPaths = MAX_PROBE_VALIDATOR_PATHS): ProbeValidators {
  const etags = new Map<string, Map<string, string>>();
  const none: ReadonlySet<string> = new Set();
  return {
    has: (path) => etags.has(path),
    holders: (path) => new Set(etags.get(path)?.keys() ?? none),
    conditionalHeaders(path, identityId) {
      const etag = etags.get(path)?.get(identityId);
      return etag === undefined ? {} : { 'if-none-match': etag };
    },
    record(path, identityId, response) {
      const etag = response.headers.etag;
      if ((response.status !== 200 && response.status !== 304) || etag === undefined) return;
      let byIdentity = etags.get(path);
      if (byIdentity === undefined) {
        if (etags.size >= maxPaths) {
          const oldest = etags.keys().next();
          if (oldest.done !== true) etags.delete(oldest.value);
        }
        byIdentity = new Map();
        etags.set(path, byIdentity);
      }
      byIdentity.set(identityId, etag);
    },
  };
}
