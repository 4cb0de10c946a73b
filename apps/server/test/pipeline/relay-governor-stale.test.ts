import { DEMO } from '@relay/forge-sim';
import { relayEnvelopeSchema } from '@relay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGovernedRelay, type GovernedRelay } from './governed-relay.js';

/**
 * Issue 27: an expired entry read while the upstream governor holds every sender at its pace is
 * served stale, and says so with the closest term of the closed stale vocabulary
 * (`forge_rate_limited`, README "Staying under GitHub's limits"), in an envelope a deployed CLI
 * accepts; without an entry the same read is 424 `relay_overloaded`. The real relay-server against
 * forge-sim enforcing GitHub's documented secondary limits, on a frozen clock, with a pace of 2
 * points a minute per sender so that a few reads saturate it.
 */
let g: GovernedRelay;

beforeAll(async () => {
  g = await startGovernedRelay({
    RELAY_GOVERNOR_POINTS_PER_MINUTE: '2',
    RELAY_GOVERNOR_MAX_WAIT_MS: '0',
  });
});
afterAll(async () => {
  await g.close();
});

const issues = `/repos/${DEMO.org}/${DEMO.publicRepo}/issues`;
const relay = async (page: number) => {
  const response = await g.relay(g.callerTokens[0] ?? '', issues, {
    per_page: '1',
    page: String(page),
  });
  return { status: response.status, json: await response.json() };
};

describe('a stale answer under governor saturation', () => {
  it('is served with stale_reason forge_rate_limited in an envelope the CLI accepts; with no entry the read is 424 relay_overloaded', async () => {
    expect((await relay(1)).status).toBe(200);
    // Past the entry's lifetime and the governor's window: every sender starts afresh.
    g.clock.advance(10 * 60_000);
    // Fill every sender's pace (the anonymous lane's 2, then the identity's 2, visibility probes
    // included) with other pages, until the relay refuses one.
    let page = 2;
    let refused = await relay(page);
    while (refused.status === 200 && page < 12) refused = await relay(++page);
    expect(refused).toMatchObject({
      status: 424,
      json: { error: { code: 'fallback_local', reason: 'relay_overloaded' } },
    });
    const sent = g.sim.requests.find({ host: 'api' }).length;

    const stale = await relay(1);
    expect(stale.status).toBe(200);
    const envelope = relayEnvelopeSchema.parse(stale.json);
    expect(envelope.relay).toMatchObject({
      cache: 'stale',
      stale_ok: true,
      stale_reason: 'forge_rate_limited',
    });
    // Nothing more reached the forge, and it never answered a secondary limit.
    const api = g.sim.requests.find({ host: 'api' });
    expect(api).toHaveLength(sent);
    expect(api.filter((r) => r.fault === 'secondary_limit')).toHaveLength(0);
  });
});
