import { describe, expect, it } from 'vitest';
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

/**
 * The conformance suite every {@link Coordinator} implementation runs (the in-process one now, a
 * Redis one for scale-out later): `runCoordinatorContract('memory', (clock) => ...)`.
 *
 * @param name - the implementation's name
 * @param create - builds a fresh, empty coordinator reading time from the fake clock
 */
export function runCoordinatorContract(
  name: string,
  create: (clock: FakeClock) => CoordinatorContractSubject | Promise<CoordinatorContractSubject>,
): void {
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
        expect(state.lease).toBeUndefined();
        expect(state.cooldowns.size).toBe(0);
        expect(state.rates.size).toBe(0);
      }));

    it('holds a lease for its TTL, then drops it', () =>
      withCoordinator(async (coordinator, clock) => {
        const lease = await coordinator.setLease('route', 'a', 10_000);
        expect(lease).toEqual({ routeKey: 'route', identityId: 'a', expiresAt: clock() + 10_000 });
        clock.advance(9_999);
        expect((await coordinator.readSelectionState(query())).lease?.identityId).toBe('a');
        clock.advance(1);
        expect((await coordinator.readSelectionState(query())).lease).toBeUndefined();
      }));

    it('keeps leases per route key; the last writer wins', () =>
      withCoordinator(async (coordinator) => {
        await coordinator.setLease('one', 'a', 10_000);
        await coordinator.setLease('two', 'b', 10_000);
        await coordinator.setLease('two', 'a', 10_000);
        expect((await coordinator.readSelectionState(query('one'))).lease?.identityId).toBe('a');
        expect((await coordinator.readSelectionState(query('two'))).lease?.identityId).toBe('a');
      }));

    it('holds a cooldown until it ends, for the identity it names only', () =>
      withCoordinator(async (coordinator, clock) => {
        const stored = await coordinator.addCooldown('a', {
          scope: { kind: 'bucket', bucket: 'core' },
          durationMs: 120_000,
          cause: 'rate_limited',
        });
        expect(stored).toEqual({
          identityId: 'a',
          scope: { kind: 'bucket', bucket: 'core' },
          cause: 'rate_limited',
          until: clock() + 120_000,
        });
        const state = await coordinator.readSelectionState(query());
        expect(state.cooldowns.get('a')).toEqual([stored]);
        expect(state.cooldowns.has('b')).toBe(false);
        clock.advance(120_000);
        expect((await coordinator.readSelectionState(query())).cooldowns.size).toBe(0);
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
        expect(
          listed
            .get('a')
            ?.map((cooldown) => cooldown.scope.kind)
            .sort(),
        ).toEqual(['bucket', 'global', 'route']);
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
        expect(shorter.until).toBe(start + 120_000);
        clock.advance(60_000);
        const longer = await coordinator.addCooldown('a', {
          scope: { kind: 'global' },
          durationMs: 120_000,
          cause: 'secondary_limit',
        });
        expect(longer.until).toBe(start + 180_000);
      }));

    it('records a credential failure as a shared global cooldown that each observation extends', () =>
      withCoordinator(async (coordinator, clock) => {
        const start = clock();
        const first = await coordinator.recordCredentialFailure('a', 120_000);
        expect(first).toMatchObject({
          scope: { kind: 'global' },
          cause: 'credential',
          until: start + 120_000,
        });
        clock.advance(100_000);
        const second = await coordinator.recordCredentialFailure('a', 120_000);
        expect(second.until).toBe(start + 220_000);
        clock.advance(100_000);
        expect((await coordinator.readSelectionState(query())).cooldowns.get('a')).toHaveLength(1);
        clock.advance(20_000);
        expect((await coordinator.readSelectionState(query())).cooldowns.size).toBe(0);
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
        expect([...listed.keys()]).toEqual(['a']);
      }));

    it('returns rate state per identity for the requested bucket', () =>
      withCoordinator(async (coordinator, clock) => {
        await coordinator.recordRateState('a', rate(clock, 4000, 60_000));
        await coordinator.recordRateState('a', rate(clock, 20, 60_000, 'search'));
        const state = await coordinator.readSelectionState(query());
        expect(state.rates.get('a')?.remaining).toBe(4000);
        expect(state.rates.has('b')).toBe(false);
        const search = await coordinator.readSelectionState({ ...query(), bucket: 'search' });
        expect(search.rates.get('a')?.remaining).toBe(20);
      }));

    it('keeps the lowest remaining within a window and the latest window across windows', () =>
      withCoordinator(async (coordinator, clock) => {
        await coordinator.recordRateState('a', rate(clock, 100, 60_000));
        await coordinator.recordRateState('a', rate(clock, 300, 60_000));
        expect((await coordinator.readSelectionState(query())).rates.get('a')?.remaining).toBe(100);
        await coordinator.recordRateState('a', rate(clock, 4999, 3_660_000));
        expect((await coordinator.readSelectionState(query())).rates.get('a')?.remaining).toBe(
          4999,
        );
        await coordinator.recordRateState('a', rate(clock, 1, 60_000));
        expect((await coordinator.readSelectionState(query())).rates.get('a')?.remaining).toBe(
          4999,
        );
      }));

    it('serves many route keys independently', () =>
      withCoordinator(async (coordinator) => {
        for (let index = 0; index < 500; index += 1)
          await coordinator.setLease(`r${index}`, `i${index % 7}`, 10_000);
        for (let index = 0; index < 500; index += 7) {
          expect((await coordinator.readSelectionState(query(`r${index}`))).lease?.identityId).toBe(
            `i${index % 7}`,
          );
        }
      }));
  });
}
