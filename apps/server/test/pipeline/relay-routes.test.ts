import { DEMO } from '@relay/forge-sim';
import { relayEnvelopeSchema } from '@relay/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POOL, startRelayHarness, type RelayHarness } from './relay-harness.js';

/** SPEC.md's route-specific behaviour 1-9 and the 424/503 answers of the lanes, against forge-sim. */
const { org, publicRepo } = DEMO;
const REPO = `/repos/${org}/${publicRepo}`;
const ANONYMOUS = { anonymous: '127.0.0.1' } as const;
let h: RelayHarness;

beforeAll(async () => {
  h = await startRelayHarness();
  await h.addPatIdentity('pat-alice', DEMO.users.alice, [{ owner: org, allow_private: false }]);
  await h.addPatIdentity('pat-carol', DEMO.users.carol, [{ owner: '*', allow_private: false }], 50);
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  h.advance(3_600_000);
  h.sim.requests.clear();
  h.sim.rateLimits.reset();
  h.sim.faults.clear();
  h.audits.length = 0;
  await h.setPolicy(POOL, JSON.stringify({ allowed_owners: [org] }));
});

const upstream = (path: string) => h.sim.requests.find({ path });

describe('1. job logs', () => {
  const logPath = () => `${REPO}/actions/jobs/${String(h.ids.jobId)}/logs`;

  it('an active run: follows the signed redirect with a pooled identity, bypasses the cache', async () => {
    const { jobs } = h.sim.world.addRun({
      owner: org,
      repo: publicRepo,
      workflow: h.ids.workflowId,
      ref: 'main',
      event: 'push',
      status: 'in_progress',
      jobs: [{ name: 'build', log: 'Building...\nBuild OK\n' }],
    });
    const activePath = `${REPO}/actions/jobs/${String(jobs[0]?.id)}/logs`;
    const first = await h.relay({ path: activePath });
    expect(first.json).toMatchObject({
      status: 200,
      body: 'Building...\nBuild OK\n',
      body_encoding: 'text',
      identity: { id: 'pat-alice', kind: 'pat' },
      relay: { cache: 'bypass', route_kind: 'job_logs' },
    });
    const second = await h.relay({ path: activePath });
    expect(second.json.relay.cache).toBe('bypass');
    expect(upstream(activePath).map((r) => r.credential)).toEqual(['pat-1', 'pat-1']);
    const logHost = h.sim.requests.entries.filter((r) => r.host === 'log');
    expect(logHost).toHaveLength(2);
    expect(logHost.every((r) => r.credential === 'anonymous')).toBe(true);
  });

  it('a completed job of a run still in progress: fetched, not cached (the run must complete)', async () => {
    const { run, jobs } = h.sim.world.addRun({
      owner: org,
      repo: publicRepo,
      workflow: h.ids.workflowId,
      ref: 'main',
      event: 'push',
      status: 'in_progress',
      jobs: [
        { name: 'lint', status: 'completed', log: 'lint ok\n' },
        { name: 'test', log: 'testing...\n' },
      ],
    });
    const donePath = `${REPO}/actions/jobs/${String(jobs[0]?.id)}/logs`;
    const first = await h.relay({ path: donePath });
    expect(first.json).toMatchObject({ body: 'lint ok\n', relay: { cache: 'bypass' } });
    expect((await h.relay({ path: donePath })).json.relay.cache).toBe('bypass');
    // The run completes: from now on the log is immutable and cached.
    h.sim.world.completeRun(org, publicRepo, run.id);
    expect((await h.relay({ path: donePath })).json.relay.cache).toBe('miss');
    expect((await h.relay({ path: donePath })).json.relay.cache).toBe('hit');
  });

  it('a completed run: cached for seven days, then an authenticated existence probe after an hour', async () => {
    const miss = await h.relay({ path: logPath() });
    expect(miss.json.relay).toMatchObject({ cache: 'miss', cacheable: true });
    const hit = await h.relay({ path: logPath() });
    expect(hit.json.relay.cache).toBe('hit');
    expect(hit.json.body).toBe(miss.json.body);
    expect(upstream(logPath())).toHaveLength(1);
    // The preflight (public job metadata) ran once, for the miss only.
    expect(upstream(logPath().replace(/\/logs$/, ''))).toHaveLength(1);
    h.advance(3_600_000);
    const probed = await h.relay({ path: logPath() });
    expect(probed.json.relay.cache).toBe('hit');
    expect(upstream(logPath()).map((r) => [r.credential, r.status])).toEqual([
      ['pat-1', 302],
      ['pat-1', 302],
    ]);
    expect(h.sim.requests.entries.filter((r) => r.host === 'log')).toHaveLength(1);
  });
});

describe('2. releases: anonymous API only', () => {
  it('serves releases anonymously with the raw Markdown body', async () => {
    const answer = await h.relay({ path: `${REPO}/releases` });
    expect(answer.json).toMatchObject({ identity: null, relay: { backend: 'forge_public' } });
    expect(typeof answer.json.body[0].body).toBe('string');
    expect(upstream(`${REPO}/releases`).map((r) => r.credential)).toEqual(['anonymous']);
  });

  it('never uses a pooled identity: spent anonymous quota → 424 web_only_unavailable', async () => {
    h.sim.rateLimits.exhaust(ANONYMOUS);
    const answer = await h.relay({ path: `${REPO}/releases/latest` });
    expect(answer.status).toBe(424);
    expect(answer.json.error.reason).toBe('web_only_unavailable');
    expect(upstream(`${REPO}/releases/latest`).every((r) => r.credential === 'anonymous')).toBe(
      true,
    );
  });

  it('bounded exact stale data first', async () => {
    const path = `${REPO}/releases/${String(h.ids.releaseId)}`;
    const fresh = await h.relay({ path });
    h.advance(61_000);
    h.sim.faults.inject({ path, action: { kind: 'status', status: 503 } });
    const stale = await h.relay({ path });
    expect(stale.json.relay).toMatchObject({
      cache: 'stale',
      stale_reason: 'web_only_unavailable',
    });
    expect(stale.json.body).toEqual(fresh.json.body);
  });
});

describe('3. issue timelines and events: anonymous only', () => {
  it('sends conditional requests anonymously too', async () => {
    const path = `${REPO}/issues/${String(h.ids.issueNumber)}/timeline`;
    const first = await h.relay({ path });
    const etag = first.json.headers.etag as string;
    const conditional = await h.relay({ path, headers: { 'if-none-match': etag } });
    expect(conditional.json.status).toBe(304);
    expect(upstream(path).map((r) => r.credential)).toEqual(['anonymous', 'anonymous']);
  });

  it('a lost public backend → 424 web_only_unavailable, never a pooled identity', async () => {
    const path = `${REPO}/issues/events`;
    h.sim.faults.inject({ path, action: { kind: 'status', status: 502 } });
    const answer = await h.relay({ path });
    expect(answer.json.error.reason).toBe('web_only_unavailable');
    expect(upstream(path).map((r) => r.credential)).toEqual(['anonymous']);
  });
});

describe('4. runs and jobs: exact REST through the shared cache', () => {
  it.each(['/actions/runs', '/actions/runs/{run}', '/actions/runs/{run}/jobs'])(
    '%s',
    async (suffix) => {
      const path = `${REPO}${suffix.replace('{run}', String(h.ids.runId))}`;
      const miss = await h.relay({ path });
      expect(miss.json.status).toBe(200);
      const hit = await h.relay({ path });
      expect(hit.json.relay.cache).toBe('hit');
      expect(hit.json.body).toEqual(miss.json.body);
    },
  );
});

describe('5-6. unauthenticated first; GET /user', () => {
  it('an anonymous answer is served before any pooled identity is spent', async () => {
    const answer = await h.relay({ path: `/orgs/${org}/repos` });
    expect(answer.json).toMatchObject({ identity: null, relay: { backend: 'forge_public' } });
    expect(h.sim.requests.entries.every((r) => r.credential === 'anonymous')).toBe(true);
  });

  it('GET /user is the caller’s public profile, served anonymously', async () => {
    const answer = await h.relay({ path: '/user' });
    expect(answer.json.relay).toMatchObject({ route_kind: 'user_view', backend: 'forge_public' });
    expect(answer.json.body.login).toBe(DEMO.users.alice);
    for (const field of ['plan', 'total_private_repos', 'owned_private_repos', 'private_gists']) {
      expect(answer.json.body).not.toHaveProperty(field);
    }
    expect(upstream('/user')).toHaveLength(0);
    expect(upstream(`/users/${DEMO.users.alice}`).map((r) => r.credential)).toEqual(['anonymous']);
  });

  it('GET /user falls through to a pooled identity only when the anonymous quota is spent', async () => {
    h.sim.rateLimits.exhaust(ANONYMOUS);
    const answer = await h.relay({ path: '/user', headers: { 'cache-control': 'max-age=0' } });
    expect(answer.json.identity).not.toBeNull();
    expect(answer.json.body.login).toBe(DEMO.users.alice);
    expect(answer.json.body).not.toHaveProperty('plan');
  });
});

describe('public web, raw and patch reads', () => {
  it('a PR diff is read from the public web host', async () => {
    const path = `${REPO}/pulls/${String(h.ids.pullNumber)}`;
    const answer = await h.relay({ path, headers: { accept: 'application/vnd.github.diff' } });
    expect(answer.json).toMatchObject({ status: 200, body_encoding: 'text', identity: null });
    expect(answer.json.relay.backend).toBe('web');
    expect(answer.json.body).toContain('diff --git');
    expect(h.sim.requests.entries.filter((r) => r.host === 'web')).toHaveLength(1);
    expect(h.audits.at(-1)?.backend).toBe('forge_web');
  });

  it('a raw file read comes from the raw-content host', async () => {
    const path = `${REPO}/contents/README.md`;
    const answer = await h.relay({
      path,
      query: { ref: 'main' },
      headers: { accept: 'application/vnd.github.raw' },
    });
    expect(answer.json.body).toContain('widgets');
    expect(answer.json.relay.backend).toBe('web');
    expect(h.sim.requests.entries.filter((r) => r.host === 'raw')).toHaveLength(1);
  });
});

describe('8. search', () => {
  const q = `crash repo:${org}/${publicRepo} state:open`;

  it('the token-free issue-search shape runs without allow_search, anonymously', async () => {
    const answer = await h.relay({ path: '/search/issues', query: { q } });
    expect(answer.json).toMatchObject({ status: 200, identity: null });
    expect(upstream('/search/issues').map((r) => [r.credential, r.query])).toEqual([
      ['anonymous', expect.stringContaining('crash')],
    ]);
  });

  it('and never falls through to pooled credentials', async () => {
    h.sim.rateLimits.exhaust(ANONYMOUS, 'search');
    const answer = await h.relay({ path: '/search/issues', query: { q: `other ${q}` } });
    expect(answer.json.error.reason).toBe('web_only_unavailable');
    expect(upstream('/search/issues').every((r) => r.credential === 'anonymous')).toBe(true);
  });

  it('a private repository qualifier is refused by the guard', async () => {
    const answer = await h.relay({
      path: '/search/issues',
      query: { q: `x repo:${org}/${DEMO.privateRepo}` },
    });
    expect(answer.json.error.reason).toBe('repo_not_public');
    expect(upstream('/search/issues')).toHaveLength(0);
  });

  it('code search with allow_search uses a pooled identity', async () => {
    await h.setPolicy(POOL, JSON.stringify({ allowed_owners: [org], allow_search: true }));
    h.advance(31_000);
    const answer = await h.relay({
      path: '/search/code',
      query: { q: `widget repo:${org}/${publicRepo}` },
    });
    expect(answer.json.identity).not.toBeNull();
  });
});

describe('9. owner gate with broad PATs', () => {
  it('a public repository of another owner is served by a wildcard PAT, never a scoped identity', async () => {
    h.sim.rateLimits.exhaust(ANONYMOUS);
    const answer = await h.relay({ path: `/repos/carol/${publicRepo}/branches` });
    expect(answer.json.identity).toEqual({ id: 'pat-carol', kind: 'pat' });
    // The visibility probe found the anonymous quota spent: the read does not ask it again.
    expect(upstream(`/repos/carol/${publicRepo}/branches`).map((r) => r.credential)).toEqual([
      'pat-2',
    ]);
  });
});

describe('424 and 503 answers of the lanes', () => {
  it('a body over MAX_RESPONSE_BYTES → 424 forge_response_too_large', async () => {
    const path = `${REPO}/contributors`;
    h.sim.faults.inject({ path, action: { kind: 'oversize', bytes: 3 * 1024 * 1024 } });
    const answer = await h.relay({ path });
    expect(answer.status).toBe(424);
    expect(answer.json.error.reason).toBe('forge_response_too_large');
  });

  it('an API redirect outside the log flow → 502 forge_redirect_denied', async () => {
    const path = `${REPO}/stargazers`;
    h.sim.faults.inject({
      path,
      action: { kind: 'status', status: 302, headers: { location: `${h.sim.urls.api}/elsewhere` } },
    });
    const answer = await h.relay({ path });
    expect(answer.status).toBe(502);
    expect(answer.json.error.code).toBe('forge_redirect_denied');
  });

  it('throttled identities → 424 forge_rate_limited, then 503 identities_cooling_down', async () => {
    h.sim.faults.inject({
      path: '/rate_limit',
      action: { kind: 'secondary_limit', status: 429, retryAfterS: 600 },
    });
    const limited = await h.relay({ path: '/rate_limit' });
    expect(limited.status).toBe(424);
    expect(limited.json.error.reason).toBe('forge_rate_limited');
    expect(
      upstream('/rate_limit')
        .map((r) => r.credential)
        .sort(),
    ).toEqual(['pat-1', 'pat-2']);
    const cooling = await h.relay({ path: '/rate_limit' });
    expect(cooling.status).toBe(503);
    expect(cooling.json.error.code).toBe('identities_cooling_down');
    expect(upstream('/rate_limit')).toHaveLength(2);
  });

  it('an anonymous-first read whose identities all cool down → 424 identities_cooling_down', async () => {
    h.sim.faults.inject({
      credential: 'pat-1',
      action: { kind: 'secondary_limit', retryAfterS: 600 },
    });
    h.sim.faults.inject({
      credential: 'pat-2',
      action: { kind: 'secondary_limit', retryAfterS: 600 },
    });
    await h.relay({ path: '/rate_limit' });
    h.sim.rateLimits.exhaust(ANONYMOUS);
    const answer = await h.relay({ path: `/users/${org}/repos` });
    expect(answer.status).toBe(424);
    expect(answer.json.error.reason).toBe('identities_cooling_down');
  });

  it('no identity may serve → 424 identity_pool_depleted', async () => {
    // bob is an allowed owner (the owner gate passes), but the one identity's scope is acme's.
    const scoped = await startRelayHarness();
    try {
      await scoped.addPatIdentity('pat-a', DEMO.users.alice, [
        { owner: org, allow_private: false },
      ]);
      scoped.sim.rateLimits.exhaust(ANONYMOUS);
      await scoped.setPolicy(POOL, JSON.stringify({ allowed_owners: [org, 'bob'] }));
      const answer = await scoped.relay({ path: '/users/bob/followers' });
      expect(answer.json.error.reason).toBe('identity_pool_depleted');
    } finally {
      await scoped.close();
    }
  });

  it('credentials that fail locally → generic 503 credentials_unavailable, without binding names', async () => {
    const saved = new Map(h.secrets);
    h.secrets.clear();
    try {
      const answer = await h.relay({ path: '/rate_limit' });
      expect(answer.status).toBe(503);
      expect(answer.json.error.code).toBe('credentials_unavailable');
      expect(answer.text).not.toMatch(/secret_pat/);
    } finally {
      for (const [name, value] of saved) h.secrets.set(name, value);
    }
  });

  it('every envelope of this suite matches the protocol schema', async () => {
    const answer = await h.relay({ path: `${REPO}/commits` });
    expect(relayEnvelopeSchema.safeParse(answer.json).success).toBe(true);
  });
});

describe('rule 9: aggregates are never spliced from another identity', () => {
  it('a later page whose leased identity lost its credential is refused, not served by another', async () => {
    const sticky = await startRelayHarness();
    try {
      await sticky.addPatIdentity(
        'pat-a',
        DEMO.users.alice,
        [{ owner: org, allow_private: false }],
        500,
      );
      await sticky.addPatIdentity('pat-b', DEMO.users.bob, [{ owner: org, allow_private: false }]);
      sticky.sim.rateLimits.exhaust(ANONYMOUS);
      const path = `${REPO}/issues`;
      const page1 = await sticky.relay({ path, query: { per_page: '1', page: '1' } });
      expect(page1.json.identity).toEqual({ id: 'pat-a', kind: 'pat' });
      sticky.secrets.delete('secret_pat-a');
      const page2 = await sticky.relay({ path, query: { per_page: '1', page: '2' } });
      expect(page2.status).toBe(503);
      expect(page2.json.error.code).toBe('credentials_unavailable');
      // The visibility probe found the anonymous quota spent: neither page asks it again.
      expect(sticky.sim.requests.find({ path }).map((r) => r.credential)).toEqual(['pat-1']);
      // A new aggregate (page 1) may use the other identity.
      const restart = await sticky.relay({
        path,
        query: { per_page: '1', page: '1' },
        headers: { 'cache-control': 'max-age=0' },
      });
      expect(restart.json.identity).toEqual({ id: 'pat-b', kind: 'pat' });
    } finally {
      await sticky.close();
    }
  });
});
