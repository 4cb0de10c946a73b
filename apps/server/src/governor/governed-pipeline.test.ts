import type { ForgeRequest } from '@relay/forge-transport';
import {
  createIdentityPool,
  createMemoryCoordinator,
  createPatCredentialProvider,
  type PoolIdentity,
} from '@relay/identity-pool';
import { ok, type PoolPolicy } from '@relay/protocol';
import { classify } from '@relay/route-classifier';
import { describe, expect, it } from 'vitest';
import { forgeResponse } from '../pipeline/__fixtures__/forge-responses.js';
import { toSelectionRoute } from '../pipeline/route-identity.js';
import { createAnonymousBudget } from '../pipeline/token-free-lanes.js';
import { readUpstream, type LaneContext } from '../pipeline/upstream-lanes.js';
import { createFakeScheduler } from './__fixtures__/fake-scheduler.js';
import { governIdentityPool } from './governed-pipeline.js';
import {
  GovernorRefusalError,
  createCredentialRegistry,
  governExchange,
  governTransport,
  toExchangeKey,
  toGovernorKey,
  toRequestBucket,
} from './governed-transport.js';
import { createUpstreamGovernor } from './upstream-governor.js';
import { createUsageTally } from './usage-tally.js';

const POLICY: PoolPolicy = {
  allowed_owners: ['acme'],
  allow_public_repos: false,
  allow_search: false,
  allow_logs: false,
};

function pat(id: string, weight: number): PoolIdentity {
  return {
    id,
    kind: 'pat',
    secretRef: id,
    installationId: null,
    scopes: [{ owner: 'acme' }],
    weight,
  };
}

const IDENTITIES = [pat('pat-1', 200), pat('pat-2', 100)];
const SECRETS: Record<string, string> = { 'pat-1': 'token-one', 'pat-2': 'token-two' };

/** Lanes over a governed transport: 2 points a minute per sender, no waiting. */
function setUp(path: string, anonymousSpent = false) {
  const clock = createFakeScheduler();
  const anonymousBudget = createAnonymousBudget(clock.now);
  if (anonymousSpent) {
    anonymousBudget.observe(
      'core',
      forgeResponse(403, {}, { remaining: 0, resetEpochSeconds: clock.now() / 1000 + 600 }),
    );
  }
  const sent: ForgeRequest[] = [];
  const governor = createUpstreamGovernor({
    limits: { maxInFlight: 10, pointsPerMinute: 2 },
    maxWaitMs: 0,
    now: clock.now,
    schedule: clock.schedule,
  });
  const registry = createCredentialRegistry();
  const usage = createUsageTally(clock.now);
  const classified = classify({ method: 'GET', path, policy: POLICY });
  if (!classified.ok) throw new Error('unclassified');
  const route = classified.value;
  const pool = createIdentityPool({
    coordinator: createMemoryCoordinator({ now: clock.now }),
    credentials: createPatCredentialProvider({
      resolveSecret: (name) => Promise.resolve(SECRETS[name]),
    }),
    now: clock.now,
  });
  const context: LaneContext = {
    transport: governTransport(
      {
        request: (request) => {
          sent.push(request);
          return Promise.resolve(ok(forgeResponse(200, { ok: true }, { remaining: 4000 })));
        },
      },
      { governor, registry, callerOf: () => 'caller', usage },
    ),
    identityPool: governIdentityPool(pool, governor, registry),
    identities: () => Promise.resolve(IDENTITIES),
    policy: POLICY,
    route,
    selectionRoute: toSelectionRoute(route, true),
    rewriteCheck: () => true,
    anonymousBudget,
  };
  return { context, sent, usage, governor };
}

const who = (request: ForgeRequest) => request.authorization ?? 'anonymous';

describe('the governor at upstream dispatch', () => {
  it('moves to an identity with headroom, then refuses with 424 relay_overloaded', async () => {
    const h = setUp('/repos/acme/widgets/pulls/1/files', true);
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await readUpstream(h.context, undefined));
    expect(h.sent.map(who)).toEqual([
      'Bearer token-one',
      'Bearer token-one',
      'Bearer token-two',
      'Bearer token-two',
    ]);
    expect(outcomes[2]).toMatchObject({ ok: true, value: { leaseReason: 'relay_overloaded' } });
    expect(outcomes[4]).toMatchObject({
      ok: false,
      error: {
        kind: 'unavailable',
        failure: { code: 'fallback_local', reason: 'relay_overloaded' },
      },
    });
    expect(h.usage.countLastMinute(['pat-1', 'pat-2'], 'core')).toBe(4);
  });

  it('spreads a concurrent burst over the identities with headroom before refusing', async () => {
    // Five reads of one route at once: each selection decides before any of them is admitted,
    // so without claims all five choose the leased pat-1 (its window is still empty), two are
    // sent and three refused while pat-2 has its whole pace left.
    const h = setUp('/repos/acme/widgets/pulls/1/files', true);
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => readUpstream(h.context, undefined)),
    );
    expect(h.sent.map(who).sort()).toEqual([
      'Bearer token-one',
      'Bearer token-one',
      'Bearer token-two',
      'Bearer token-two',
    ]);
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(4);
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([
      {
        ok: false,
        error: expect.objectContaining({
          failure: expect.objectContaining({ code: 'fallback_local', reason: 'relay_overloaded' }),
        }) as unknown,
      },
    ]);
  });

  it('an anonymous lane at its pace falls through to a pooled identity', async () => {
    const h = setUp('/repos/acme/widgets/issues/1');
    for (let i = 0; i < 3; i++) await readUpstream(h.context, undefined);
    expect(h.sent.map(who)).toEqual(['anonymous', 'anonymous', 'Bearer token-one']);
  });
});

describe('toGovernorKey and toRequestBucket', () => {
  it('keys registered credentials by identity, others by digest or source', () => {
    const registry = createCredentialRegistry();
    registry.register('Bearer secret', 'pat-7');
    expect(toGovernorKey({ host: 'api', authorization: 'Bearer secret' }, registry)).toBe('pat-7');
    expect(toGovernorKey({ host: 'api', authorization: 'Bearer other' }, registry)).toMatch(
      /^token:[\w-]{16}$/,
    );
    expect(toGovernorKey({ host: 'api' }, registry)).toBe('anonymous:api');
    expect(toGovernorKey({ host: 'raw' }, registry)).toBe('anonymous:raw');
  });

  it.each([
    ['/search/code', 'code_search'],
    ['/search/issues', 'search'],
    ['/repos/a/b', 'core'],
  ])('%s spends %s', (path, bucket) => {
    expect(toRequestBucket({ host: 'api', path })).toBe(bucket);
  });
});

describe('governExchange', () => {
  it('paces token exchanges under the app’s key and throws when refused', async () => {
    const clock = createFakeScheduler();
    const governor = createUpstreamGovernor({
      limits: { maxInFlight: 10, pointsPerMinute: 1 },
      maxWaitMs: 0,
      now: clock.now,
      schedule: clock.schedule,
    });
    const key = toExchangeKey(42);
    expect(key).toBe('forge_app:42');
    expect(await governExchange(governor, key, 'c', () => Promise.resolve('token'))).toBe('token');
    await expect(
      governExchange(governor, key, 'c', () => Promise.resolve('token')),
    ).rejects.toBeInstanceOf(GovernorRefusalError);
    expect((await governor.inspect(key)).inFlight).toBe(0);
  });
});
