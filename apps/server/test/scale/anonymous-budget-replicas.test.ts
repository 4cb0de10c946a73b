import { DEMO } from '@relay/forge-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS_SPENT_MAX_MS } from '../../src/pipeline/token-free-lanes.js';
import { REDIS_AVAILABLE } from '../../src/scale/__fixtures__/test-redis.js';
import { POSTGRES_AVAILABLE } from '../../src/storage/__fixtures__/test-databases.js';
import { startReplicaSet, type ReplicaSet } from './redis-cache-fixture.js';

/**
 * Issue 25 item 2, the anonymous lane's spent state: two relay-servers on one PostgreSQL schema
 * and one Redis prefix against one forge-sim whose anonymous quota is spent. Once replica A has
 * been refused, neither replica sends the anonymous lane another request until the window
 * resets; then both ask again.
 */
const REPO = `/repos/${DEMO.org}/${DEMO.publicRepo}`;
const A = 0;
const B = 1;

describe.runIf(POSTGRES_AVAILABLE && REDIS_AVAILABLE)(
  'two replicas share the anonymous lane’s spent state through Redis',
  () => {
    let set: ReplicaSet;

    beforeAll(async () => {
      set = await startReplicaSet(2, undefined, { pooledIdentity: true });
    }, 60_000);

    afterAll(async () => {
      await set.close();
    });

    const anonymousRequests = () =>
      set.sim.requests.find({ host: 'api' }).filter((r) => r.credential === 'anonymous').length;

    it('a bucket A found spent is skipped by A and B until its reset, then asked again', async () => {
      set.sim.rateLimits.exhaust({ anonymous: '127.0.0.1' });
      const before = anonymousRequests();

      // A: the visibility probe is refused (spent): A records it; the release read, anonymous
      // only, is not sent and answers 424 web_only_unavailable.
      const first = await set.relay(A, `${REPO}/releases`);
      expect(first.status).toBe(424);
      expect(first.json.error?.reason).toBe('web_only_unavailable');
      expect(anonymousRequests() - before).toBe(1);

      // B has sent nothing anonymously yet: it knows the bucket spent from Redis.
      const onB = await set.relay(B, `${REPO}/releases/latest`);
      expect(onB.status).toBe(424);
      expect(onB.json.error?.reason).toBe('web_only_unavailable');
      // An anonymous-first read on B goes straight to the pooled identity.
      const pooled = await set.relay(B, `${REPO}/issues`);
      expect(pooled.status).toBe(200);
      expect(pooled.json.identity).toMatchObject({ id: 'alice' });
      const again = await set.relay(A, `${REPO}/tags`);
      expect(again.status).toBe(200);
      expect(anonymousRequests() - before).toBe(1);

      // The window resets (the mark is bounded to an hour): both replicas ask again, and the
      // answer with budget left clears the mark for both.
      set.sim.clock.advance(ANONYMOUS_SPENT_MAX_MS + 1_000);
      const reset = await set.relay(B, `${REPO}/releases`);
      expect(reset.status).toBe(200);
      expect(reset.json.relay?.backend).toBe('forge_public');
      const afterReset = anonymousRequests();
      expect(afterReset - before).toBeGreaterThan(1);
      const onA = await set.relay(A, `${REPO}/releases/latest`);
      expect(onA.status).toBe(200);
      expect(anonymousRequests()).toBeGreaterThan(afterReset);
    });
  },
);
