/**
 * @relay/identity-pool/testing: the {@link Coordinator} contract suite, for every implementation
 * to run, and the fake clock it drives.
 *
 * @example
 * ```ts
 * import { describe, it } from 'vitest';
 * import { runCoordinatorContract } from '@relay/identity-pool/testing';
 * runCoordinatorContract({ describe, it }, 'redis', (clock) => ({ coordinator: create(clock) }));
 * ```
 */
export { runCoordinatorContract } from './coordinator.contract.js';
export type {
  CoordinatorContractSubject,
  CoordinatorContractTestApi,
} from './coordinator.contract.js';
export { createFakeClock } from './__fixtures__/fake-clock.js';
export type { FakeClock } from './__fixtures__/fake-clock.js';
export type { Coordinator } from './coordinator.js';
