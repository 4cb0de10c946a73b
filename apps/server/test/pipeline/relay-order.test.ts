import { DEMO } from '@relay/forge-sim';
import { errorBodySchema } from '@relay/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  OTHER_POOL,
  POOL,
  TEST_BACKEND,
  startRelayHarness,
  type RelayHarness,
} from './relay-harness.js';

/**
 * The evaluation order of POST /v1/forge/request (DESIGN.md §2) against @relay/forge-sim: each
 * refusal happens at its step, before any later step touches the forge, the cache or an identity.
 */
const { org, publicRepo, privateRepo } = DEMO;
const REPO = `/repos/${org}/${publicRepo}`;
let h: RelayHarness;

beforeAll(async () => {
  h = await startRelayHarness();
  await h.addPatIdentity('pat-alice', DEMO.users.alice, [{ owner: org, allow_private: false }]);
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  h.sim.requests.clear();
  h.sim.rateLimits.reset();
  h.audits.length = 0;
  await h.setPolicy(POOL, JSON.stringify({ allowed_owners: [org] }));
  await h.setRewriteRules([]);
  h.advance(31_000); // past the policy cache
});

function errorOf(json: unknown) {
  return errorBodySchema.parse(json).error;
}

describe('before the audit boundary', () => {
  it.each([
    ['no bearer token', null, 401, 'unauthorized'],
    ['an unknown caller token', `rly_${'A'.repeat(43)}`, 401, 'unauthorized'],
    ['a malformed token', 'not-a-token', 401, 'unauthorized'],
  ] as const)('%s (%s) → %i %s, with nothing sent upstream', async (_name, token, status, code) => {
    const answer = await h.relay({ path: REPO }, token);
    expect(answer.status).toBe(status);
    expect(errorOf(answer.json).code).toBe(code);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    expect(h.sim.requests.entries).toHaveLength(0);
    expect(h.audits).toHaveLength(0);
  });

  it.each([
    ['a missing path', { path: undefined }],
    ['an unknown field', { path: REPO, surprise: 1 }],
    ['a non-string query value', { path: REPO, query: { a: 1 } }],
    ['an invalid pr_head_sha hint', { path: REPO, route_hint: { pr_head_sha: 'zz' } }],
  ])('%s → 400 invalid_request', async (_name, body) => {
    const answer = await h.relay(body);
    expect(answer.status).toBe(400);
    expect(errorOf(answer.json).code).toBe('invalid_request');
    expect(h.audits).toHaveLength(0);
  });

  it('a pool without a grant → 403 pool_forbidden, not audited', async () => {
    const answer = await h.relay({ path: REPO, pool: OTHER_POOL });
    expect(answer.status).toBe(403);
    expect(errorOf(answer.json).code).toBe('pool_forbidden');
    expect(h.audits).toHaveLength(0);
  });

  it('accepts and discards the legacy inputs', async () => {
    const answer = await h.relay({
      path: REPO,
      cache_key: 'anything',
      idempotency_key: 'x',
      route_hint: { owner: 'someone', repo: 'else', kind: 'pr_view' },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.relay.route_kind).toBe('repo_view');
  });

  it.each([
    ['the path', { path: `${REPO}/issues/1` }, 'issues/1'],
    ['a query value', { path: `${REPO}/issues`, query: { labels: 'codename-falcon' } }, 'falcon'],
    ['a query key', { path: `${REPO}/issues`, query: { falcon: 'x' } }, 'falcon'],
    ['a header value', { path: REPO, headers: { accept: 'application/falcon+json' } }, 'falcon'],
    [
      'a header value with spaces around it, as the forge reads it',
      { path: REPO, headers: { accept: ' \tapplication/falcon+json ' } },
      '^application/falcon\\+json$',
    ],
    ['the path, percent-encoded', { path: `/repos/${org}/%62luefalcon` }, 'bluefalcon'],
    ['the path, in mixed-case hex', { path: `/repos/${org}/%66%61%6C%63%6fn` }, 'falcon'],
    ['a query value, encoded', { path: `${REPO}/issues`, query: { labels: '%66alcon' } }, 'falcon'],
  ])(
    'a match in %s → hard 403 string_rewrite_denied, before any lookup',
    async (_n, body, pattern) => {
      await h.setRewriteRules([{ pattern, replacement: 'x' }]);
      const answer = await h.relay(body);
      expect(answer.status).toBe(403);
      const error = errorOf(answer.json);
      expect(error.code).toBe('string_rewrite_denied');
      expect(answer.text).not.toContain(pattern);
      expect(h.sim.requests.entries).toHaveLength(0);
      expect(h.audits).toHaveLength(0);
    },
  );

  it('rules edited outside the API (revision and update time kept) hold from the next request', async () => {
    await h.setRewriteRules([{ pattern: 'zz-unrelated', replacement: 'x' }]);
    expect((await h.relay({ path: REPO })).status).toBe(200);
    h.sim.requests.clear();
    h.audits.length = 0;
    const rulesJson = JSON.stringify([{ pattern: publicRepo, replacement: 'x' }]);
    await h.database.db
      .updateTable('string_rewrite_policy')
      .set({ rules_json: rulesJson })
      .execute();
    // Another connection's commit moves the store's change stamp (SQLite's data_version,
    // PostgreSQL's notification); on this harness's one connection a refused PUT does the same.
    const refused = await h.services.stringRewrites.replace(0, [], new Date(0).toISOString());
    expect(refused.ok).toBe(false);
    const answer = await h.relay({ path: REPO });
    expect(answer.status).toBe(403);
    expect(errorOf(answer.json).code).toBe('string_rewrite_denied');
    expect(h.sim.requests.entries).toHaveLength(0);
    expect(h.audits).toHaveLength(0);
  });

  it('a lone surrogate in a query value → 403 string_rewrite_denied, even with an empty policy', async () => {
    // It has no single reading: the transport would send U+FFFD, not the text checked.
    const answer = await h.relay({ path: `${REPO}/issues`, query: { labels: 'a\ud800b' } });
    expect(answer.status).toBe(403);
    expect(errorOf(answer.json).code).toBe('string_rewrite_denied');
    expect(h.sim.requests.entries).toHaveLength(0);
  });

  it('a corrupt string-rewrite policy → 503 string_rewrite_policy_unavailable', async () => {
    await h.database.db.updateTable('string_rewrite_policy').set({ rules_json: '{' }).execute();
    const answer = await h.relay({ path: REPO });
    expect(answer.status).toBe(503);
    expect(errorOf(answer.json).code).toBe('string_rewrite_policy_unavailable');
    expect(h.sim.requests.entries).toHaveLength(0);
    await h.database.db.updateTable('string_rewrite_policy').set({ rules_json: '[]' }).execute();
  });
});

describe('pool policy', () => {
  it.each([
    ['invalid JSON', '{"allowed_owners": [oops'],
    ['a non-object root', '[]'],
    ['a field of the wrong type', '{"allow_logs":"yes"}'],
  ])('%s → 503 pool_policy_unavailable before any cache or identity use', async (_n, json) => {
    await h.setPolicy(POOL, json);
    const answer = await h.relay({ path: REPO });
    expect(answer.status).toBe(503);
    const error = errorOf(answer.json);
    expect(error.code).toBe('pool_policy_unavailable');
    expect(answer.text).not.toContain(json);
    expect(h.sim.requests.entries).toHaveLength(0);
    expect(h.audits.map((a) => a.errorCode)).toEqual(['pool_policy_unavailable']);
  });

  it('reuses a valid policy for 30 s, never caches a failed parse, has no last-known-good', async () => {
    const search = { path: '/search/repositories', query: { q: 'widgets' } };
    expect((await h.relay(search)).json.error.reason).toBe('search_denied');
    await h.setPolicy(POOL, JSON.stringify({ allowed_owners: [org], allow_search: true }));
    h.advance(29_000);
    if (TEST_BACKEND === 'embedded') {
      // One process on SQLite: an edit its own connection made is seen after SPEC.md's 30 s.
      expect((await h.relay(search)).json.error.reason).toBe('search_denied');
      h.advance(1_000);
    }
    // On PostgreSQL+Redis a policy commit moves the change sequence: it holds from the next
    // request on every replica (README, "Shared cache, coalescing, proofs and admin changes").
    expect((await h.relay(search)).status).toBe(200);
    await h.setPolicy(POOL, '{');
    h.advance(30_000);
    expect((await h.relay(search)).status).toBe(503);
    await h.setPolicy(POOL, JSON.stringify({ allowed_owners: [org], allow_search: true }));
    expect((await h.relay(search)).status).toBe(200);
  });
});

describe('method, path, query and classification', () => {
  it.each([
    ['POST', { method: 'POST', path: REPO }, 403, 'method_denied', undefined],
    ['a traversal', { path: `${REPO}/../secret` }, 400, 'invalid_path', undefined],
    ['an encoded traversal', { path: `${REPO}/%2e%2e/x` }, 400, 'invalid_path', undefined],
    ['a query string in the path', { path: `${REPO}?a=1` }, 400, 'invalid_path', undefined],
    [
      'a secret-bearing query key',
      { path: REPO, query: { access_token: 'x' } },
      400,
      'invalid_query',
      undefined,
    ],
    [
      'an unsupported read shape',
      { path: `${REPO}/traffic/views` },
      424,
      'fallback_local',
      'route_denied',
    ],
    [
      'GET /orgs/:org (not relayed)',
      { path: `/orgs/${org}` },
      424,
      'fallback_local',
      'route_denied',
    ],
    [
      'starred (not relayed)',
      { path: `/users/${org}/starred` },
      424,
      'fallback_local',
      'route_denied',
    ],
    [
      'subscriptions (not relayed)',
      { path: '/users/alice/subscriptions' },
      424,
      'fallback_local',
      'route_denied',
    ],
    [
      'branch protection',
      { path: `${REPO}/branches/main/protection` },
      424,
      'fallback_local',
      'local_credentials_required',
    ],
    [
      'protection subresource',
      { path: `${REPO}/branches/main/protection/required_signatures` },
      424,
      'fallback_local',
      'local_credentials_required',
    ],
    ['rulesets', { path: `${REPO}/rulesets` }, 424, 'fallback_local', 'local_credentials_required'],
    [
      'branch rules',
      { path: `${REPO}/rules/branches/feature%2Fsprockets` },
      424,
      'fallback_local',
      'local_credentials_required',
    ],
    [
      'search without allow_search',
      { path: '/search/code', query: { q: `x repo:${org}/${publicRepo}` } },
      424,
      'fallback_local',
      'search_denied',
    ],
    [
      'search outside the grammar',
      { path: '/search/issues', query: { q: `x OR y repo:${org}/${publicRepo}` } },
      424,
      'fallback_local',
      'search_denied',
    ],
  ])(
    '%s (%o) → %i %s %s, audited, nothing sent upstream',
    async (_n, body, status, code, reason) => {
      const answer = await h.relay(body);
      expect(answer.status).toBe(status);
      const error = errorOf(answer.json);
      expect(error.code).toBe(code);
      expect(error.reason).toBe(reason);
      expect(h.sim.requests.entries).toHaveLength(0);
      expect(h.audits).toHaveLength(1);
      expect(h.audits[0]).toMatchObject({ errorCode: code, fallbackReason: reason ?? null });
    },
  );

  it.each([
    ['a secret-bearing key', { access_token: 'sekrit-value' }, 'A query key looks secret-bearing.'],
    ['an empty key', { '': 'sekrit-value' }, 'A query key is empty or malformed.'],
  ])(
    '400 invalid_query says which rule %s broke, never the key or value',
    async (_n, query, message) => {
      const answer = await h.relay({
        path: REPO,
        query,
      });
      expect(answer.status).toBe(400);
      expect(errorOf(answer.json)).toMatchObject({ code: 'invalid_query', message });
      expect(answer.text).not.toContain('sekrit-value');
      expect(answer.text).not.toContain('access_token');
    },
  );

  it('native-protection shapes answer before a cache entry, probe or credential (private repo too)', async () => {
    const answer = await h.relay({ path: `/repos/${org}/${privateRepo}/rulesets/1` });
    expect(answer.json.error.reason).toBe('local_credentials_required');
    expect(h.sim.requests.entries).toHaveLength(0);
  });

  it('logs need allow_logs → 424 logs_denied', async () => {
    await h.setPolicy(POOL, JSON.stringify({ allowed_owners: [org], allow_logs: false }));
    const answer = await h.relay({ path: `${REPO}/actions/jobs/${String(h.ids.jobId)}/logs` });
    expect(answer.json.error.reason).toBe('logs_denied');
    expect(h.sim.requests.entries).toHaveLength(0);
  });

  it('answers 424 relay_overloaded when the queue is backed up', async () => {
    const overloaded = await startRelayHarness({ isOverloaded: () => true });
    try {
      const answer = await overloaded.relay({ path: REPO });
      expect(answer.status).toBe(424);
      expect(answer.json.error.reason).toBe('relay_overloaded');
      expect(overloaded.sim.requests.entries).toHaveLength(0);
    } finally {
      await overloaded.close();
    }
  });
});

describe('owner gate and public-visibility guard', () => {
  it('a private repository → 424 repo_not_public; no pooled identity contacts the forge', async () => {
    const answer = await h.relay({ path: `/repos/${org}/${privateRepo}/issues` });
    expect(answer.status).toBe(424);
    expect(answer.json.error.reason).toBe('repo_not_public');
    expect(h.sim.requests.entries.every((r) => r.credential === 'anonymous')).toBe(true);
    expect(h.sim.requests.find({ path: `/repos/${org}/${privateRepo}/issues` })).toHaveLength(0);
  });

  it('an unknown repository → 424 repo_not_public', async () => {
    const answer = await h.relay({ path: `/repos/${org}/nothing-here/pulls` });
    expect(answer.json.error.reason).toBe('repo_not_public');
  });

  it('proves visibility anonymously first and caches the proof briefly', async () => {
    await h.relay({ path: `${REPO}/issues` });
    await h.relay({ path: `${REPO}/labels` });
    const probes = h.sim.requests.find({ path: REPO });
    expect(probes).toHaveLength(1);
    expect(probes[0]?.credential).toBe('anonymous');
  });

  it('uses a pooled identity for the proof only when the anonymous quota is exhausted', async () => {
    h.advance(301_000); // past the cached proof
    h.sim.rateLimits.exhaust({ anonymous: '127.0.0.1' });
    const answer = await h.relay({ path: `${REPO}/labels` });
    expect(answer.status).toBe(200);
    const probes = h.sim.requests.find({ path: REPO });
    expect(probes.map((p) => p.credential)).toEqual(['anonymous', 'pat-1']);
  });

  it('a fresh read that embeds the repository (a pull request) renews its proof', async () => {
    h.advance(61_000); // past any proof of the earlier tests
    await h.relay({ path: `${REPO}/issues` }); // proves at t=0 (cached 60 s by default)
    expect(h.sim.requests.find({ path: REPO })).toHaveLength(1);
    h.advance(40_000);
    const pull = await h.relay({ path: `${REPO}/pulls/${String(h.ids.pullNumber)}` });
    expect(pull.json.relay.cache).toBe('miss'); // its base.repo says public: renewed at t=40 s
    h.advance(40_000); // t=80 s: past the first proof, within the renewal
    expect((await h.relay({ path: `${REPO}/labels` })).status).toBe(200);
    expect(h.sim.requests.find({ path: REPO })).toHaveLength(1);
  });

  it('an owner outside allowed_owners without allow_public_repos → 424 repo_not_public at once', async () => {
    await h.setPolicy(POOL, JSON.stringify({ allowed_owners: [], allow_public_repos: false }));
    const answer = await h.relay({ path: `/repos/carol/${publicRepo}` });
    expect(answer.json.error.reason).toBe('repo_not_public');
    expect(h.sim.requests.entries).toHaveLength(0);
  });
});

describe('unexpected failures', () => {
  it('a storage failure after the audit boundary → 500 internal_error, still audited', async () => {
    const broken = await startRelayHarness({
      override: (deps) => ({
        ...deps,
        listIdentities: () => Promise.reject(new Error('database is locked')),
      }),
    });
    try {
      const answer = await broken.relay({ path: '/rate_limit' });
      expect(answer.status).toBe(500);
      expect(errorOf(answer.json).code).toBe('internal_error');
      expect(answer.text).not.toContain('locked');
      expect(broken.audits.map((a) => [a.routeKind, a.errorCode, a.status])).toEqual([
        ['rate_limit', 'internal_error', 500],
      ]);
    } finally {
      await broken.close();
    }
  });
});
