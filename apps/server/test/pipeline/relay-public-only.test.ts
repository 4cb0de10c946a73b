import { DEMO } from '@relay/forge-sim';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ANONYMOUS,
  PRIVATE_MARKER,
  allKeys,
  exposedText,
  seedPrivateWorld,
  type PrivateWorld,
} from './public-only-world.js';
import { OTHER_POOL, POOL, startRelayHarness, type RelayHarness } from './relay-harness.js';

const { org, publicRepo } = DEMO;
const { alice, carol } = DEMO.users;
const REPO = `/repos/${org}/${publicRepo}`;

let h: RelayHarness;
let w: PrivateWorld;

beforeEach(async () => {
  h = await startRelayHarness();
  w = await seedPrivateWorld(h);
});

afterEach(async () => {
  await h.close();
});

/** Spends the anonymous address's core and search quotas. */
function exhaustAnonymous(): void {
  h.sim.rateLimits.exhaust(ANONYMOUS);
  h.sim.rateLimits.exhaust(ANONYMOUS, 'search');
}

/** Pooled requests the simulator saw for a path (any credential but the anonymous one). */
function pooledRequests(path: string) {
  return h.sim.requests.find({ path }).filter((entry) => entry.credential !== 'anonymous');
}

/** The owner-level and ownerless collections that a pooled token lists private items in. */
const COLLECTIONS: readonly (readonly [string, Record<string, string> | undefined])[] = [
  [`/users/${carol}/repos`, undefined],
  [`/orgs/${org}/repos`, undefined],
  [`/users/${carol}/gists`, undefined],
  [`/users/${carol}/events`, undefined],
  [`/users/${alice}/events`, undefined],
  [`/users/${carol}/received_events`, undefined],
  [`/orgs/${org}/events`, undefined],
  ['/search/repositories', { q: PRIVATE_MARKER }],
];

describe('owner-level and ownerless collections never list private items', () => {
  it.each(COLLECTIONS)(
    '%s with the anonymous lane exhausted: served by a pooled token, private items removed',
    async (path, query) => {
      exhaustAnonymous();
      const answer = await h.relay({ path, ...(query === undefined ? {} : { query }) });
      expect(answer.status).toBe(200);
      expect(answer.json.identity?.kind).toBe('pat'); // a pooled token did read it
      expect(pooledRequests(path).length).toBeGreaterThan(0);
      expect(exposedText(answer)).not.toContain(PRIVATE_MARKER);
    },
  );

  it.each(COLLECTIONS)(
    '%s with the anonymous lane failing (502): no private item either',
    async (path, query) => {
      h.sim.faults.inject({ credential: 'anonymous', action: { kind: 'status', status: 502 } });
      const answer = await h.relay({ path, ...(query === undefined ? {} : { query }) });
      expect(exposedText(answer)).not.toContain(PRIVATE_MARKER);
    },
  );

  it('keeps the public items of a pooled list (the filter is item by item)', async () => {
    exhaustAnonymous();
    const repos = await h.relay({ path: `/orgs/${org}/repos` });
    const names = (repos.json.body as { name: string; private: boolean }[]).map((r) => r.name);
    expect(names).toContain(publicRepo);
    expect(names).not.toContain(DEMO.privateRepo);
    const gists = await h.relay({ path: `/users/${carol}/gists` });
    expect((gists.json.body as { id: string }[]).map((g) => g.id)).toEqual([w.publicGistId]);
  });

  it('a pooled search answer counts only what it serves and loses its last-page link', async () => {
    exhaustAnonymous();
    const answer = await h.relay({
      path: '/search/repositories',
      query: { q: PRIVATE_MARKER },
    });
    expect(answer.json.body).toMatchObject({
      total_count: 0,
      incomplete_results: false,
      items: [],
    });
    expect(answer.json.headers.link ?? '').not.toMatch(/rel="last"/);
  });

  it('a pooled search whose only matches were private reads exactly like one that matched nothing', async () => {
    exhaustAnonymous();
    // acme/internal-prvmark's description ("acme prvmark internals") is seen by alice's PAT only.
    const privateOnly = await h.relay({ path: '/search/repositories', query: { q: 'internals' } });
    const nothing = await h.relay({ path: '/search/repositories', query: { q: 'nosuchword' } });
    expect(privateOnly.json.identity?.kind).toBe('pat');
    expect(nothing.json.identity?.kind).toBe('pat');
    expect(privateOnly.json.body).toEqual(nothing.json.body);
    expect(privateOnly.json.headers.link).toEqual(nothing.json.headers.link);
  });

  it('a secret gist is refused (424 repo_not_public) on every lane, never served or cached', async () => {
    const anonymous = await h.relay({ path: `/gists/${w.secretGistId}` });
    expect(anonymous.status).toBe(424);
    expect(anonymous.json.error.reason).toBe('repo_not_public');
    exhaustAnonymous();
    const pooled = await h.relay({ path: `/gists/${w.secretGistId}` });
    expect(pooled.json.error.reason).toBe('repo_not_public');
    expect(exposedText(pooled)).not.toContain(PRIVATE_MARKER);
    const open = await h.relay({ path: `/gists/${w.publicGistId}` });
    expect(open.status).toBe(200);
  });
});

describe('pooled reads ask the forge for public items only: no count or match of private ones', () => {
  /** Walks an organization's repository list one item a page, as a prober would. */
  async function pageSizes(type: string | undefined): Promise<number[]> {
    const sizes: number[] = [];
    for (let page = 1; page <= 20; page++) {
      const query = { per_page: '1', page: String(page), ...(type === undefined ? {} : { type }) };
      const answer = await h.relay({ path: `/orgs/${org}/repos`, query });
      expect(answer.status).toBe(200);
      expect(answer.json.identity?.kind).toBe('pat');
      sizes.push((answer.json.body as unknown[]).length);
      const link = (answer.json.headers as Record<string, string | undefined>).link ?? '';
      if (!link.includes('rel="next"')) break;
    }
    return sizes;
  }

  it('an organization list paged by a pooled identity has no page emptied by private repositories', async () => {
    const anonymous = await h.relay({ path: `/orgs/${org}/repos`, query: { per_page: '100' } });
    const publicCount = (anonymous.json.body as unknown[]).length;
    exhaustAnonymous();
    for (const type of [undefined, 'all', 'public']) {
      const sizes = await pageSizes(type);
      // As many pages as public repositories, each with one: nothing tells how many private
      // ones the pooled identity (an acme member) sees between them.
      expect(sizes).toEqual(Array.from({ length: publicCount }, () => 1));
    }
    const sent = pooledRequests(`/orgs/${org}/repos`).map((entry) => entry.query);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((query) => new URLSearchParams(query).get('type') === 'public')).toBe(true);
  });

  it.each(['private', 'internal', 'forks', 'sources', 'member'])(
    'an organization list of type %s is not read by a pooled identity (424 local_credentials_required)',
    async (type) => {
      exhaustAnonymous();
      const answer = await h.relay({ path: `/orgs/${org}/repos`, query: { type } });
      expect(answer.status).toBe(424);
      expect(answer.json.error.reason).toBe('local_credentials_required');
      expect(pooledRequests(`/orgs/${org}/repos`)).toEqual([]);
    },
  );

  it('a pooled repository search asks the forge for public repositories only', async () => {
    exhaustAnonymous();
    const answer = await h.relay({
      path: '/search/repositories',
      query: { q: 'internals', per_page: '1' },
    });
    expect(answer.json.body).toEqual({ total_count: 0, incomplete_results: false, items: [] });
    const sent = pooledRequests('/search/repositories').map(
      (entry) => new URLSearchParams(entry.query).get('q') ?? '',
    );
    expect(sent).toEqual(['internals is:public']);
  });

  it.each([
    `/users/${carol}/repos`,
    `/users/${carol}/gists`,
    `/users/${carol}/events`,
    `/users/${carol}/received_events`,
  ])("%s is never read with carol's own token", async (path) => {
    exhaustAnonymous();
    const answer = await h.relay({ path, query: { per_page: '1' } });
    expect(answer.status).toBe(200);
    expect(answer.json.identity?.id).toBe('pat-bob-broad');
    // Pool `other` holds carol's token alone: the read goes to the caller's own credentials.
    const other = await h.relay(
      { pool: OTHER_POOL, path, query: { per_page: '2' } },
      w.callers.bob,
    );
    expect(other.status).toBe(424);
    expect(other.json.error.reason).toBe('identity_pool_depleted');
    expect(pooledRequests(path)).toHaveLength(1);
  });
});

describe('validators of a screened answer say nothing of its private part', () => {
  // A private fork of the public repository that alice's pooled PAT (an acme member) sees among
  // its forks: the screen removes it from the fork list that PAT reads for the relay.
  const FORKS = `${REPO}/forks`;
  const PRIVATE_FORK = `fork-internal-${PRIVATE_MARKER}`;
  beforeEach(() => {
    h.sim.world.addRepo({
      owner: org,
      name: PRIVATE_FORK,
      private: true,
      forkOf: `${org}/${publicRepo}`,
    });
  });

  /** GET of the forge with alice's pooled PAT, as the relay's pooled lane reads it. */
  async function pooledRead(path: string, headers: Record<string, string> = {}) {
    const token = h.secrets.get('secret_pat-alice') ?? '';
    return fetch(`${h.sim.urls.api}${path}`, {
      headers: { ...headers, authorization: `Bearer ${token}` },
    });
  }

  it('a pooled list with private items removed carries no ETag or Last-Modified, live or cached', async () => {
    exhaustAnonymous();
    const path = FORKS;
    const live = await h.relay({ path });
    expect(live.json.identity?.id).toBe('pat-alice');
    // The forge shows that PAT the private fork; the relay's answer does not.
    expect(await (await pooledRead(path)).text()).toContain(PRIVATE_MARKER);
    expect(exposedText(live)).not.toContain(PRIVATE_MARKER);
    expect(live.json.headers).not.toHaveProperty('etag');
    expect(live.json.headers).not.toHaveProperty('last-modified');
    const hit = await h.relay({ path });
    expect(hit.json.relay.cache).toBe('hit');
    expect(hit.json.headers).not.toHaveProperty('etag');
    expect(hit.json.headers).not.toHaveProperty('last-modified');
    // The entry keeps them for the relay's own revalidation: once expired, a free 304 refills it.
    h.advance(61_000);
    const refilled = await h.relay({ path });
    expect(pooledRequests(path).at(-1)?.status).toBe(304);
    expect(refilled.json.body).toEqual(live.json.body);
    expect(refilled.json.headers).not.toHaveProperty('etag');
    // The forge's ETag of that read covers the private fork: it changes when only the fork
    // changes, while the served (public) body stays the same.
    const before = (await pooledRead(path)).headers.get('etag');
    h.advance(1_000);
    h.sim.world.addCommit({
      owner: org,
      repo: PRIVATE_FORK,
      message: 'a private push',
      author: alice,
      files: { 'more.md': 'more' },
    });
    expect((await pooledRead(path)).headers.get('etag')).not.toBe(before);
  });

  it.each([
    ['if-none-match', async (path: string) => (await pooledRead(path)).headers.get('etag') ?? ''],
    ['if-modified-since', () => Promise.resolve(new Date(Date.UTC(2100, 0, 1)).toUTCString())],
  ] as const)(
    "a caller's %s is not sent to a pooled identity on a screened route: its 304 would be an oracle",
    async (header, value) => {
      exhaustAnonymous();
      const path = FORKS;
      const answer = await h.relay({ path, headers: { [header]: await value(path) } });
      expect(answer.json.identity?.id).toBe('pat-alice');
      expect(answer.json.status).toBe(200);
      expect(exposedText(answer)).not.toContain(PRIVATE_MARKER);
      const sent = pooledRequests(path).at(-1);
      expect(sent?.status).toBe(200);
    },
  );
});

describe('the shared cache holds public data only', () => {
  it('a filtered pooled answer is what is cached: another pool’s caller gets the same public hit', async () => {
    exhaustAnonymous();
    const first = await h.relay({ path: `/users/${carol}/repos` });
    expect(first.json.relay.cache).toBe('miss');
    const hit = await h.relay({ pool: OTHER_POOL, path: `/users/${carol}/repos` }, w.callers.bob);
    expect(hit.json.relay.cache).toBe('hit');
    expect(exposedText(hit)).not.toContain(PRIVATE_MARKER);
    expect(hit.json.body).toEqual(first.json.body);
  });

  it('a hit is served only after the requesting pool’s owner gate passes', async () => {
    await h.relay({ path: `/users/${carol}/repos` });
    await h.setPolicy(
      OTHER_POOL,
      JSON.stringify({ allowed_owners: [org], allow_public_repos: false }),
    );
    h.advance(31_000); // the pool policy cache
    const sentBefore = h.sim.requests.entries.length;
    const refused = await h.relay(
      { pool: OTHER_POOL, path: `/users/${carol}/repos` },
      w.callers.bob,
    );
    expect(refused.status).toBe(424);
    expect(refused.json.error.reason).toBe('repo_not_public');
    expect(h.sim.requests.entries.length).toBe(sentBefore);
  });

  it('a stale entry of a repository is served only after its proof', async () => {
    exhaustAnonymous();
    await h.relay({ path: `${REPO}/labels` });
    h.sim.world.setVisibility(org, publicRepo, true);
    h.advance(3_600_000); // the entry and the proof have expired
    h.sim.faults.inject({ credential: 'pat-1', action: { kind: 'status', status: 503 } });
    const answer = await h.relay({ path: `${REPO}/labels` });
    expect(answer.status).toBe(424);
    expect(answer.json.error.reason).toBe('repo_not_public');
  });
});

describe('the proof is bounded and self-correcting', () => {
  it('lives 60 s by default: a repository turned private is refused once it expires', async () => {
    const before = await h.relay({ path: `${REPO}/issues` });
    expect(before.status).toBe(200);
    h.sim.world.setVisibility(org, publicRepo, true);
    h.advance(59_000);
    expect((await h.relay({ path: `${REPO}/issues` })).json.relay.cache).toBe('hit');
    h.advance(2_000);
    const after = await h.relay({ path: `${REPO}/issues` });
    expect(after.status).toBe(424);
    expect(after.json.error.reason).toBe('repo_not_public');
  });

  it.each([
    ['search_code', '/search/code', { q: `repo:${org}/${publicRepo} widget` }],
    ['pull request', `${REPO}/pulls/1`, undefined],
  ] as const)(
    'a pooled %s answer revealing the repository private → 424, proof dropped, cache purged',
    async (_name, path, query) => {
      exhaustAnonymous();
      const cached = await h.relay({ path: `${REPO}/labels` });
      expect(cached.status).toBe(200);
      h.sim.world.setVisibility(org, publicRepo, true); // within the proof's lifetime
      const revealing = await h.relay({ path, ...(query === undefined ? {} : { query }) });
      expect(revealing.status).toBe(424);
      expect(revealing.json.error.reason).toBe('repo_not_public');
      // The proof is gone: the cached labels are no longer served, even within 60 s.
      const labels = await h.relay({ path: `${REPO}/labels` });
      expect(labels.json.error?.reason).toBe('repo_not_public');
      // Public again: the purged entry is refilled from upstream, not served from the cache.
      h.sim.world.setVisibility(org, publicRepo, false);
      h.advance(31_000); // the refusal's lifetime
      const refilled = await h.relay({ path: `${REPO}/labels` });
      expect(refilled.status).toBe(200);
      expect(refilled.json.relay.cache).toBe('miss');
    },
  );

  it('an object that only looks like another repository saying private refuses the answer, not that repository', async () => {
    // Bob (pool other) reads the public repository: proved and cached.
    const cached = await h.relay({ pool: OTHER_POOL, path: `${REPO}/labels` }, w.callers.bob);
    expect(cached.status).toBe(200);
    // Whoever can write to carol's public fork writes a deployment whose payload (arbitrary JSON)
    // is shaped like acme/widgets saying private.
    h.sim.faults.inject({
      path: `/repos/${carol}/${publicRepo}/deployments`,
      action: {
        kind: 'status',
        status: 200,
        body: [
          {
            id: 1,
            sha: h.ids.headSha,
            ref: 'main',
            environment: 'production',
            payload: { full_name: `${org}/${publicRepo}`, private: true },
          },
        ],
      },
    });
    const forged = await h.relay({ path: `/repos/${carol}/${publicRepo}/deployments` });
    expect(forged.status).toBe(424); // the answer itself is still refused
    expect(forged.json.error.reason).toBe('repo_not_public');
    // acme/widgets keeps its proof and its cache entries, for every pool.
    const labels = await h.relay({ pool: OTHER_POOL, path: `${REPO}/labels` }, w.callers.bob);
    expect(labels.status).toBe(200);
    expect(labels.json.relay.cache).toBe('hit');
    const view = await h.relay({ path: REPO });
    expect(view.status).toBe(200);
  });

  it('job logs use the proof: refused once the repository is private and the proof expired', async () => {
    const jobs = await h.relay({ path: `${REPO}/actions/runs/${String(h.ids.runId)}/jobs` });
    const jobId = (jobs.json.body as { jobs: { id: number }[] }).jobs[0]?.id;
    expect(jobId).toBeDefined();
    h.sim.world.setVisibility(org, publicRepo, true);
    h.advance(61_000);
    const logs = await h.relay({ path: `${REPO}/actions/jobs/${String(jobId)}/logs` });
    expect(logs.status).toBe(424);
    expect(logs.json.error.reason).toBe('repo_not_public');
  });
});

describe('the owner gate applies to owner-level routes (rule 9)', () => {
  it('allow_public_repos=false: another owner’s collection is refused before any read', async () => {
    await h.setPolicy(POOL, JSON.stringify({ allowed_owners: [org], allow_public_repos: false }));
    for (const path of [`/users/${carol}/repos`, `/users/${carol}/gists`, `/users/${carol}`]) {
      const answer = await h.relay({ path });
      expect(answer.status).toBe(424);
      expect(answer.json.error.reason).toBe('repo_not_public');
    }
    expect(h.sim.requests.entries).toHaveLength(0);
    // An allowed owner is served.
    expect((await h.relay({ path: `/orgs/${org}/repos` })).status).toBe(200);
  });

  it('allow_public_repos=true: another owner is served, by broad PATs only', async () => {
    exhaustAnonymous();
    const answer = await h.relay({ path: `/users/${carol}/followers` });
    expect(answer.status).toBe(200);
    expect(answer.json.identity.id).toBe('pat-carol');
  });
});

describe('viewer-relative fields are removed from repository objects', () => {
  it.each([
    ['fork list', `${REPO}/forks`],
    ['organization repository list', `/orgs/${org}/repos`],
    ['pull request (head and base repositories)', `${REPO}/pulls/1`],
    ['repository search', '/search/repositories?q=widgets'],
  ])('%s served by a pooled token carries no permissions', async (_name, target) => {
    exhaustAnonymous();
    const [path = '', q] = target.split('?q=');
    const answer = await h.relay({ path, ...(q === undefined ? {} : { query: { q } }) });
    expect(answer.status).toBe(200);
    expect(answer.json.identity?.kind).toBe('pat');
    const keys = allKeys(answer.json.body);
    for (const field of ['permissions', 'role_name', 'temp_clone_token', 'security_and_analysis']) {
      expect(keys.has(field), field).toBe(false);
    }
  });
});

describe('GET /user follows rule 6', () => {
  it.each([
    ['a 5xx', 502],
    ['a 401', 401],
  ])(
    'the anonymous lane answering %s is not a reason to use a pooled identity',
    async (_n, status) => {
      h.sim.faults.inject({ credential: 'anonymous', action: { kind: 'status', status } });
      const answer = await h.relay({ path: '/user' });
      expect(answer.status).toBe(424);
      expect(answer.json.error.reason).toBe('web_only_unavailable');
      expect(pooledRequests(`/users/${alice}`)).toHaveLength(0);
    },
  );

  it('a transport failure of the anonymous lane is not either', async () => {
    h.sim.faults.inject({ credential: 'anonymous', action: { kind: 'reset' } });
    const answer = await h.relay({ path: '/user' });
    expect(answer.status).toBe(424);
    expect(pooledRequests(`/users/${alice}`)).toHaveLength(0);
  });

  it('an exhausted anonymous quota is: a pooled identity reads the public profile', async () => {
    exhaustAnonymous();
    const answer = await h.relay({ path: '/user' }, w.callers.carol);
    expect(answer.status).toBe(200);
    expect(answer.json.body.login).toBe(carol);
    expect(pooledRequests(`/users/${carol}`).length).toBeGreaterThan(0);
    for (const field of ['plan', 'total_private_repos', 'owned_private_repos', 'private_gists']) {
      expect(answer.json.body).not.toHaveProperty(field);
    }
  });

  it('a healthy anonymous lane serves it anonymously', async () => {
    const answer = await h.relay({ path: '/user' });
    expect(answer.status).toBe(200);
    expect(answer.json.relay.backend).toBe('forge_public');
    expect(pooledRequests(`/users/${alice}`)).toHaveLength(0);
  });
});
