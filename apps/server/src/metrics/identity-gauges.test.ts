import { createMemoryCoordinator } from '@relay/identity-pool';
import { describe, expect, it } from 'vitest';
import {
  createIdentityGaugeSources,
  MAX_TRACKED_BUCKETS,
  trackRateBuckets,
} from './identity-gauges.js';

const T0 = Date.UTC(2030, 0, 1);

function setup() {
  const clock = { now: T0 };
  const buckets = new Set<string>(['core']);
  const coordinator = trackRateBuckets(createMemoryCoordinator({ now: () => clock.now }), buckets);
  const ids = ['alice-pat', 'app-1', 'idle'];
  const sources = createIdentityGaugeSources({
    coordinator,
    listIdentityIds: () => Promise.resolve(ids),
    buckets,
    now: () => clock.now,
  });
  return { clock, buckets, coordinator, sources };
}

describe('identity gauges', () => {
  it('reports the coordinator rate state of each identity and bucket, fresh again after its reset', async () => {
    const { clock, buckets, coordinator, sources } = setup();
    await coordinator.recordRateState('alice-pat', {
      bucket: 'core',
      limit: 5000,
      remaining: 12,
      resetAt: T0 + 60_000,
      observedAt: T0,
    });
    await coordinator.recordRateState('app-1', {
      bucket: 'search',
      limit: undefined,
      remaining: 0,
      resetAt: T0 + 30_000,
      observedAt: T0,
    });
    expect([...buckets]).toEqual(['core', 'search']);
    expect(await sources.countIdentities()).toBe(3);
    expect(await sources.rateBudgets()).toEqual([
      {
        identity: 'alice-pat',
        bucket: 'core',
        remaining: 12,
        limit: 5000,
        resetAtSeconds: (T0 + 60_000) / 1000,
      },
      {
        identity: 'app-1',
        bucket: 'search',
        remaining: 0,
        limit: undefined,
        resetAtSeconds: (T0 + 30_000) / 1000,
      },
    ]);
    clock.now = T0 + 90_000;
    const healed = await sources.rateBudgets();
    expect(healed.map((b) => [b.identity, b.remaining])).toEqual([
      ['alice-pat', 5000],
      ['app-1', 5000],
    ]);
  });

  it('counts live cooldowns by scope kind and cause, never naming a route key', async () => {
    const { clock, coordinator, sources } = setup();
    await coordinator.addCooldown('alice-pat', {
      scope: { kind: 'route', routeKey: 'issue_list:acme/secret-project' },
      durationMs: 120_000,
      cause: 'failure',
    });
    await coordinator.addCooldown('alice-pat', {
      scope: { kind: 'route', routeKey: 'pull_view:acme/other' },
      durationMs: 120_000,
      cause: 'failure',
    });
    await coordinator.recordCredentialFailure('app-1', 120_000);
    const cooldowns = await sources.cooldowns();
    expect(cooldowns).toEqual([
      { identity: 'alice-pat', scope: 'route', cause: 'failure', count: 2 },
      { identity: 'app-1', scope: 'global', cause: 'credential', count: 1 },
    ]);
    expect(JSON.stringify(cooldowns)).not.toContain('acme');
    clock.now = T0 + 121_000;
    expect(await sources.cooldowns()).toEqual([]);
  });

  it('tracks a bounded number of bucket names', async () => {
    const { buckets, coordinator } = setup();
    for (let i = 0; i < MAX_TRACKED_BUCKETS + 5; i++) {
      await coordinator.recordRateState('alice-pat', {
        bucket: `bucket_${String(i)}`,
        limit: 10,
        remaining: 1,
        resetAt: T0 + 1000,
        observedAt: T0,
      });
    }
    expect(buckets.size).toBe(MAX_TRACKED_BUCKETS);
  });
});
