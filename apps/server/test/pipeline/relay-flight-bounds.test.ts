import { createSingleFlight, type CacheEntry, type SingleFlight } from '@relay/cache';
import { DEMO } from '@relay/forge-sim';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRelayHarness, type RelayHarness } from './relay-harness.js';

/**
 * A flight that spans processes (Redis, several replicas) looks at the cache again once taken: an
 * identical flight of another replica may have just stored the answer. That second look is judged
 * by the bound of the request that took the flight; a request that joined it keeps its own
 * (SPEC.md "Relay request" rule 4: max-age=0 never returns an unvalidated cached success).
 *
 * The harness runs one process, so the cross-process group is this process's single flight that
 * says it spans processes, and the cache store is wrapped to order the reads: the first read of
 * the flight's leader misses the entry (another replica stored it just after), and the leader's
 * second look waits until the strict request has joined its flight.
 */
const { org, publicRepo } = DEMO;
const REPO = `/repos/${org}/${publicRepo}`;
const PATH = `${REPO}/tags`;

/** What the next reads of {@link PATH}'s entry do: miss it, wait for `release`, or pass. */
type ReadStep = 'absent' | 'held' | 'pass';
const steps: ReadStep[] = [];
let held: { reached: () => void; release: Promise<void> } | undefined;
let onJoin: (() => void) | undefined;
let h: RelayHarness;

function crossProcessFlights<T>(): SingleFlight<T> {
  const inner = createSingleFlight<T>();
  return {
    spansProcesses: true,
    coalescedCount: () => inner.coalescedCount(),
    inFlightCount: () => inner.inFlightCount(),
    run: (key, fetch) => {
      if (inner.inFlightCount() > 0) onJoin?.();
      return inner.run(key, fetch);
    },
  };
}

beforeAll(async () => {
  h = await startRelayHarness({
    override: (deps) => ({
      ...deps,
      createFlights: crossProcessFlights,
      cache: {
        ...deps.cache,
        get: async (key: string): Promise<CacheEntry | undefined> => {
          const step = key.includes(PATH) ? (steps.shift() ?? 'pass') : 'pass';
          const entry = await deps.cache.get(key);
          if (step === 'absent') return undefined;
          if (step === 'held' && held !== undefined) {
            held.reached();
            await held.release;
          }
          return entry;
        },
      },
    }),
  });
  await h.addPatIdentity('pat-alice', DEMO.users.alice, [{ owner: org, allow_private: false }]);
});
afterAll(async () => {
  await h.close();
});

it('a request with max-age=0 that joins a flight never takes the hit of its second look', async () => {
  await h.relay({ path: `${REPO}/branches` }); // proves the repository public
  expect((await h.relay({ path: PATH })).json.relay.cache).toBe('miss');
  h.sim.requests.clear();
  h.audits.length = 0;

  let release = (): void => undefined;
  let reached = (): void => undefined;
  const leaderInFlight = new Promise<void>((resolve) => (reached = resolve));
  held = { reached, release: new Promise<void>((resolve) => (release = resolve)) };
  const joined = new Promise<void>((resolve) => (onJoin = resolve));
  steps.push('absent', 'held');

  const leader = h.relay({ path: PATH });
  await leaderInFlight;
  const strict = h.relay({ path: PATH, headers: { 'cache-control': 'max-age=0' } });
  await joined;
  release();
  const [leaderAnswer, strictAnswer] = await Promise.all([leader, strict]);

  // The leader has no bound: the entry its second look found is a hit for it.
  expect(leaderAnswer.json.relay.cache).toBe('hit');
  // The strict request was validated upstream, not served the entry.
  expect(strictAnswer.status).toBe(200);
  expect(strictAnswer.json.relay.cache).toBe('miss');
  expect(strictAnswer.json.body).toEqual(leaderAnswer.json.body);
  expect(h.sim.requests.find({ path: PATH }).length).toBeGreaterThanOrEqual(1);
  // It went upstream itself: not audited as a coalesced duplicate.
  expect(h.audits.filter((a) => a.coalesced)).toEqual([]);
});
