import { DEMO } from '@relay/forge-sim';
import { poolHealthSchema } from '@relay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGovernedRelay, type GovernedRelay } from './governed-relay.js';

/**
 * Issue 27: the real relay-server against a forge-sim that enforces GitHub's documented secondary
 * limits (100 in flight, 900 points a minute per credential). The sim clock is frozen, so the
 * governor's window never slides: one pooled identity can send exactly 720 requests (the default
 * 80 %), and everything past that must be refused by the relay, not by the forge.
 */
const BURST = 900;
let g: GovernedRelay;

beforeAll(async () => {
  g = await startGovernedRelay({
    RELAY_MAX_CALLER_CONCURRENCY: '0',
    RELAY_GOVERNOR_MAX_WAIT_MS: '100',
  });
});
afterAll(async () => {
  await g.close();
});

describe('the upstream governor against a forge enforcing GitHub’s secondary limits', () => {
  it('coalesced duplicates cost one upstream request (the single flight is before the governor)', async () => {
    const path = `/repos/${DEMO.org}/${DEMO.publicRepo}/pulls`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => g.relay(g.callerTokens[i % 2] ?? '', path, {})),
    );
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(g.sim.requests.find({ host: 'api', path })).toHaveLength(1);
  });

  it('a burst of distinct reads from two callers draws no secondary-limit answer, cools no identity, and the excess is refused 424 relay_overloaded', async () => {
    const statuses: number[] = [];
    const reasons = new Map<string, number>();
    let next = 0;
    // 32 requests in flight at once, alternating callers; every read is a distinct page.
    const worker = async () => {
      for (;;) {
        const index = next++;
        if (index >= BURST) return;
        const token = g.callerTokens[index % 2] ?? '';
        const response = await g.relay(token, `/repos/${DEMO.org}/${DEMO.publicRepo}/issues`, {
          per_page: '1',
          page: String(index + 1),
        });
        statuses.push(response.status);
        const body = (await response.json()) as { error?: { reason?: string } };
        if (response.status === 424) {
          const reason = body.error?.reason ?? 'none';
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        }
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));

    const fromForge = g.sim.requests.find({ host: 'api' });
    expect(fromForge.filter((r) => r.fault === 'secondary_limit')).toHaveLength(0);
    const pooled = fromForge.filter((r) => r.credential === 'pat-1');
    // The frozen clock never slides the window: exactly the pace, 80 % of GitHub's 900.
    expect(pooled).toHaveLength(720);
    const served = statuses.filter((s) => s === 200).length;
    const refused = statuses.filter((s) => s === 424).length;
    expect(served + refused).toBe(BURST);
    expect(refused).toBeGreaterThan(0);
    expect([...reasons.keys()]).toEqual(['relay_overloaded']);

    const health = await fetch(`${g.server.url}/v1/pools/team/health`, {
      headers: { authorization: `Bearer ${g.callerTokens[0] ?? ''}` },
    });
    const body = poolHealthSchema.parse(await health.json());
    expect(body.identities_cooling_down).toBe(0);
    expect(body.quota?.core).toMatchObject({ limit: 5000, used_last_minute: pooled.length });
    expect(body.quota?.core?.remaining).toBe(5000 - pooled.length);
    // When the quota runs out at this minute's rate: 4,280 left at 720 a minute, before the reset.
    const minutesLeft = (5000 - pooled.length) / pooled.length;
    expect(body.quota?.core?.exhausts_at).toBe(
      new Date(g.clock.now() + Math.ceil(minutesLeft * 60_000)).toISOString(),
    );
  }, 120_000);
});
