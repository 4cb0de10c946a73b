import { DEMO } from '@relay/forge-sim';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedPrivateWorld, type PrivateWorld } from './public-only-world.js';
import { OTHER_POOL, startRelayHarness, type RelayHarness } from './relay-harness.js';

const REPO = `/repos/${DEMO.org}/${DEMO.publicRepo}`;

let h: RelayHarness;
let w: PrivateWorld;

beforeEach(async () => {
  h = await startRelayHarness({ maxCallerConcurrency: 2 });
  w = await seedPrivateWorld(h);
});

afterEach(async () => {
  await h.close();
});

describe('per-caller concurrency (RELAY_MAX_CALLER_CONCURRENCY)', () => {
  it('answers a caller’s excess 424 relay_overloaded while another caller is served', async () => {
    // Every read of the repository's issues waits upstream, holding its request open.
    h.sim.faults.inject({ pathPrefix: `${REPO}/issues`, action: { kind: 'latency', ms: 300 } });
    const paths = [1, 2, 3, 4].map((n) => ({ path: `${REPO}/issues`, query: { page: String(n) } }));
    const greedy = paths.map((body) => h.relay(body));
    // Another caller, meanwhile, is not queued behind the first one's requests.
    const other = h.relay({ pool: OTHER_POOL, path: `${REPO}/labels` }, w.callers.bob);
    const answers = await Promise.all(greedy);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 424, 424]);
    for (const answer of answers.filter((a) => a.status === 424)) {
      expect(answer.json.error).toMatchObject({
        code: 'fallback_local',
        reason: 'relay_overloaded',
      });
    }
    expect((await other).status).toBe(200);
    // The slots are released: the caller is served again.
    expect((await h.relay({ path: `${REPO}/issues` })).status).toBe(200);
    const overloaded = h.audits.filter((a) => a.fallbackReason === 'relay_overloaded');
    expect(overloaded).toHaveLength(2);
  });

  it('runs no string-rewrite check for the excess: it holds no place in the check queue', async () => {
    let snapshotsLoaded = 0;
    const counted = await startRelayHarness({
      maxCallerConcurrency: 1,
      override: (deps) => ({
        ...deps,
        loadRewriteSnapshot: () => {
          snapshotsLoaded++;
          return deps.loadRewriteSnapshot();
        },
      }),
    });
    try {
      counted.sim.faults.inject({
        pathPrefix: `${REPO}/issues`,
        action: { kind: 'latency', ms: 200 },
      });
      const answers = await Promise.all(
        [1, 2, 3].map(() => counted.relay({ path: `${REPO}/issues` })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 424, 424]);
      expect(snapshotsLoaded).toBe(1);
    } finally {
      await counted.close();
    }
  });

  it('releases a slot when a request fails unexpectedly', async () => {
    h.sim.faults.inject({ pathPrefix: `${REPO}/labels`, action: { kind: 'reset' } });
    for (let i = 0; i < 4; i++) await h.relay({ path: `${REPO}/labels` });
    h.sim.faults.clear();
    expect((await h.relay({ path: `${REPO}/labels` })).status).toBe(200);
  });
});
