import { describe, expect, it } from 'vitest';
import { runCoordinatorContract } from './coordinator.contract.js';
import { createMemoryCoordinator } from './memory-coordinator.js';
import { createFakeClock } from './__fixtures__/fake-clock.js';

runCoordinatorContract({ describe, it }, 'memory', (clock) => ({
  coordinator: createMemoryCoordinator({ now: clock }),
}));

runCoordinatorContract({ describe, it }, 'memory with eager sweeping', (clock) => ({
  coordinator: createMemoryCoordinator({ now: clock, sweepThreshold: 2 }),
}));

describe('createMemoryCoordinator', () => {
  it('sweeps ended leases and cooldowns so live state stays readable', async () => {
    const clock = createFakeClock();
    const coordinator = createMemoryCoordinator({ now: clock, sweepThreshold: 4 });
    for (let index = 0; index < 50; index += 1) {
      await coordinator.setLease(`old${index}`, 'a', 1_000);
      await coordinator.addCooldown(`id${index}`, {
        scope: { kind: 'global' },
        durationMs: 1_000,
        cause: 'failure',
      });
    }
    clock.advance(1_000);
    await coordinator.setLease('fresh', 'b', 1_000);
    await coordinator.addCooldown('fresh', {
      scope: { kind: 'global' },
      durationMs: 1_000,
      cause: 'failure',
    });
    const state = await coordinator.readSelectionState({
      routeKey: 'fresh',
      bucket: 'core',
      identityIds: ['fresh', 'id0'],
    });
    expect(state.lease?.identityId).toBe('b');
    expect([...state.cooldowns.keys()]).toEqual(['fresh']);
  });
});
