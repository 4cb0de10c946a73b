import { DEMO } from '@relay/forge-sim';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRelayHarness, type RelayHarness } from './relay-harness.js';

/**
 * Issue 23 item 3: visibility proofs that cost no quota, counted at forge-sim. The anonymous
 * lane is exhausted in every test, so each proof is a pooled probe of the repository's metadata
 * (`GET /repos/{owner}/{repo}`), which the proof lifetime (60 s) makes the relay repeat.
 */
const { org, publicRepo } = DEMO;
const REPO = `/repos/${org}/${publicRepo}`;
const PROOF_MS = 60_000;
let h: RelayHarness;

beforeAll(async () => {
  h = await startRelayHarness();
  await h.addPatIdentity('pat-alice', DEMO.users.alice, [{ owner: org, allow_private: false }]);
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.advance(3_600_000); // every entry, proof, cooldown and lease of an earlier test has ended
  h.sim.requests.clear();
  h.sim.rateLimits.reset();
  h.sim.rateLimits.exhaust({ anonymous: '127.0.0.1' });
});

/**
 * The pooled metadata requests of the repository: probes, and repository reads when a test makes
 * them (the anonymous probe a test may start with is refused: its quota is exhausted). Probe ETags
 * outlive a test, so a test's first probe may already be a 304.
 */
const metadata = () =>
  h.sim.requests
    .find({ path: REPO })
    .filter((r) => r.credential !== 'anonymous')
    .map((r) => `${r.credential} ${String(r.status)}`);

/** What the pooled identity's core bucket has spent, from forge-sim's free GET /rate_limit. */
async function pooledQuota(): Promise<number> {
  const answer = await h.relay({ path: '/rate_limit' });
  return (answer.json.body as { resources: { core: { used: number } } }).resources.core.used;
}

describe('visibility proofs without quota', () => {
  it('an expired proof is renewed by a conditional probe: a 304, not a charged 200', async () => {
    expect((await h.relay({ path: `${REPO}/labels` })).json.status).toBe(200);
    h.advance(PROOF_MS + 1_000);
    expect((await h.relay({ path: `${REPO}/milestones` })).json.status).toBe(200);
    h.advance(PROOF_MS + 1_000);
    expect((await h.relay({ path: `${REPO}/branches` })).json.status).toBe(200);
    // Three proofs: the first charged (a 200, unless an earlier test left its ETag), then two
    // free 304s from the identity that holds the ETag.
    const proofs = metadata();
    expect(proofs.slice(1)).toEqual(['pat-1 304', 'pat-1 304']);
    // The reads themselves (three charged 200s) and a first probe that was a 200; 304s are free.
    expect(await pooledQuota()).toBe(3 + proofs.filter((p) => p.endsWith(' 200')).length);
  });

  it('a repository that turned private is refused at the next proof, conditional or not', async () => {
    expect((await h.relay({ path: `${REPO}/labels` })).json.status).toBe(200);
    const repo = h.sim.world.getRepo(org, publicRepo);
    if (repo === undefined) throw new Error('no demo repository');
    const wasPrivate = repo.private;
    repo.private = true;
    h.sim.world.touch();
    try {
      h.advance(PROOF_MS + 1_000);
      const refused = await h.relay({ path: `${REPO}/milestones` });
      expect(refused.json).toMatchObject({ error: { code: 'fallback_local' } });
      // The conditional probe's ETag no longer matches: a 200 that says private.
      expect(metadata()).toHaveLength(2);
      expect(metadata()[1]).toBe('pat-1 200');
    } finally {
      repo.private = wasPrivate;
      h.sim.world.touch();
    }
  });

  it('a run list renews the proof from the repository each run embeds (no probe)', async () => {
    await h.relay({ path: `${REPO}/labels` });
    h.advance(30_000);
    expect((await h.relay({ path: `${REPO}/actions/runs` })).json.status).toBe(200);
    h.advance(45_000); // 75 s after the first proof, 45 s after the run list
    await h.relay({ path: `${REPO}/milestones` });
    expect(metadata()).toHaveLength(1);
  });

  it('a pull request list renews the proof from each pull request base repository', async () => {
    await h.relay({ path: `${REPO}/labels` });
    h.advance(30_000);
    expect((await h.relay({ path: `${REPO}/pulls`, query: { state: 'all' } })).json.status).toBe(
      200,
    );
    h.advance(45_000);
    await h.relay({ path: `${REPO}/milestones` });
    expect(metadata()).toHaveLength(1);
  });

  it('a 304 refill confirms the stored body, and the repository it embeds renews the proof', async () => {
    const status = `${REPO}/commits/main/status`;
    await h.relay({ path: status }); // proof at 0 s; the combined status stored at 0 s
    h.advance(30_000);
    await h.relay({ path: REPO }); // a repository read at 30 s renews the proof until 90 s
    h.advance(35_000);
    const refill = await h.relay({ path: status }); // 65 s: expired entry, 304 from its owner
    expect(refill.json.relay).toMatchObject({ cache: 'miss' });
    const pooled = h.sim.requests
      .find({ path: status })
      .filter((r) => r.credential !== 'anonymous');
    expect(pooled.map((r) => r.status)).toEqual([200, 304]);
    h.advance(35_000); // 100 s: only the 304 at 65 s can have renewed the proof
    await h.relay({ path: `${REPO}/labels` });
    expect(metadata()).toHaveLength(2); // the probe at 0 s and the repository read at 30 s
  });
});

describe('a run list confirms the run views it covers', () => {
  const runView = () => `${REPO}/actions/runs/${String(h.ids.runId)}`;
  const viewRequests = () =>
    h.sim.requests.find({ path: runView() }).filter((r) => r.credential !== 'anonymous').length;

  it('a run view stored before a run list that shows it unchanged stays fresh from the list', async () => {
    expect((await h.relay({ path: runView() })).json.relay).toMatchObject({ cache: 'miss' });
    h.advance(50_000);
    await h.relay({ path: `${REPO}/actions/runs` }); // at 50 s, its item equals the stored view
    h.advance(30_000); // 80 s: the view's own answer would have expired at 60 s
    expect((await h.relay({ path: runView() })).json.relay).toMatchObject({ cache: 'hit' });
    expect(viewRequests()).toBe(1);
    h.advance(31_000); // 111 s: 61 s after the list, the view is refilled
    expect((await h.relay({ path: runView() })).json.relay).toMatchObject({ cache: 'miss' });
    expect(viewRequests()).toBe(2);
  });

  it('a run that changed since is not confirmed: the view is refilled', async () => {
    const repo = h.sim.world.getRepo(org, publicRepo);
    const run = repo?.runs.get(h.ids.runId);
    if (run === undefined) throw new Error('no demo run');
    const first = await h.relay({ path: runView() });
    h.advance(50_000);
    run.updatedAt += 1_000;
    h.sim.world.touch();
    await h.relay({ path: `${REPO}/actions/runs` });
    h.advance(30_000);
    const refill = await h.relay({ path: runView() });
    expect(refill.json.relay).toMatchObject({ cache: 'miss' });
    expect(refill.json.body.updated_at).not.toBe(first.json.body.updated_at);
    expect(viewRequests()).toBe(2);
  });
});
