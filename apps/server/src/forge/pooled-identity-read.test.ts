import {
  createIdentityPool,
  createMemoryCoordinator,
  createPatCredentialProvider,
  type PoolIdentity,
} from '@relay/identity-pool';
import { err, ok } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import type { ObservedForgeCall } from './forge-account-client.js';
import { toUserViewRoute } from './pool-identity-lanes.js';
import { readWithPoolIdentity } from './pooled-identity-read.js';

/** What the forge does with one identity's call. */
type Script = number | 'timeout' | 'rewrite_denied' | 'governor_refused';

const identity = (id: string, weight: number): PoolIdentity => ({
  id,
  kind: 'pat',
  secretRef: id.toUpperCase(),
  installationId: null,
  scopes: [],
  weight,
});
const IDENTITIES = [identity('top', 300), identity('mid', 200), identity('low', 100)];

function observe(script: Script): ObservedForgeCall<number> {
  if (script === 'timeout')
    return { result: err({ code: 'forge_timeout' }), outcome: { kind: 'transport_error' } };
  if (script === 'rewrite_denied') {
    return { result: err({ code: 'string_rewrite_denied' }), outcome: undefined };
  }
  // The governed transport refused the read: nothing was sent.
  if (script === 'governor_refused') {
    return { result: err({ code: 'relay_overloaded' }), outcome: undefined };
  }
  return { result: ok(script), outcome: { kind: 'response', status: script, headers: {} } };
}

async function run(scripts: Readonly<Record<string, Script>>, secrets: Record<string, string>) {
  const now = () => Date.UTC(2030, 0, 1);
  const coordinator = createMemoryCoordinator({ now });
  const identityPool = createIdentityPool({
    coordinator,
    credentials: createPatCredentialProvider({
      resolveSecret: (name) => Promise.resolve(secrets[name]),
    }),
    now,
  });
  const sent: string[] = [];
  const outcome = await readWithPoolIdentity(
    {
      identityPool,
      identities: IDENTITIES,
      policy: { allowed_owners: [], allow_public_repos: true },
    },
    toUserViewRoute('bob'),
    (authorization) => {
      const id = authorization.replace('Bearer tok-', '');
      sent.push(id);
      return Promise.resolve(observe(scripts[id] ?? 200));
    },
  );
  const cooldowns = await coordinator.listCooldowns(IDENTITIES.map((i) => i.id));
  const cooling = IDENTITIES.map((i) => i.id).filter((id) => (cooldowns.get(id) ?? []).length > 0);
  const summary =
    outcome.kind === 'served'
      ? `served by ${outcome.identityId}: ${outcome.result.ok ? String(outcome.result.value) : outcome.result.error.code}`
      : `unavailable (${outcome.cause})`;
  return { summary, sent, cooling };
}

const ALL_SECRETS = { TOP: 'tok-top', MID: 'tok-mid', LOW: 'tok-low' };

describe('readWithPoolIdentity', () => {
  it.each([
    ['the highest-weight identity answers', {}, ALL_SECRETS, 'served by top: 200', ['top'], []],
    ['a 404 is an answer', { top: 404 }, ALL_SECRETS, 'served by top: 404', ['top'], []],
    [
      'a 401 moves on to the next identity',
      { top: 401 },
      ALL_SECRETS,
      'served by mid: 200',
      ['top', 'mid'],
      ['top'],
    ],
    [
      'two 401s move on twice',
      { top: 401, mid: 401 },
      ALL_SECRETS,
      'served by low: 200',
      ['top', 'mid', 'low'],
      ['top', 'mid'],
    ],
    [
      'every identity refused',
      { top: 401, mid: 401, low: 401 },
      ALL_SECRETS,
      'unavailable (all_refused)',
      ['top', 'mid', 'low'],
      ['top', 'mid', 'low'],
    ],
    [
      'a 429 (throttled) moves on',
      { top: 429 },
      ALL_SECRETS,
      'served by mid: 200',
      ['top', 'mid'],
      ['top'],
    ],
    [
      'a missing secret binding fails over without a call',
      {},
      { MID: 'tok-mid', LOW: 'tok-low' },
      'served by mid: 200',
      ['mid'],
      ['top'],
    ],
    [
      'no usable credential at all',
      {},
      {},
      'unavailable (credential_failed)',
      [],
      ['top', 'mid', 'low'],
    ],
    // Not the identity's fault: answered as is, no other identity tried.
    [
      'a timeout',
      { top: 'timeout' },
      ALL_SECRETS,
      'served by top: forge_timeout',
      ['top'],
      ['top'],
    ],
    [
      'a rewrite denial',
      { top: 'rewrite_denied' },
      ALL_SECRETS,
      'served by top: string_rewrite_denied',
      ['top'],
      [],
    ],
    // The relay's own pacing: no other identity (selection preferred headroom), nothing cools.
    [
      'an upstream governor refusal',
      { top: 'governor_refused' },
      ALL_SECRETS,
      'unavailable (relay_overloaded)',
      ['top'],
      [],
    ],
  ] as const)('%s', async (_what, scripts, secrets, summary, sent, cooling) => {
    const result = await run(scripts, { ...secrets });
    expect(result).toEqual({ summary, sent, cooling });
  });
});
