import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { COOLDOWN_MS, LEASE_TTL_MS, err, ok } from '@relay/protocol';
import { CoordinatorError, type Coordinator } from './coordinator.js';
import { PooledCredential, type CredentialError, type CredentialProvider } from './credential.js';
import { createIdentityPool, type IdentityRequest } from './identity-pool.js';
import { createMemoryCoordinator } from './memory-coordinator.js';
import type { PoolIdentity } from './pool-identity.js';
import { createFakeClock, type FakeClock } from './__fixtures__/fake-clock.js';
import { app, pat, policy, repoRoute } from './__fixtures__/identities.js';

/** Credentials from a table: an identity id maps to a token or a credential error. */
function tableCredentials(
  table: Record<string, string | CredentialError>,
  clock: FakeClock,
  log: string[] = [],
): CredentialProvider {
  return {
    resolve(identity) {
      log.push(identity.id);
      const entry = table[identity.id];
      if (entry === undefined) return Promise.resolve(err({ code: 'secret_unavailable' }));
      if (typeof entry !== 'string') return Promise.resolve(err(entry));
      const times =
        identity.kind === 'forge_app' ? { mintedAt: clock(), expiresAt: clock() + 3_600_000 } : {};
      return Promise.resolve(ok(new PooledCredential(identity.kind, entry, times)));
    },
    invalidate(identity) {
      log.push(`invalidate:${identity.id}`);
    },
  };
}

function setup(
  identities: readonly PoolIdentity[],
  table: Record<string, string | CredentialError>,
) {
  const clock = createFakeClock();
  const coordinator = createMemoryCoordinator({ now: clock });
  const log: string[] = [];
  const pool = createIdentityPool({
    coordinator,
    credentials: tableCredentials(table, clock, log),
    now: clock,
  });
  const request: IdentityRequest = { route: repoRoute(), policy: policy(), identities };
  return { clock, coordinator, log, pool, request };
}

const a = pat('a', [{ owner: 'octo' }], 300);
const b = pat('b', [{ owner: 'octo' }], 200);
const c = pat('c', [{ owner: 'octo' }], 100);

describe('acquire', () => {
  it('prefers an identity with headroom when the pace governor says one is at its limit', async () => {
    const clock = createFakeClock();
    const asked: string[][] = [];
    const pool = createIdentityPool({
      coordinator: createMemoryCoordinator({ now: clock }),
      credentials: tableCredentials({ a: 'ghp_a', b: 'ghp_b' }, clock),
      now: clock,
      atPaceLimit: (ids) => {
        asked.push([...ids]);
        return Promise.resolve(new Set(['a']));
      },
    });
    const acquired = await pool.acquire({
      route: repoRoute(),
      policy: policy(),
      identities: [a, b],
    });
    expect(acquired).toMatchObject({ ok: true, value: { identity: { id: 'b' } } });
    expect(asked).toEqual([['a', 'b']]);
    const perRequest = await pool.acquire({
      route: repoRoute(),
      policy: policy(),
      identities: [a, b],
      atPaceLimit: () => Promise.resolve(new Set(['b'])),
    });
    expect(perRequest).toMatchObject({ ok: true, value: { identity: { id: 'a' } } });
  });

  it('selects, leases for 10 s and resolves the credential', async () => {
    const { pool, request, coordinator, clock } = setup([a, b], { a: 'ghp_a', b: 'ghp_b' });
    const acquired = await pool.acquire(request);
    expect(acquired).toMatchObject({
      ok: true,
      value: { identity: { id: 'a' }, reason: 'highest_remaining', attempts: 1 },
    });
    expect(acquired.ok && acquired.value.credential.reveal()).toBe('ghp_a');
    const state = await coordinator.readSelectionState({
      routeKey: request.route.key,
      bucket: 'core',
      identityIds: [],
    });
    expect(state.lease).toEqual({
      routeKey: request.route.key,
      identityId: 'a',
      expiresAt: clock() + LEASE_TTL_MS,
    });
  });

  it('is sticky within the lease and reselects after it', async () => {
    const { pool, request, clock, coordinator } = setup([a, b], { a: 'ghp_a', b: 'ghp_b' });
    await pool.acquire(request);
    // b now looks much better, but the route stays on a while the lease lives.
    await coordinator.recordRateState('a', {
      bucket: 'core',
      limit: 5000,
      remaining: 10,
      resetAt: clock() + 3_600_000,
      observedAt: clock(),
    });
    clock.advance(LEASE_TTL_MS - 1);
    expect(await pool.acquire(request)).toMatchObject({
      ok: true,
      value: { identity: { id: 'a' }, reason: 'sticky' },
    });
    clock.advance(1);
    expect(await pool.acquire(request)).toMatchObject({
      ok: true,
      value: { identity: { id: 'b' }, reason: 'highest_remaining' },
    });
  });

  it('tries another eligible identity after a local credential failure, and cools the failed one', async () => {
    const { pool, request, coordinator, log, clock } = setup([a, b], { b: 'ghp_b' });
    const acquired = await pool.acquire(request);
    expect(acquired).toMatchObject({ ok: true, value: { identity: { id: 'b' }, attempts: 2 } });
    expect(log).toEqual(['a', 'b']);
    const cooldowns = await coordinator.listCooldowns(['a', 'b']);
    expect(cooldowns.get('a')).toEqual([
      {
        identityId: 'a',
        scope: { kind: 'global' },
        cause: 'credential',
        until: clock() + COOLDOWN_MS,
      },
    ]);
    expect(cooldowns.has('b')).toBe(false);
  });

  it('tells onSelected each identity selection decides on, before its credential resolves', async () => {
    const { pool, request, log } = setup([a, b], { b: 'ghp_b' });
    const selected: string[] = [];
    const acquired = await pool.acquire({
      ...request,
      onSelected: (id) => {
        selected.push(`${id}@${String(log.length)}`);
      },
    });
    expect(acquired).toMatchObject({ ok: true, value: { identity: { id: 'b' } } });
    // `a` was chosen before any credential was resolved; `b` after a's failed.
    expect(selected).toEqual(['a@0', 'b@1']);
  });

  it('does not retry an identity in credential cooldown even once its binding is repaired', async () => {
    const table: Record<string, string | CredentialError> = { b: 'ghp_b' };
    const { pool, request, clock } = setup([a, b], table);
    await pool.acquire(request);
    table.a = 'ghp_a_repaired';
    clock.advance(COOLDOWN_MS - 1);
    expect(await pool.acquire(request)).toMatchObject({
      ok: true,
      value: { identity: { id: 'b' } },
    });
    clock.advance(1);
    clock.advance(LEASE_TTL_MS);
    expect(await pool.acquire(request)).toMatchObject({
      ok: true,
      value: { identity: { id: 'a' } },
    });
  });

  it('extends the credential cooldown with every new observation', async () => {
    const { pool, request, clock, coordinator } = setup([a], {});
    const start = clock();
    await pool.acquire(request);
    clock.advance(COOLDOWN_MS);
    await pool.acquire(request);
    const cooldowns = await coordinator.listCooldowns(['a']);
    expect(cooldowns.get('a')?.[0]?.until).toBe(start + 2 * COOLDOWN_MS);
  });

  it('returns the first typed error, without binding names, when every credential fails locally', async () => {
    const { pool, request, log } = setup([a, b, c], {
      a: { code: 'forge_app_key_format' },
      b: { code: 'secret_unavailable' },
      c: { code: 'secret_invalid' },
    });
    const acquired = await pool.acquire(request);
    expect(acquired).toEqual({
      ok: false,
      error: {
        code: 'credential_failed',
        error: { code: 'forge_app_key_format' },
        errorCode: 'forge_app_key_format',
      },
    });
    expect(log).toEqual(['a', 'b', 'c']);
    expect(JSON.stringify(acquired)).not.toMatch(/SECRET_|KEY_/);
  });

  it('maps a first generic failure to credentials_unavailable', async () => {
    const { pool, request } = setup([a], { a: { code: 'secret_unavailable' } });
    expect(await pool.acquire(request)).toMatchObject({
      ok: false,
      error: { errorCode: 'credentials_unavailable' },
    });
  });

  it('after all credentials failed, later requests see the pool cooling down', async () => {
    const { pool, request } = setup([a, b], {});
    await pool.acquire(request);
    expect(await pool.acquire(request)).toMatchObject({
      ok: false,
      error: { code: 'identities_cooling_down' },
    });
  });

  it('applies the cooldown table to a refused token exchange and tries another identity', async () => {
    const appA = app('app-a', [{ owner: 'octo' }], 1, 500);
    const { pool, request, coordinator, clock } = setup([appA, b], {
      'app-a': { code: 'token_exchange_failed', status: 401, retryAfterMs: undefined },
      b: 'ghp_b',
    });
    expect(await pool.acquire(request)).toMatchObject({
      ok: true,
      value: { identity: { id: 'b' } },
    });
    expect((await coordinator.listCooldowns(['app-a'])).get('app-a')).toEqual([
      {
        identityId: 'app-a',
        scope: { kind: 'global' },
        cause: 'unauthorized',
        until: clock() + COOLDOWN_MS,
      },
    ]);
  });

  it('cools only the route key after an unreachable exchange', async () => {
    const appA = app('app-a', [{ owner: 'octo' }], 1, 500);
    const { pool, request, coordinator } = setup([appA], {
      'app-a': { code: 'token_exchange_failed', status: undefined, retryAfterMs: undefined },
    });
    expect(await pool.acquire(request)).toMatchObject({
      ok: false,
      error: { code: 'credential_failed', errorCode: 'forge_unreachable' },
    });
    expect((await coordinator.listCooldowns(['app-a'])).get('app-a')?.[0]?.scope).toEqual({
      kind: 'route',
      routeKey: request.route.key,
    });
  });

  it.each([
    [
      'alone',
      false,
      { ok: false, error: { code: 'credential_failed', errorCode: 'relay_overloaded' } },
    ],
    ['with a PAT beside it', true, { ok: true, value: { identity: { id: 'b' } } }],
  ])(
    'records no cooldown for an exchange the relay’s pacing refused (%s)',
    async (_name, withPat, expected) => {
      const appA = app('app-a', [{ owner: 'octo' }], 1, 500);
      const { pool, request, coordinator } = setup(withPat ? [appA, b] : [appA], {
        'app-a': { code: 'token_exchange_refused' },
        b: 'ghp_b',
      });
      expect(await pool.acquire(request)).toMatchObject(expected);
      expect((await coordinator.listCooldowns(['app-a'])).get('app-a') ?? []).toEqual([]);
      // Still selectable: a later request may try the app again.
      expect(await pool.select({ ...request, identities: [appA] })).toMatchObject({
        ok: true,
        value: { identity: { id: 'app-a' } },
      });
    },
  );

  it('passes selection outcomes through when no credential was tried', async () => {
    const { pool } = setup([], {});
    expect(await pool.acquire({ route: repoRoute(), policy: policy(), identities: [] })).toEqual({
      ok: false,
      error: { code: 'no_eligible_identity', cause: 'no_identity_for_route' },
    });
  });
});

describe('acquire with an older coordinator (Versioning 5)', () => {
  function olderCoordinator(clock: FakeClock, variant: 'absent' | 'unsupported'): Coordinator {
    const inner = createMemoryCoordinator({ now: clock });
    const older: Coordinator = {
      readSelectionState: (query) => inner.readSelectionState(query),
      setLease: (routeKey, identityId, ttlMs) => inner.setLease(routeKey, identityId, ttlMs),
      addCooldown: (identityId, request) => inner.addCooldown(identityId, request),
      recordRateState: (identityId, state) => inner.recordRateState(identityId, state),
      listCooldowns: (identityIds) => inner.listCooldowns(identityIds),
      recordCredentialFailure: () => Promise.reject(new CoordinatorError('method_unsupported')),
    };
    if (variant === 'absent') Reflect.deleteProperty(older, 'recordCredentialFailure');
    return older;
  }

  it.each(['absent', 'unsupported'] as const)(
    'a %s credential-failure method is an infrastructure failure: no other identity, no acknowledgment',
    async (variant) => {
      const clock = createFakeClock();
      const coordinator = olderCoordinator(clock, variant);
      const log: string[] = [];
      const pool = createIdentityPool({
        coordinator,
        credentials: tableCredentials({ b: 'ghp_b' }, clock, log),
        now: clock,
      });
      const request = { route: repoRoute(), policy: policy(), identities: [a, b] };
      expect(await pool.acquire(request)).toEqual({
        ok: false,
        error: { code: 'coordinator_unavailable', cause: 'method_unsupported' },
      });
      expect(log).toEqual(['a']);
      // Not bounded by the cooldown: it persists for as long as the coordinator is old.
      clock.advance(10 * COOLDOWN_MS);
      expect(await pool.acquire(request)).toMatchObject({
        ok: false,
        error: { code: 'coordinator_unavailable' },
      });
      expect((await coordinator.listCooldowns(['a'])).size).toBe(0);
    },
  );

  it('an unreachable coordinator is an infrastructure failure', async () => {
    const clock = createFakeClock();
    const coordinator = createMemoryCoordinator({ now: clock });
    const broken: Coordinator = {
      ...coordinator,
      readSelectionState: () => Promise.reject(new Error('ECONNREFUSED')),
    };
    const pool = createIdentityPool({
      coordinator: broken,
      credentials: tableCredentials({ a: 't' }, clock),
      now: clock,
    });
    expect(await pool.acquire({ route: repoRoute(), policy: policy(), identities: [a] })).toEqual({
      ok: false,
      error: { code: 'coordinator_unavailable', cause: 'unavailable' },
    });
  });
});

describe('report', () => {
  const resetAt = (clock: FakeClock, inMs: number) => String(Math.floor((clock() + inMs) / 1000));

  it('updates rate state from x-ratelimit-* after every call', async () => {
    const { pool, request, coordinator, clock } = setup([a], { a: 't' });
    await pool.report({
      identity: a,
      route: request.route,
      outcome: {
        kind: 'response',
        status: 200,
        headers: {
          'x-ratelimit-remaining': '4321',
          'x-ratelimit-limit': '5000',
          'x-ratelimit-reset': resetAt(clock, 600_000),
        },
      },
    });
    const state = await coordinator.readSelectionState({
      routeKey: 'x',
      bucket: 'core',
      identityIds: ['a'],
    });
    expect(state.rates.get('a')?.remaining).toBe(4321);
  });

  it('a global cooldown stops every request on the identity, not only the failed route', async () => {
    const { pool, request } = setup([a, b], { a: 'ta', b: 'tb' });
    await pool.report({
      identity: a,
      route: request.route,
      outcome: { kind: 'response', status: 403, headers: {} },
    });
    const otherRoute = {
      ...request,
      route: repoRoute({ key: 'pr_list:octo/hello', kind: 'pr_list' }),
    };
    expect(await pool.acquire(otherRoute)).toMatchObject({
      ok: true,
      value: { identity: { id: 'b' } },
    });
  });

  it('a route-key cooldown leaves other routes on the identity', async () => {
    const { pool, request } = setup([a, b], { a: 'ta', b: 'tb' });
    await pool.report({
      identity: a,
      route: request.route,
      outcome: { kind: 'response', status: 502, headers: {} },
    });
    expect(await pool.acquire(request)).toMatchObject({
      ok: true,
      value: { identity: { id: 'b' } },
    });
    const otherRoute = {
      ...request,
      route: repoRoute({ key: 'pr_list:octo/hello', kind: 'pr_list' }),
    };
    expect(await pool.acquire(otherRoute)).toMatchObject({
      ok: true,
      value: { identity: { id: 'a' } },
    });
  });

  it('a 403 with remaining 0 does not cool down; exhaustion heals by itself at the reset time', async () => {
    const { pool, request, clock } = setup([a], { a: 'ta' });
    const feedback = await pool.report({
      identity: a,
      route: request.route,
      outcome: {
        kind: 'response',
        status: 403,
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': resetAt(clock, 300_000) },
      },
    });
    expect(feedback).toMatchObject({
      ok: true,
      value: { rule: 'quota_exhausted', cooldown: undefined },
    });
    expect(await pool.acquire(request)).toMatchObject({
      ok: false,
      error: { code: 'identity_pool_depleted' },
    });
    clock.advance(300_000);
    expect(await pool.acquire(request)).toMatchObject({
      ok: true,
      value: { identity: { id: 'a' } },
    });
  });

  it('a 401 on a freshly minted installation token neither cools nor drops the token', async () => {
    const appA = app('app-a', [{ owner: 'octo' }]);
    const { pool, request, log, clock } = setup([appA], { 'app-a': 'ghs_t' });
    const acquired = await pool.acquire(request);
    clock.advance(2_000);
    const feedback = await pool.report({
      identity: appA,
      route: request.route,
      credential: acquired.ok ? acquired.value.credential : undefined,
      outcome: { kind: 'response', status: 401, headers: {} },
    });
    expect(feedback).toMatchObject({
      ok: true,
      value: { rule: 'fresh_token_unauthorized', cooldown: undefined },
    });
    expect(log).not.toContain('invalidate:app-a');
    expect(await pool.acquire(request)).toMatchObject({
      ok: true,
      value: { identity: { id: 'app-a' } },
    });
  });

  it('a 401 on an older token cools the identity globally and drops the cached token', async () => {
    const appA = app('app-a', [{ owner: 'octo' }]);
    const { pool, request, log, clock } = setup([appA], { 'app-a': 'ghs_t' });
    const acquired = await pool.acquire(request);
    clock.advance(60_000);
    await pool.report({
      identity: appA,
      route: request.route,
      credential: acquired.ok ? acquired.value.credential : undefined,
      outcome: { kind: 'response', status: 401, headers: {} },
    });
    expect(log).toContain('invalidate:app-a');
    expect(await pool.acquire(request)).toMatchObject({
      ok: false,
      error: { code: 'identities_cooling_down' },
    });
    clock.advance(COOLDOWN_MS);
    expect(await pool.acquire(request)).toMatchObject({ ok: true });
  });

  it('a 429 cools that bucket only', async () => {
    const { pool, request } = setup([a], { a: 'ta' });
    await pool.report({
      identity: a,
      route: request.route,
      outcome: { kind: 'response', status: 429, headers: {} },
    });
    expect(await pool.acquire(request)).toMatchObject({
      ok: false,
      error: { code: 'forge_rate_limited' },
    });
    const search = {
      ...request,
      route: repoRoute({ kind: 'search_issues', key: 'search', bucket: 'search' }),
    };
    expect(await pool.acquire(search)).toMatchObject({ ok: true });
  });
});

describe('lease property', () => {
  it('a route stays on its identity for the whole lease TTL while that identity is usable', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 2_000 }), { minLength: 1, maxLength: 20 }),
        fc.array(fc.nat(5000), { minLength: 3, maxLength: 3 }),
        async (steps, budgets) => {
          const identities = [a, b, c];
          const { pool, request, clock, coordinator } = setup(identities, {
            a: 'ta',
            b: 'tb',
            c: 'tc',
          });
          const first = await pool.acquire(request);
          if (!first.ok) throw new Error('first selection failed');
          const leasedAt = clock();
          for (const [index, step] of steps.entries()) {
            clock.advance(step);
            const id = identities[index % 3]!.id;
            await coordinator.recordRateState(id, {
              bucket: 'core',
              limit: 5000,
              remaining: budgets[index % 3]! + 1,
              resetAt: clock() + 3_600_000,
              observedAt: clock(),
            });
            const next = await pool.acquire(request);
            if (clock() - leasedAt < LEASE_TTL_MS) {
              expect(next).toMatchObject({
                ok: true,
                value: { identity: { id: first.value.identity.id }, reason: 'sticky' },
              });
            } else {
              expect(next).toMatchObject({ ok: true });
              return;
            }
          }
        },
      ),
    );
  });
});
