import { DEMO } from '@relay/forge-sim';
import { relayEnvelopeSchema } from '@relay/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VIEWER_RELATIVE_REPOSITORY_FIELDS } from '../../src/pipeline/public-only-screen.js';
import { startRelayHarness, type RelayHarness } from './relay-harness.js';

/**
 * The shared cache in the pipeline (SPEC.md "Cache result"), the envelope fields, stale serving
 * and revalidation, against @relay/forge-sim.
 */
const { org, publicRepo } = DEMO;
const REPO = `/repos/${org}/${publicRepo}`;
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
  h.audits.length = 0;
});

const upstream = (path: string) => h.sim.requests.find({ path });

describe('envelope', () => {
  it('carries every field on an anonymous miss, then a hit without upstream contact', async () => {
    const first = await h.relay({ path: `${REPO}/labels` });
    expect(first.status).toBe(200);
    const envelope = relayEnvelopeSchema.parse(first.json);
    expect(envelope).toMatchObject({
      status: 200,
      body_encoding: 'json',
      identity: null,
      relay: {
        pool: 'team',
        request_id: first.headers.get('x-relay-request-id'),
        cacheable: true,
        cache: 'miss',
        stale_ok: false,
        route_kind: 'label_list',
        backend: 'forge_public',
      },
    });
    expect(envelope.relay).not.toHaveProperty('lease_reason');
    expect(envelope.relay).not.toHaveProperty('stale_reason');
    expect(envelope.headers['content-type']).toMatch(/json/);
    expect(upstream(`${REPO}/labels`).map((r) => r.credential)).toEqual(['anonymous']);

    const second = await h.relay({ path: `${REPO}/labels` });
    expect(second.json.relay).toMatchObject({ cache: 'hit', backend: 'forge_public' });
    expect(second.json.identity).toBeNull();
    expect(second.json.body).toEqual(first.json.body);
    expect(upstream(`${REPO}/labels`)).toHaveLength(1);
    expect(h.audits.map((a) => [a.cacheResult, a.backend])).toEqual([
      ['miss', 'forge_api'],
      ['hit', null],
    ]);
  });

  it('reduces repository views to public metadata (no token-specific fields)', async () => {
    h.sim.rateLimits.exhaust({ anonymous: '127.0.0.1' });
    const answer = await h.relay({ path: REPO });
    expect(answer.json.identity).toEqual({ id: 'pat-alice', kind: 'pat' });
    expect(answer.json.body.full_name).toBe(`${org}/${publicRepo}`);
    expect(answer.json.body).not.toHaveProperty('permissions');
    expect(answer.json.body).not.toHaveProperty('security_and_analysis');
  });

  it('carries the forge’s own JSON text in the envelope, on the miss and on every hit', async () => {
    const path = `${REPO}/issues`;
    // Bytes JSON.stringify would not write: whitespace, 1.0, escapes, a big integer, key order.
    const text =
      '[\n  {"id": 12345678901234567890, "score": 1.0, "title": "\\u003cb\\u003e", "+1": 1, "100": 2}\n]\n';
    h.sim.faults.inject({
      path,
      times: 1,
      action: { kind: 'status', status: 200, bodyText: text },
    });
    const miss = await h.relay({ path });
    expect(miss.json.relay.cache).toBe('miss');
    expect(miss.text).toContain(`"body":${text},"body_encoding":"json"`);
    expect(miss.json.body).toEqual(JSON.parse(text));
    const hit = await h.relay({ path });
    expect(hit.json.relay.cache).toBe('hit');
    expect(hit.text).toContain(`"body":${text},"body_encoding":"json"`);
    expect(upstream(path)).toHaveLength(1);
  });

  it('serves JSON too deep to serialize again as its exact bytes (text), not an error', async () => {
    const path = `${REPO}/issues`;
    const text = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    h.sim.faults.inject({
      path,
      times: 1,
      action: { kind: 'status', status: 200, bodyText: text },
    });
    const answer = await h.relay({ path });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ status: 200, body_encoding: 'text', body: text });
  });

  it.each([
    // Removed by the public-only screen (viewer-relative fields of any repository object).
    ['screened', { permissions: { admin: true }, temp_clone_token: 'SECRET-TCT' }],
    // Removed only by the repo_view reducer (fields GitHub shows to writers, unknown fields).
    ['reduced', { custom_properties: { team: 'SECRET-CPV' }, squash_merge_commit_title: 'X' }],
  ])('never carries the forge’s text of a body the relay %s', async (_how, extra) => {
    // A repository view as a pooled admin token sees it, written so JSON.stringify differs.
    const view = Object.entries(
      (await (await fetch(`${h.sim.urls.api}${REPO}`)).json()) as object,
    ).filter(([key]) => !(VIEWER_RELATIVE_REPOSITORY_FIELDS as readonly string[]).includes(key));
    const adminText = JSON.stringify({ ...Object.fromEntries(view), ...extra }, null, 2);
    h.sim.faults.inject({
      path: REPO,
      action: { kind: 'status', status: 200, bodyText: adminText },
    });
    try {
      const answer = await h.relay({ path: REPO });
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain('SECRET');
      for (const field of Object.keys(extra)) {
        expect(answer.text).not.toContain(field);
        expect(answer.json.body).not.toHaveProperty(field);
      }
      expect(answer.text).toContain(`"body":${JSON.stringify(answer.json.body)},`);
    } finally {
      h.sim.faults.clear();
    }
  });

  it('max-age=N: a fresh entry older than N is a miss, refilled and written through', async () => {
    const path = `${REPO}/milestones`;
    await h.relay({ path });
    h.advance(10_000);
    const young = await h.relay({ path, headers: { 'cache-control': 'max-age=30' } });
    expect(young.json.relay.cache).toBe('hit');
    const old = await h.relay({ path, headers: { 'Cache-Control': 'max-age=5' } });
    expect(old.json.relay.cache).toBe('miss');
    expect(upstream(path)).toHaveLength(2);
    const after = await h.relay({ path, headers: { 'cache-control': 'max-age=5' } });
    expect(after.json.relay.cache).toBe('hit');
  });

  it('conditional headers bypass the cache and go upstream; a 304 passes through', async () => {
    const path = `${REPO}/topics`;
    const first = await h.relay({ path });
    const etag = first.json.headers.etag as string;
    expect(etag).toBeTruthy();
    const conditional = await h.relay({ path, headers: { 'If-None-Match': etag } });
    expect(conditional.json.status).toBe(304);
    expect(conditional.json.relay).toMatchObject({ cache: 'bypass', cacheable: false });
    expect(upstream(path).map((r) => r.status)).toEqual([200, 304]);
  });

  it('never caches rate_limit (bypass) and serves it with a pooled identity', async () => {
    const answer = await h.relay({ path: '/rate_limit' });
    expect(answer.json.relay).toMatchObject({ cache: 'bypass', route_kind: 'rate_limit' });
    expect(answer.json.identity).toEqual({ id: 'pat-alice', kind: 'pat' });
    expect(answer.json.relay.lease_reason).toBe('highest_remaining');
    expect(answer.json.relay).not.toHaveProperty('backend');
    const again = await h.relay({ path: '/rate_limit' });
    expect(again.json.relay.lease_reason).toBe('sticky');
    expect(upstream('/rate_limit').map((r) => r.credential)).toEqual(['pat-1', 'pat-1']);
  });
});

describe('stale serving', () => {
  it('serves an expired entry when every lane is spent, with stale_reason and cache_expires_at', async () => {
    const path = `/orgs/${org}/repos`;
    const writtenAt = h.sim.clock.now();
    const fresh = await h.relay({ path });
    expect(fresh.json.relay.cache).toBe('miss');
    h.advance(61_000);
    h.sim.rateLimits.exhaust({ anonymous: '127.0.0.1' });
    h.sim.rateLimits.exhaust({ login: DEMO.users.alice });
    const stale = await h.relay({ path });
    expect(stale.status).toBe(200);
    const envelope = relayEnvelopeSchema.parse(stale.json);
    expect(envelope.relay).toMatchObject({
      cache: 'stale',
      stale_ok: true,
      stale_reason: 'identity_pool_depleted',
    });
    expect(envelope.relay.cache_expires_at).toBe(new Date(writtenAt + 60_000).toISOString());
    expect(envelope.body).toEqual(fresh.json.body);
    expect(h.audits.at(-1)).toMatchObject({ cacheResult: 'stale', backend: null });
  });

  it('max-age=0 never returns an unvalidated cached success during an outage', async () => {
    const path = `/users/${org}`;
    await h.relay({ path });
    h.advance(61_000);
    h.sim.rateLimits.exhaust({ anonymous: '127.0.0.1' });
    h.sim.rateLimits.exhaust({ login: DEMO.users.alice });
    const answer = await h.relay({ path, headers: { 'cache-control': 'max-age=0' } });
    expect(answer.status).toBe(424);
    expect(answer.json.error.reason).toBe('forge_identity_depleted');
  });

  it('without an entry a spent pool is 424 forge_identity_depleted', async () => {
    h.sim.rateLimits.exhaust({ anonymous: '127.0.0.1' });
    h.sim.rateLimits.exhaust({ login: DEMO.users.alice });
    const answer = await h.relay({ path: `/orgs/${org}/events` });
    expect(answer.status).toBe(424);
    expect(answer.json.error.reason).toBe('forge_identity_depleted');
    // The relay now knows the identity and the anonymous quota are spent: neither is asked again.
    const again = await h.relay({ path: `/orgs/${org}/public_members` });
    expect(again.json.error.reason).toBe('identity_pool_depleted');
    expect(
      h.sim.requests.find({ path: `/orgs/${org}/public_members` }).map((r) => r.credential),
    ).toEqual([]);
  });
});

describe('revalidation', () => {
  it('revalidates an expired entry from its own lane; an anonymous 304 refreshes it, audited forge_api and (charged) a miss', async () => {
    const path = `${REPO}/languages`;
    await h.relay({ path });
    h.advance(61_000);
    const revalidated = await h.relay({ path });
    expect(revalidated.json.status).toBe(200);
    expect(revalidated.json.relay.cache).toBe('miss');
    expect(upstream(path).map((r) => [r.credential, r.status])).toEqual([
      ['anonymous', 200],
      ['anonymous', 304],
    ]);
    // GitHub charges an anonymous 304 (only authenticated ones are free): not a free hit.
    expect(h.audits.at(-1)).toMatchObject({ cacheResult: 'miss', backend: 'forge_api' });
    const hit = await h.relay({ path });
    expect(hit.json.relay.cache).toBe('hit');
    expect(upstream(path)).toHaveLength(2);
  });

  it('never sends an anonymous validator with a pooled identity', async () => {
    const path = `${REPO}/contributors`;
    await h.relay({ path });
    h.advance(61_000);
    h.sim.rateLimits.exhaust({ anonymous: '127.0.0.1' });
    const refill = await h.relay({ path });
    expect(refill.json.identity).toEqual({ id: 'pat-alice', kind: 'pat' });
    expect(upstream(path).at(-1)).toMatchObject({ credential: 'pat-1', status: 200 });
  });

  it('refills from the identity that owns the validators, even when another ranks higher', async () => {
    const two = await startRelayHarness();
    try {
      const scopes = [{ owner: org, allow_private: false }];
      await two.addPatIdentity('pat-bob', DEMO.users.bob, scopes, 100);
      two.sim.rateLimits.exhaust({ anonymous: '127.0.0.1' });
      const path = `${REPO}/languages`;
      const first = await two.relay({ path });
      expect(first.json.identity).toEqual({ id: 'pat-bob', kind: 'pat' });
      // A higher-ranked identity joins; the entry expires (and the route's lease with it).
      await two.addPatIdentity('pat-alice', DEMO.users.alice, scopes, 500);
      two.advance(61_000);
      const refill = await two.relay({ path });
      expect(refill.json.identity).toEqual({ id: 'pat-bob', kind: 'pat' });
      expect(two.sim.requests.find({ path }).map((r) => [r.credential, r.status])).toEqual([
        ['pat-1', 200],
        ['pat-1', 304],
      ]);
      expect(two.audits.at(-1)).toMatchObject({ cacheResult: 'hit', backend: 'forge_api' });
      // A read without an entry to revalidate goes to the best-ranked identity as before.
      const other = await two.relay({ path: `${REPO}/tags` });
      expect(other.json.identity).toEqual({ id: 'pat-alice', kind: 'pat' });
    } finally {
      await two.close();
    }
  });
});

describe('coalescing', () => {
  it('concurrent identical misses make one upstream call; the duplicate is audited as coalesced', async () => {
    const path = `${REPO}/tags`;
    await h.relay({ path: `${REPO}/branches` }); // proves the repository public
    // The forge takes its time, so the second read surely arrives while the first is in flight
    // (on the PostgreSQL+Redis backend the flight is taken through Redis round trips: without the
    // delay the first read could finish before the second looks, and the second would be a hit).
    h.sim.faults.inject({ host: 'api', path, action: { kind: 'latency', ms: 300 }, times: 1 });
    const answers = await Promise.all([h.relay({ path }), h.relay({ path })]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(upstream(path)).toHaveLength(1);
    expect(h.audits.filter((a) => a.coalesced)).toHaveLength(1);
  });
});

describe('statistics 202 and PR file hints', () => {
  it('a pending (202) statistics answer is returned unchanged and never cached', async () => {
    const path = `${REPO}/stats/contributors`;
    const pending = await h.relay({ path });
    expect(pending.json).toMatchObject({ status: 202, relay: { cache: 'miss' } });
    const again = await h.relay({ path });
    expect(again.json.status).toBe(202);
    expect(upstream(path)).toHaveLength(2);
    h.advance(5_000);
    const ready = await h.relay({ path });
    expect(ready.json).toMatchObject({ status: 200, relay: { cache: 'miss' } });
    expect((await h.relay({ path })).json.relay.cache).toBe('hit');
  });

  it('pr_head_sha keeps PR file entries apart per head commit', async () => {
    const path = `${REPO}/pulls/${String(h.ids.pullNumber)}/files`;
    const head = h.ids.headSha;
    const other = 'f'.repeat(40);
    expect((await h.relay({ path, route_hint: { pr_head_sha: head } })).json.relay.cache).toBe(
      'miss',
    );
    expect((await h.relay({ path, route_hint: { pr_head_sha: other } })).json.relay.cache).toBe(
      'miss',
    );
    expect((await h.relay({ path, route_hint: { pr_head_sha: head } })).json.relay.cache).toBe(
      'hit',
    );
    expect(
      (await h.relay({ path, route_hint: { pr_head_sha: head, pr_state: 'closed' } })).json.relay
        .cache,
    ).toBe('miss');
  });
});
