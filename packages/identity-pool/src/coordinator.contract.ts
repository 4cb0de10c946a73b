import assert from 'node:assert/strict';
import type { Coordinator } from './coordinator.js';
import type { RateState } from './rate-state.js';
import { createFakeClock, type FakeClock } from './__fixtures__/fake-clock.js';

/** What a coordinator implementation gives the contract suite. */
export interface CoordinatorContractSubject {
  /** The coordinator under test, reading time from `clock`. */
  readonly coordinator: Coordinator;
  /** Releases what the coordinator opened (connections, timers). */
  readonly close?: () => Promise<void>;
}

/** The subset of a test framework the contract needs (vitest and node:test both fit). */
export interface CoordinatorContractTestApi {
  readonly describe: (name: string, body: () => void) => unknown;
  readonly it: (name: string, body: () => Promise<void>) => unknown;
}

/**
 * The conformance suite every {@link Coordinator} implementation runs (the in-process one here,
 * the Redis one of relay-server's scale-out in apps/server):
 * `runCoordinatorContract({ describe, it }, 'memory', (clock) => ...)`. Exported as
 * `@relay/identity-pool/testing`.
 *
 * @param api - the test framework's `describe` and `it`
 * @param name - the implementation's name
 * @param create - builds a fresh, empty coordinator reading time from the fake clock
 */
export function runCoordinatorContract(
  api: CoordinatorContractTestApi,
  name: string,
  create: (clock: FakeClock) => CoordinatorContractSubject | Promise<CoordinatorContractSubject>,
): void {
  const { describe, it } = api;
  async function withCoordinator(
    test: (coordinator: Coordinator, clock: FakeClock) => Promise<void>,
  ) {
    const clock = createFakeClock();
    const subject = await create(clock);
    try {
      await test(subject.coordinator, clock);
    } finally {
      await subject.close?.();
    }
  }

  const query = (routeKey = 'route', identityIds: readonly string[] = ['a', 'b']) => ({
    routeKey,
    bucket: 'core',
    identityIds,
  });

  const rate = (
    clock: FakeClock,
    remaining: number,
    resetInMs: number,
    bucket = 'core',
  ): RateState => ({
    bucket,
    limit: 5000,
    remaining,
    resetAt: clock() + resetInMs,
    observedAt: clock(),
  });

  describe(`Coordinator contract: ${name}`, () => {
    it('starts empty', () =>
      withCoordinator(async (coordinator) => {
        const state = await coordinator.readSelectionState(query());
        assert.equal(state.lease, undefined);
        assert.equal(state.cooldowns.size, 0);
        assert.equal(state.rates.size, 0);
      }));

    it('holds a lease for its TTL, then drops it', () =>
      withCoordinator(async (coordinator, clock) => {
        const lease = await coordinator.setLease('route', 'a', 10_000);
        assert.deepEqual(lease, {
          routeKey: 'route',
          identityId: 'a',
          expiresAt: clock() + 10_000,
        });
        clock.advance(9_999);
        assert.equal((await coordinator.readSelectionState(query())).lease?.identityId, 'a');
        clock.advance(1);
        assert.equal((await coordinator.readSelectionState(query())).lease, undefined);
      }));

    it('keeps leases per route key; the last writer wins', () =>
      withCoordinator(async (coordinator) => {
        await coordinator.setLease('one', 'a', 10_000);
        await coordinator.setLease('two', 'b', 10_000);
        await coordinator.setLease('two', 'a', 10_000);
        assert.equal((await coordinator.readSelectionState(query('one'))).lease?.identityId, 'a');
        assert.equal((await coordinator.readSelectionState(query('two'))).lease?.identityId, 'a');
      }));

    it('holds a cooldown until it ends, for the identity it names only', () =>
      withCoordinator(async (coordinator, clock) => {
        const stored = await coordinator.addCooldown('a', {
          scope: { kind: 'bucket', bucket: 'core' },
          durationMs: 120_000,
          cause: 'rate_limited',
        });
        assert.deepEqual(stored, {
          identityId: 'a',
          scope: { kind: 'bucket', bucket: 'core' },
          cause: 'rate_limited',
          until: clock() + 120_000,
        });
        const state = await coordinator.readSelectionState(query());
        assert.deepEqual(state.cooldowns.get('a'), [stored]);
        assert.equal(state.cooldowns.has('b'), false);
        clock.advance(120_000);
        assert.equal((await coordinator.readSelectionState(query())).cooldowns.size, 0);
      }));

    it('keeps cooldowns of different scopes side by side', () =>
      withCoordinator(async (coordinator) => {
        await coordinator.addCooldown('a', {
          scope: { kind: 'global' },
          durationMs: 1_000,
          cause: 'unauthorized',
        });
        await coordinator.addCooldown('a', {
          scope: { kind: 'route', routeKey: 'r' },
          durationMs: 1_000,
          cause: 'failure',
        });
        await coordinator.addCooldown('a', {
          scope: { kind: 'bucket', bucket: 'search' },
          durationMs: 1_000,
          cause: 'rate_limited',
        });
        const listed = await coordinator.listCooldowns(['a']);
        assert.deepEqual(
          listed
            .get('a')
            ?.map((cooldown) => cooldown.scope.kind)
            .sort(),
          ['bucket', 'global', 'route'],
        );
      }));

    it('never shortens a cooldown of the same scope', () =>
      withCoordinator(async (coordinator, clock) => {
        const start = clock();
        await coordinator.addCooldown('a', {
          scope: { kind: 'global' },
          durationMs: 120_000,
          cause: 'unauthorized',
        });
        const shorter = await coordinator.addCooldown('a', {
          scope: { kind: 'global' },
          durationMs: 5_000,
          cause: 'retry_after',
        });
        assert.equal(shorter.until, start + 120_000);
        clock.advance(60_000);
        const longer = await coordinator.addCooldown('a', {
          scope: { kind: 'global' },
          durationMs: 120_000,
          cause: 'secondary_limit',
        });
        assert.equal(longer.until, start + 180_000);
      }));

    it('records a credential failure as a shared global cooldown that each observation extends', () =>
      withCoordinator(async (coordinator, clock) => {
        const start = clock();
        const first = await coordinator.recordCredentialFailure('a', 120_000);
        assert.deepEqual(
          { scope: first.scope, cause: first.cause, until: first.until },
          { scope: { kind: 'global' }, cause: 'credential', until: start + 120_000 },
        );
        clock.advance(100_000);
        const second = await coordinator.recordCredentialFailure('a', 120_000);
        assert.equal(second.until, start + 220_000);
        clock.advance(100_000);
        assert.equal((await coordinator.readSelectionState(query())).cooldowns.get('a')?.length, 1);
        clock.advance(20_000);
        assert.equal((await coordinator.readSelectionState(query())).cooldowns.size, 0);
      }));

    it('lists live cooldowns for health reports', () =>
      withCoordinator(async (coordinator, clock) => {
        await coordinator.recordCredentialFailure('a', 120_000);
        await coordinator.addCooldown('b', {
          scope: { kind: 'global' },
          durationMs: 1_000,
          cause: 'failure',
        });
        clock.advance(1_000);
        const listed = await coordinator.listCooldowns(['a', 'b', 'c']);
        assert.deepEqual([...listed.keys()], ['a']);
      }));

    it('returns rate state per identity for the requested bucket', () =>
      withCoordinator(async (coordinator, clock) => {
        await coordinator.recordRateState('a', rate(clock, 4000, 60_000));
        await coordinator.recordRateState('a', rate(clock, 20, 60_000, 'search'));
        const state = await coordinator.readSelectionState(query());
        assert.equal(state.rates.get('a')?.remaining, 4000);
        assert.equal(state.rates.has('b'), false);
        const search = await coordinator.readSelectionState({ ...query(), bucket: 'search' });
        assert.equal(search.rates.get('a')?.remaining, 20);
      }));

    it('keeps the lowest remaining within a window and the latest window across windows', () =>
      withCoordinator(async (coordinator, clock) => {
        await coordinator.recordRateState('a', rate(clock, 100, 60_000));
        await coordinator.recordRateState('a', rate(clock, 300, 60_000));
        assert.equal(
          (await coordinator.readSelectionState(query())).rates.get('a')?.remaining,
          100,
        );
        await coordinator.recordRateState('a', rate(clock, 4999, 3_660_000));
        assert.equal(
          (await coordinator.readSelectionState(query())).rates.get('a')?.remaining,
          4999,
        );
        await coordinator.recordRateState('a', rate(clock, 1, 60_000));
        assert.equal(
          (await coordinator.readSelectionState(query())).rates.get('a')?.remaining,
          4999,
        );
      }));

    it('keeps the longest of concurrent cooldowns of one scope, whatever their order', () =>
      withCoordinator(async (coordinator, clock) => {
        const start = clock();
        const durations = [30_000, 120_000, 5_000, 90_000, 119_999, 60_000, 1_000, 45_000];
        const stored = await Promise.all(
          durations.map((durationMs) =>
            coordinator.addCooldown('a', {
              scope: { kind: 'bucket', bucket: 'core' },
              durationMs,
              cause: 'failure',
            }),
          ),
        );
        // Each answer is what was stored when it ran: never shorter than its own request.
        stored.forEach((cooldown, index) => {
          assert.ok(cooldown.until >= start + (durations[index] ?? 0));
        });
        const listed = await coordinator.listCooldowns(['a']);
        assert.deepEqual(
          listed.get('a')?.map((cooldown) => cooldown.until),
          [start + 120_000],
        );
      }));

    it('serves many route keys independently', () =>
      withCoordinator(async (coordinator) => {
        for (let index = 0; index < 500; index += 1)
          await coordinator.setLease(`r${index}`, `i${index % 7}`, 10_000);
        for (let index = 0; index < 500; index += 7) {
          assert.equal(
            (await coordinator.readSelectionState(query(`r${index}`))).lease?.identityId,
            `i${index % 7}`,
          );
        }
      }));
  });
}
