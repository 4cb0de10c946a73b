import {
  FORGE_API_VERSION_HEADER_ALIAS,
  PR_STATES,
  RELAY_REQUEST_HEADER_ALLOWLIST,
  getCommitShaSchema,
} from '@relay/protocol';
import type { RelayRequestInput } from '@relay/protocol';
import { isSecretQueryKey } from '@relay/route-classifier';
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

/** The headers the relay keeps (SPEC.md "Relay request"), and the alias it accepts. */
const ALLOWED_HEADERS: readonly string[] = [
  ...RELAY_REQUEST_HEADER_ALLOWLIST,
  FORGE_API_VERSION_HEADER_ALIAS,
];

const PR_STATE_VALUES: readonly string[] = PR_STATES;

/** Whether a route hint's value is one the relay accepts (a commit hash; a PR state). */
function isRouteHintValue(key: string, value: string): boolean {
  return key === 'pr_head_sha'
    ? getCommitShaSchema().safeParse(value).success
    : PR_STATE_VALUES.includes(value);
}

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
 * arrays; route hints are limited to pr_head_sha (a 40- or 64-hex commit hash) and pr_state
 * (open, closed or merged). What the relay would refuse or silently drop is refused here, before
 * anything is sent: a secret-bearing query key (its value would travel to the relay for
 * nothing) and a header outside the relay's allowlist (a credential header would travel, and any
 * other would be dropped without a word). Messages name the key, never a value.
 *
 * @throws CliError `usage_error` for a malformed pair, a secret-bearing query key, a header
 *   outside the allowlist, or an unknown route hint or value
 */
export function buildDebugRequest(pool: string, options: DebugRequestOptions): RelayRequestInput {
  const query: Record<string, string | string[]> = {};
  for (const item of options.query) {
    const [key, value] = splitPair(item, ['=']);
    if (isSecretQueryKey(key)) {
      throw new CliError('usage_error', {
        message: `The query key "${key.slice(0, 40)}" looks secret-bearing; the relay refuses it.`,
      });
    }
    const existing = query[key];
    if (existing === undefined) query[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else query[key] = [existing, value];
  }
  const headers: Record<string, string> = {};
  for (const item of options.header) {
    const [key, value] = splitPair(item, ['=', ':']);
    const name = key.toLowerCase();
    if (!ALLOWED_HEADERS.includes(name)) {
      throw new CliError('usage_error', {
        message: `The relay keeps only the headers ${ALLOWED_HEADERS.join(', ')}; "${name.slice(0, 40)}" is not one of them.`,
      });
    }
    headers[name] = value;
  }
  const routeHint: Record<string, string> = {};
  for (const item of options.routeHint) {
    const [key, value] = splitPair(item, ['=']);
    if (!ROUTE_HINT_KEYS.includes(key) || !isRouteHintValue(key, value)) {
      throw new CliError('usage_error', {
        message: `Route hints are pr_head_sha=<40 or 64 hex digits> and pr_state=${PR_STATE_VALUES.join('|')}.`,
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
