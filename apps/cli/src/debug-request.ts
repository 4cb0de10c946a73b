import type { RelayRequestInput } from '@relay/protocol';
import { CliError } from './cli-error.js';

/** The raw options of `relay request`. */
export interface DebugRequestOptions {
  readonly path: string;
  readonly method: string;
  /** `k=v` items. */
  readonly query: readonly string[];
  /** `k=v` items (`k: v` also accepted). */
  readonly header: readonly string[];
  /** `pr_head_sha=<sha>` or `pr_state=<state>` items. */
  readonly routeHint: readonly string[];
}

const ROUTE_HINT_KEYS: readonly string[] = ['pr_head_sha', 'pr_state'];

function splitPair(item: string, separators: readonly string[]): [string, string] {
  let at = -1;
  for (const separator of separators) {
    const index = item.indexOf(separator);
    if (index > 0 && (at < 0 || index < at)) at = index;
  }
  if (at <= 0) {
    throw new CliError('usage_error', { message: `Expected k=v, got "${item.slice(0, 40)}".` });
  }
  return [item.slice(0, at).trim(), item.slice(at + 1).trim()];
}

/**
 * Builds the relay request of `relay request` from its options: repeated query keys become
 * arrays; route hints are limited to pr_head_sha and pr_state.
 *
 * @throws CliError `usage_error` for a malformed pair or an unknown route hint
 */
export function buildDebugRequest(pool: string, options: DebugRequestOptions): RelayRequestInput {
  const query: Record<string, string | string[]> = {};
  for (const item of options.query) {
    const [key, value] = splitPair(item, ['=']);
    const existing = query[key];
    if (existing === undefined) query[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else query[key] = [existing, value];
  }
  const headers: Record<string, string> = {};
  for (const item of options.header) {
    const [key, value] = splitPair(item, ['=', ':']);
    headers[key.toLowerCase()] = value;
  }
  const routeHint: Record<string, string> = {};
  for (const item of options.routeHint) {
    const [key, value] = splitPair(item, ['=']);
    if (!ROUTE_HINT_KEYS.includes(key)) {
      throw new CliError('usage_error', {
        message: 'Route hints are pr_head_sha=<sha> and pr_state=<state>.',
      });
    }
    routeHint[key] = value;
  }
  return {
    pool,
    method: options.method,
    path: options.path,
    ...(Object.keys(query).length === 0 ? {} : { query }),
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
    ...(Object.keys(routeHint).length === 0 ? {} : { route_hint: routeHint }),
  };
}
