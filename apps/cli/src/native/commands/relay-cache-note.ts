import type { RelayEnvelope } from '@relay/protocol';

/** The variables that shape the cache note (SPEC.md client rule 8). */
export interface CacheNoteOptions {
  /** RELAY_FRESH=1: every read asked for `max-age=0`, so a plain hit stays quiet. */
  readonly fresh: boolean;
  /** RELAY_QUIET_CACHE=1: no note at all. */
  readonly quiet: boolean;
}

/** Reads {@link CacheNoteOptions} from the environment (exact value `1` only). */
export function cacheNoteOptions(
  env: Readonly<Record<string, string | undefined>>,
): CacheNoteOptions {
  return { fresh: env.RELAY_FRESH === '1', quiet: env.RELAY_QUIET_CACHE === '1' };
}

/**
 * The one stderr line of SPEC.md client rule 8 for a PR/issue/run/checks command whose reads
 * were served from the relay cache: the route and `hit` or `stale`, with the refresh time the
 * envelope carries — a stale answer names when its entry expired (`relay.cache_expires_at`)
 * and why (`relay.stale_reason`) and warns that it is unsafe for live decisions; a hit has no
 * refresh time in the envelope and says how to force one. A stale read wins over a hit; `''` when nothing was cached (or
 * the note is silenced).
 *
 * @param envelopes - the command's relay answers, in read order
 * @param routes - the route kinds the note covers (`issue_view`, …)
 */
export function formatCacheNote(
  envelopes: readonly RelayEnvelope[],
  routes: readonly string[],
  options: CacheNoteOptions,
): string {
  if (options.quiet) return '';
  const covered = envelopes.filter((envelope) => routes.includes(envelope.relay.route_kind));
  const stale = covered.find((envelope) => envelope.relay.cache === 'stale');
  if (stale !== undefined) {
    const { route_kind: route, cache_expires_at: expired, stale_reason: reason } = stale.relay;
    return `relay: ${route} served stale from the relay cache (expired ${expired ?? 'at an unknown time'}, ${reason ?? 'no reason given'}) — unsafe for live decisions\n`;
  }
  const hit = covered.find((envelope) => envelope.relay.cache === 'hit');
  if (hit === undefined || options.fresh) return '';
  return `relay: ${hit.relay.route_kind} served from the relay cache (hit; the relay reports no refresh time — RELAY_FRESH=1 reads it fresh)\n`;
}
