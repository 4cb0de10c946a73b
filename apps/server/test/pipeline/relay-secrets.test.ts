import { DEMO } from '@relay/forge-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startRelayHarness, type RelayHarness } from './relay-harness.js';

/**
 * No caller token, admin token or pooled secret ever reaches the forge — except the pooled
 * credential, in Authorization, to the API host — or appears in a response or a log line.
 */
const { org, publicRepo } = DEMO;
const REPO = `/repos/${org}/${publicRepo}`;
let h: RelayHarness;
let patToken: string;
let foreignToken: string;

beforeAll(async () => {
  h = await startRelayHarness();
  patToken = await h.addPatIdentity('pat-alice', DEMO.users.alice, [
    { owner: org, allow_private: false },
  ]);
  foreignToken = h.sim.tokens.addPat({ login: DEMO.users.bob }).token;
  h.sim.rateLimits.exhaust({ anonymous: '127.0.0.1' });
  const reads = [
    { path: REPO },
    { path: `${REPO}/issues` },
    { path: `${REPO}/actions/jobs/${String(h.ids.jobId)}/logs` },
    {
      path: `${REPO}/pulls/${String(h.ids.pullNumber)}`,
      headers: { accept: 'application/vnd.github.patch' },
    },
    { path: '/rate_limit' },
    { path: '/user' },
    { path: `/repos/${org}/${DEMO.privateRepo}` },
    { path: `${REPO}/branches/main/protection` },
    // Caller-supplied credentials are dropped, never forwarded.
    {
      path: `${REPO}/labels`,
      headers: { authorization: `token ${foreignToken}`, cookie: `session=${foreignToken}` },
    },
    { path: `${REPO}/topics`, headers: { 'x-api-key': ADMIN_TOKEN } },
  ];
  for (const read of reads) await h.relay(read);
  await h.relay({ path: `${REPO}/releases` }, ADMIN_TOKEN);
}, 30_000);
afterAll(async () => {
  await h.close();
});

describe('secrets', () => {
  it('sends the pooled credential to the API host only', () => {
    const authenticated = h.sim.requests.entries.filter((r) => r.credential !== 'anonymous');
    expect(authenticated.length).toBeGreaterThan(0);
    expect(new Set(authenticated.map((r) => r.credential))).toEqual(new Set(['pat-1']));
    expect(authenticated.every((r) => r.host === 'api')).toBe(true);
    const otherHosts = h.sim.requests.entries.filter((r) => r.host !== 'api');
    expect(otherHosts.map((r) => r.host).sort()).toEqual(['log', 'web']);
    expect(otherHosts.every((r) => r.credential === 'anonymous')).toBe(true);
  });

  it('never forwards a caller or admin token, nor a caller-supplied credential', () => {
    const labels = new Set(h.sim.requests.entries.map((r) => r.credential));
    expect([...labels].sort()).toEqual(['anonymous', 'pat-1']);
    const queries = h.sim.requests.entries.map((r) => r.query).join('\n');
    for (const secret of [h.callerToken, ADMIN_TOKEN, patToken, foreignToken]) {
      expect(queries).not.toContain(secret);
    }
  });

  it('never shows a token, secret or binding name in a response, an audit row or a log line', () => {
    const everything = h.logLines.join('\n');
    expect(everything.length).toBeGreaterThan(0);
    for (const secret of [h.callerToken, ADMIN_TOKEN, patToken, foreignToken, 'secret_pat-alice']) {
      expect(everything).not.toContain(secret);
    }
    expect(JSON.stringify(h.audits)).not.toContain(patToken);
  });
});
