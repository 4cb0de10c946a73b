/**
 * Where a cooldown applies (SPEC.md "Cooldown scopes: all resources, one resource bucket, or one
 * route key").
 */
export type CooldownScope =
  | { readonly kind: 'global' }
  | { readonly kind: 'bucket'; readonly bucket: string }
  | { readonly kind: 'route'; readonly routeKey: string };

/**
 * Why an identity cools down: the row of the cooldown table that applied.
 *
 * - `unauthorized`: the forge answered 401.
 * - `retry_after`: an error carried Retry-After.
 * - `secondary_limit`: a 403 with budget remaining.
 * - `rate_limited`: a 429.
 * - `failure`: any other failure class.
 * - `credential`: the credential failed locally (missing or invalid secret binding).
 */
export type CooldownCause =
  'unauthorized' | 'retry_after' | 'secondary_limit' | 'rate_limited' | 'failure' | 'credential';

/** A cooldown as a coordinator stores it. */
export interface Cooldown {
  /** The identity that cools down. */
  readonly identityId: string;
  /** Where it applies. */
  readonly scope: CooldownScope;
  /** Why (the latest cause when an observation extended it). */
  readonly cause: CooldownCause;
  /** When it ends, epoch milliseconds. */
  readonly until: number;
}

/** The part of a route a cooldown is matched against. */
export interface CooldownTarget {
  /** The route key (the lease key). */
  readonly key: string;
  /** The route's resource bucket. */
  readonly bucket: string;
}

/**
 * Whether a cooldown stops requests for a route: a global cooldown stops every request on the
 * identity, a bucket cooldown every request in that bucket, a route cooldown that route key.
 *
 * @param cooldown - the cooldown
 * @param route - the route being served
 * @param now - the current time, epoch milliseconds; an ended cooldown applies to nothing
 */
export function isCooldownApplicable(
  cooldown: Cooldown,
  route: CooldownTarget,
  now: number,
): boolean {
  if (cooldown.until <= now) return false;
  switch (cooldown.scope.kind) {
    case 'global':
      return true;
    case 'bucket':
      return cooldown.scope.bucket === route.bucket;
    case 'route':
      return cooldown.scope.routeKey === route.key;
  }
}

/**
 * A stable string naming a cooldown scope, for coordinators that key storage by scope.
 *
 * @param scope - the scope
 * @returns `*`, `bucket:<name>` or `route:<key>`
 */
export function toCooldownScopeKey(scope: CooldownScope): string {
  switch (scope.kind) {
    case 'global':
      return '*';
    case 'bucket':
      return `bucket:${scope.bucket}`;
    case 'route':
      return `route:${scope.routeKey}`;
  }
}
