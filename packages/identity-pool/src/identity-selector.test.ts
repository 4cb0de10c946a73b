import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { UNKNOWN_RATE_BUDGET } from '@relay/protocol';
import type { Cooldown, CooldownScope } from './cooldown.js';
import { isCooldownApplicable } from './cooldown.js';
import { isIdentityEligible, type SelectionRoute } from './identity-eligibility.js';
import { selectIdentity, type Lease, type SelectionState } from './identity-selector.js';
import type { PoolIdentity } from './pool-identity.js';
import { assumeRateBudget, type RateState } from './rate-state.js';
import { app, ownerlessRoute, pat, policy, repoRoute } from './__fixtures__/identities.js';

const NOW = Date.UTC(2026, 0, 1);
const ROUTE = repoRoute();

function rate(remaining: number, resetInMs = 600_000): RateState {
  return { bucket: 'core', limit: 5000, remaining, resetAt: NOW + resetInMs, observedAt: NOW - 1 };
}

function cooling(identityId: string, scope: CooldownScope, untilIn = 60_000): Cooldown {
  return { identityId, scope, cause: 'failure', until: NOW + untilIn };
}

function state(parts: {
  lease?: Lease | undefined;
  cooldowns?: readonly Cooldown[];
  rates?: Record<string, RateState>;
}): SelectionState {
  const byId = new Map<string, Cooldown[]>();
  for (const cooldown of parts.cooldowns ?? []) {
    byId.set(cooldown.identityId, [...(byId.get(cooldown.identityId) ?? []), cooldown]);
  }
  return { lease: parts.lease, cooldowns: byId, rates: new Map(Object.entries(parts.rates ?? {})) };
}

const a = pat('a', [{ owner: 'octo' }]);
const b = pat('b', [{ owner: 'octo' }]);
const c = app('c', [{ owner: 'octo', repo: 'hello' }]);
const lease = (identityId: string, expiresIn = 5_000): Lease => ({
  routeKey: ROUTE.key,
  identityId,
  expiresAt: NOW + expiresIn,
});

describe('selectIdentity: rules', () => {
  it.each([
    {
      rule: 'a live lease on a usable identity is sticky',
      identities: [a, b],
      state: state({ lease: lease('b'), rates: { a: rate(4000), b: rate(10) } }),
      id: 'b',
      reason: 'sticky',
    },
    {
      rule: 'an ended lease is ignored',
      identities: [a, b],
      state: state({ lease: lease('b', 0), rates: { a: rate(4000), b: rate(10) } }),
      id: 'a',
      reason: 'highest_remaining',
    },
    {
      rule: 'a lease of another route key is ignored',
      identities: [a, b],
      state: state({
        lease: { ...lease('b'), routeKey: 'other' },
        rates: { a: rate(4000), b: rate(10) },
      }),
      id: 'a',
      reason: 'highest_remaining',
    },
    {
      rule: 'highest remaining budget wins',
      identities: [a, b],
      state: state({ rates: { a: rate(100), b: rate(200) } }),
      id: 'b',
      reason: 'highest_remaining',
    },
    {
      rule: 'unknown budget is assumed a fresh 5000',
      identities: [a, b],
      state: state({ rates: { a: rate(4999) } }),
      id: 'b',
      reason: 'highest_remaining',
    },
    {
      rule: 'weight is added to the budget',
      identities: [pat('light', [{ owner: 'octo' }], 0), pat('heavy', [{ owner: 'octo' }], 500)],
      state: state({ rates: { light: rate(1400), heavy: rate(1000) } }),
      id: 'heavy',
      reason: 'highest_remaining',
    },
    {
      rule: 'weight breaks a tie of equal budgets',
      identities: [pat('light', [{ owner: 'octo' }], 10), pat('heavy', [{ owner: 'octo' }], 20)],
      state: state({}),
      id: 'heavy',
      reason: 'highest_remaining',
    },
    {
      rule: 'exhausted and not yet reset is skipped',
      identities: [a, b],
      state: state({ rates: { a: rate(0), b: rate(3) } }),
      id: 'b',
      reason: 'highest_remaining',
    },
    {
      rule: 'exhausted heals at the reset time',
      identities: [a, b],
      state: state({ rates: { a: rate(0, 0), b: rate(3) } }),
      id: 'a',
      reason: 'highest_remaining',
    },
    {
      rule: 'a globally cooling identity is skipped',
      identities: [a, b],
      state: state({ cooldowns: [cooling('a', { kind: 'global' })], rates: { b: rate(1) } }),
      id: 'b',
      reason: 'highest_remaining',
    },
    {
      rule: 'a bucket cooldown of the route’s bucket is skipped',
      identities: [a, b],
      state: state({
        cooldowns: [cooling('a', { kind: 'bucket', bucket: 'core' })],
        rates: { b: rate(1) },
      }),
      id: 'b',
      reason: 'highest_remaining',
    },
    {
      rule: 'a bucket cooldown of another bucket does not apply',
      identities: [a, b],
      state: state({
        cooldowns: [cooling('a', { kind: 'bucket', bucket: 'search' })],
        rates: { b: rate(1) },
      }),
      id: 'a',
      reason: 'highest_remaining',
    },
    {
      rule: 'a route-key cooldown of this route is skipped',
      identities: [a, b],
      state: state({
        cooldowns: [cooling('a', { kind: 'route', routeKey: ROUTE.key })],
        rates: { b: rate(1) },
      }),
      id: 'b',
      reason: 'highest_remaining',
    },
    {
      rule: 'a route-key cooldown of another route does not apply',
      identities: [a, b],
      state: state({
        cooldowns: [cooling('a', { kind: 'route', routeKey: 'x' })],
        rates: { b: rate(1) },
      }),
      id: 'a',
      reason: 'highest_remaining',
    },
    {
      rule: 'an ended cooldown does not apply',
      identities: [a, b],
      state: state({ cooldowns: [cooling('a', { kind: 'global' }, 0)], rates: { b: rate(1) } }),
      id: 'a',
      reason: 'highest_remaining',
    },
    {
      rule: 'a cooling leased identity moves the route: reason identities_cooling_down',
      identities: [a, b],
      state: state({ lease: lease('a'), cooldowns: [cooling('a', { kind: 'global' })] }),
      id: 'b',
      reason: 'identities_cooling_down',
    },
    {
      rule: 'a rate-limited leased identity moves the route: reason forge_rate_limited',
      identities: [a, b],
      state: state({
        lease: lease('a'),
        cooldowns: [cooling('a', { kind: 'bucket', bucket: 'core' })],
      }),
      id: 'b',
      reason: 'forge_rate_limited',
    },
    {
      rule: 'an exhausted leased identity moves the route: reason forge_identity_depleted',
      identities: [a, b],
      state: state({ lease: lease('a'), rates: { a: rate(0) } }),
      id: 'b',
      reason: 'forge_identity_depleted',
    },
    {
      rule: 'a leased identity no longer eligible moves the route: reason highest_remaining',
      identities: [pat('a', [{ owner: 'elsewhere' }]), b],
      state: state({ lease: lease('a') }),
      id: 'b',
      reason: 'highest_remaining',
    },
    {
      rule: 'ineligible identities are never chosen, whatever their budget',
      identities: [pat('rich', [{ owner: 'elsewhere' }], 10_000), c],
      state: state({ rates: { c: rate(1) } }),
      id: 'c',
      reason: 'highest_remaining',
    },
  ])('$rule', ({ identities, state: selectionState, id, reason }) => {
    const result = selectIdentity({
      route: ROUTE,
      policy: policy(),
      identities,
      state: selectionState,
      now: NOW,
    });
    expect(result).toMatchObject({ ok: true, value: { identity: { id }, reason } });
    if (result.ok) expect(result.value.renewLease).toBe(reason !== 'sticky');
  });

  it('scores remaining budget plus weight', () => {
    const result = selectIdentity({
      route: ROUTE,
      policy: policy(),
      identities: [pat('w', [{ owner: 'octo' }], 250)],
      state: state({}),
      now: NOW,
    });
    expect(result).toMatchObject({ ok: true, value: { score: UNKNOWN_RATE_BUDGET + 250 } });
  });

  it('never chooses an excluded identity', () => {
    const result = selectIdentity({
      route: ROUTE,
      policy: policy(),
      identities: [a, b],
      state: state({ lease: lease('a'), rates: { b: rate(1) } }),
      now: NOW,
      exclude: new Set(['a']),
    });
    expect(result).toMatchObject({
      ok: true,
      value: { identity: { id: 'b' }, reason: 'highest_remaining' },
    });
  });
});

describe('selectIdentity: headroom (busy identities)', () => {
  it.each([
    {
      rule: 'a sticky lease is kept while its identity has headroom',
      lease: 'b',
      busy: ['a'],
      id: 'b',
      reason: 'sticky',
      isBusy: false,
    },
    {
      rule: 'a lease whose identity is at its pace moves to one with headroom',
      lease: 'b',
      busy: ['b'],
      id: 'a',
      reason: 'relay_overloaded',
      isBusy: false,
    },
    {
      rule: 'an identity with headroom outranks a busy one with more budget',
      lease: undefined,
      busy: ['a'],
      id: 'b',
      reason: 'highest_remaining',
      isBusy: false,
    },
    {
      rule: 'a busy lease is kept when every usable identity is busy',
      lease: 'b',
      busy: ['a', 'b'],
      id: 'b',
      reason: 'sticky',
      isBusy: true,
    },
    {
      rule: 'with every identity busy the best score wins, busy',
      lease: undefined,
      busy: ['a', 'b'],
      id: 'a',
      reason: 'highest_remaining',
      isBusy: true,
    },
  ])('$rule', ({ lease: leasedId, busy, id, reason, isBusy }) => {
    const result = selectIdentity({
      route: ROUTE,
      policy: policy(),
      identities: [a, b],
      state: state({
        lease: leasedId === undefined ? undefined : lease(leasedId),
        rates: { a: rate(4000), b: rate(10) },
      }),
      now: NOW,
      busy: new Set(busy),
    });
    expect(result).toMatchObject({ ok: true, value: { identity: { id }, reason, busy: isBusy } });
  });
});

describe('selectIdentity: typed outcomes', () => {
  it.each([
    {
      outcome: 'no identity for this owner or repository',
      route: ROUTE,
      identities: [pat('x', [{ owner: 'elsewhere' }])],
      state: state({}),
      error: { code: 'no_eligible_identity', cause: 'no_identity_for_route' },
    },
    {
      outcome: 'empty pool',
      route: ownerlessRoute(),
      identities: [],
      state: state({}),
      error: { code: 'no_eligible_identity', cause: 'no_identity_for_route' },
    },
    {
      outcome: 'repository not proven public',
      route: repoRoute({ publicVerified: false }),
      identities: [a],
      state: state({}),
      error: { code: 'no_eligible_identity', cause: 'repo_not_verified_public' },
    },
    {
      outcome: 'all cooling down',
      route: ROUTE,
      identities: [a, b],
      state: state({
        cooldowns: [
          cooling('a', { kind: 'global' }, 30_000),
          cooling('b', { kind: 'route', routeKey: ROUTE.key }, 90_000),
        ],
      }),
      error: { code: 'identities_cooling_down', retryAt: NOW + 30_000 },
    },
    {
      outcome: 'all depleted',
      route: ROUTE,
      identities: [a, b],
      state: state({ rates: { a: rate(0, 50_000), b: rate(0, 20_000) } }),
      error: { code: 'identity_pool_depleted', retryAt: NOW + 20_000 },
    },
    {
      outcome: 'depleted and cooling: depleted',
      route: ROUTE,
      identities: [a, b],
      state: state({
        rates: { a: rate(0, 50_000) },
        cooldowns: [cooling('b', { kind: 'global' }, 10_000)],
      }),
      error: { code: 'identity_pool_depleted', retryAt: NOW + 10_000 },
    },
    {
      outcome: 'rate-limited (429 bucket cooldowns)',
      route: ROUTE,
      identities: [a, b],
      state: state({
        rates: { a: rate(0, 50_000) },
        cooldowns: [cooling('b', { kind: 'bucket', bucket: 'core' }, 70_000)],
      }),
      error: { code: 'forge_rate_limited', retryAt: NOW + 50_000 },
    },
    {
      outcome: 'every eligible identity already tried',
      route: ROUTE,
      identities: [a],
      state: state({}),
      exclude: new Set(['a']),
      error: { code: 'no_eligible_identity', cause: 'all_tried' },
    },
  ])('$outcome', ({ route, identities, state: selectionState, exclude, error }) => {
    expect(
      selectIdentity({
        route,
        policy: policy(),
        identities,
        state: selectionState,
        now: NOW,
        exclude,
      }),
    ).toEqual({ ok: false, error });
  });

  it('an identity both cooling and exhausted is usable only once both end', () => {
    const result = selectIdentity({
      route: ROUTE,
      policy: policy(),
      identities: [a],
      state: state({
        rates: { a: rate(0, 80_000) },
        cooldowns: [cooling('a', { kind: 'global' }, 10_000)],
      }),
      now: NOW,
    });
    expect(result).toEqual({
      ok: false,
      error: { code: 'identities_cooling_down', retryAt: NOW + 80_000 },
    });
  });
});

describe('selectIdentity: properties', () => {
  const owners = ['octo', 'stranger', '*'] as const;
  const arbitraryIdentity = fc
    .record({
      kind: fc.constantFrom('pat' as const, 'forge_app' as const),
      owner: fc.constantFrom(...owners),
      repo: fc.option(fc.constantFrom('hello', 'world'), { nil: undefined }),
      weight: fc.integer({ min: 0, max: 1000 }),
    })
    .map(({ kind, owner, repo, weight }): Omit<PoolIdentity, 'id'> => ({
      kind,
      secretRef: 'S',
      installationId: kind === 'forge_app' ? 1 : null,
      scopes: [{ owner, repo: owner === '*' ? undefined : repo }],
      weight,
    }));
  const arbitraryScope: fc.Arbitrary<CooldownScope> = fc.oneof(
    fc.constant({ kind: 'global' as const }),
    fc.constantFrom('core', 'search').map((bucket) => ({ kind: 'bucket' as const, bucket })),
    fc.constantFrom(ROUTE.key, 'other').map((routeKey) => ({ kind: 'route' as const, routeKey })),
  );
  const arbitraryWorld = fc
    .array(arbitraryIdentity, { minLength: 0, maxLength: 8 })
    .chain((specs) => {
      const identities = specs.map((spec, index) => ({ ...spec, id: `id${index}` }));
      const ids = identities.map((identity) => identity.id);
      const anyId = ids.length > 0 ? fc.constantFrom(...ids) : fc.constant('none');
      return fc.record({
        identities: fc.constant(identities),
        cooldowns: fc.array(
          fc.record({
            identityId: anyId,
            scope: arbitraryScope,
            cause: fc.constant('failure' as const),
            until: fc.integer({ min: NOW - 10_000, max: NOW + 200_000 }),
          }),
          { maxLength: 10 },
        ),
        rates: fc.dictionary(
          anyId,
          fc.record({
            bucket: fc.constant('core'),
            limit: fc.constant(5000),
            remaining: fc.oneof(fc.constant(0), fc.nat(5000)),
            resetAt: fc.integer({ min: NOW - 10_000, max: NOW + 200_000 }),
            observedAt: fc.constant(NOW - 20_000),
          }),
        ),
        leaseId: fc.option(anyId, { nil: undefined }),
        route: fc.constantFrom<SelectionRoute>(
          ROUTE,
          repoRoute({ key: 'repo_view:stranger/lib', owner: 'stranger', repo: 'lib' }),
          repoRoute({ publicVerified: false }),
          ownerlessRoute(),
        ),
        allowPublic: fc.boolean(),
      });
    });

  it('never returns a cooling, exhausted or ineligible identity', () => {
    fc.assert(
      fc.property(arbitraryWorld, (world) => {
        const selectionState = state({
          lease:
            world.leaseId === undefined
              ? undefined
              : { routeKey: world.route.key, identityId: world.leaseId, expiresAt: NOW + 5_000 },
          cooldowns: world.cooldowns,
          rates: world.rates,
        });
        const pol = policy({ allow_public_repos: world.allowPublic });
        const result = selectIdentity({
          route: world.route,
          policy: pol,
          identities: world.identities,
          state: selectionState,
          now: NOW,
        });
        if (!result.ok) {
          // A failure is honest: no identity was usable.
          const usable = world.identities.filter(
            (identity) =>
              isIdentityEligible(identity, world.route, pol) &&
              !world.cooldowns.some(
                (cd) => cd.identityId === identity.id && isCooldownApplicable(cd, world.route, NOW),
              ) &&
              !assumeRateBudget(world.rates[identity.id], NOW).exhausted,
          );
          expect(usable).toEqual([]);
          return;
        }
        const chosen = result.value.identity;
        expect(isIdentityEligible(chosen, world.route, pol)).toBe(true);
        expect(
          world.cooldowns.some(
            (cd) => cd.identityId === chosen.id && isCooldownApplicable(cd, world.route, NOW),
          ),
        ).toBe(false);
        expect(assumeRateBudget(world.rates[chosen.id], NOW).exhausted).toBe(false);
        if (result.value.reason === 'sticky') expect(chosen.id).toBe(world.leaseId);
      }),
    );
  });
});
