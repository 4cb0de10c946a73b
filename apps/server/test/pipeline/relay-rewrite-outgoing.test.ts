import { DEMO } from '@relay/forge-sim';
import { errorBodySchema } from '@relay/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { POOL, startRelayHarness, type RelayHarness } from './relay-harness.js';

/**
 * The string-rewrite check of the requests the relay makes itself (visibility probes), against
 * @relay/forge-sim: a pattern anchored to a path holds for them as for the caller's own path.
 * Each test gets a fresh harness, so that no cached proof or answer hides a request.
 */
const { org, publicRepo } = DEMO;
const REPO = `/repos/${org}/${publicRepo}`;
let h: RelayHarness | undefined;

async function fresh(): Promise<RelayHarness> {
  await h?.close();
  h = await startRelayHarness();
  await h.addPatIdentity('pat-alice', DEMO.users.alice, [{ owner: org, allow_private: false }]);
  await h.setPolicy(POOL, JSON.stringify({ allowed_owners: [org] }));
  h.advance(31_000); // past the policy cache
  h.sim.requests.clear();
  return h;
}

afterAll(async () => {
  await h?.close();
});

describe('requests the relay makes itself', () => {
  it('without a rule, a read of an issue list probes its repository first', async () => {
    const relay = await fresh();
    const answer = await relay.relay({ path: `${REPO}/issues` });
    expect(answer.status).toBe(200);
    expect(relay.sim.requests.find({ path: REPO })).toHaveLength(1);
  });

  it.each([`^${REPO}$`, `^/repos/[a-z]+/${publicRepo}$`, `^/repos/${org}/[a-z]+$`])(
    'a path-anchored pattern (%s) denies the probe: 403, nothing sent',
    async (pattern) => {
      const relay = await fresh();
      await relay.setRewriteRules([{ pattern, replacement: 'x' }]);
      // The caller's path passes the structural check: the pattern is anchored at both ends.
      const answer = await relay.relay({ path: `${REPO}/issues` });
      expect(answer.status).toBe(403);
      expect(errorBodySchema.parse(answer.json).error.code).toBe('string_rewrite_denied');
      expect(answer.text).not.toContain(pattern);
      expect(relay.sim.requests.find({ path: REPO })).toHaveLength(0);
    },
  );
});
