import { get as httpGet } from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT, importPKCS8 } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createForgeSim, type ForgeSim } from './forge-sim.js';
import { seedDemoWorld, type DemoWorldIds } from './world/demo-world.js';
import { createSimClock, type SimClock } from './world/sim-clock.js';

const START = Date.parse('2026-03-02T10:00:00Z');

let sim: ForgeSim;
let clock: SimClock;
let ids: DemoWorldIds;
let alice: string;
let carol: string;
const delays: number[] = [];

beforeEach(async () => {
  clock = createSimClock({ start: START });
  delays.length = 0;
  sim = await createForgeSim({
    clock,
    statsDelayMs: 5_000,
    delay: (ms) => {
      delays.push(ms);
      return Promise.resolve();
    },
  });
  ids = seedDemoWorld(sim.world);
  alice = sim.tokens.addPat({ login: 'alice' }).token;
  carol = sim.tokens.addPat({ login: 'carol' }).token;
});

afterEach(async () => {
  await sim.close();
});

function get(
  path: string,
  init: { token?: string; headers?: Record<string, string>; base?: string } = {},
): Promise<Response> {
  return fetch(`${init.base ?? sim.urls.api}${path}`, {
    redirect: 'manual',
    headers: {
      ...(init.token === undefined ? {} : { authorization: `token ${init.token}` }),
      ...init.headers,
    },
  });
}

describe('visibility', () => {
  it.each([
    ['anonymous', undefined, 404],
    ['a member of the owning org', 'alice', 200],
    ['a token without access', 'carol', 404],
  ] as const)('a private repository is %s → %i', async (_who, who, status) => {
    const token = who === 'alice' ? alice : who === 'carol' ? carol : undefined;
    const res = await get('/repos/acme/secret-sauce', token === undefined ? {} : { token });
    expect(res.status).toBe(status);
  });

  it('hides private repositories from org lists and search for outsiders', async () => {
    const outsider = (await (await get('/orgs/acme/repos', { token: carol })).json()) as {
      name: string;
    }[];
    const member = (await (await get('/orgs/acme/repos', { token: alice })).json()) as {
      name: string;
    }[];
    expect(outsider.map((r) => r.name)).not.toContain('secret-sauce');
    expect(member.map((r) => r.name)).toContain('secret-sauce');
  });

  it("answers an org list's type and a repository search's is:public / is:private for a member", async () => {
    const names = async (path: string) => {
      const body = (await (await get(path, { token: alice })).json()) as
        { name: string }[] | { items: { name: string }[] };
      return (Array.isArray(body) ? body : body.items).map((r) => r.name);
    };
    expect(await names('/orgs/acme/repos?type=public')).not.toContain('secret-sauce');
    expect(await names('/orgs/acme/repos?type=public')).toContain('widgets');
    expect(await names('/orgs/acme/repos?type=private')).toEqual(['secret-sauce']);
    expect(await names('/orgs/acme/repos?type=all')).toContain('secret-sauce');
    expect(await names('/search/repositories?q=sauce')).toEqual(['secret-sauce']);
    expect(await names('/search/repositories?q=sauce+is:public')).toEqual([]);
    expect(await names('/search/repositories?q=sauce+is:private')).toEqual(['secret-sauce']);
    expect(await names('/search/repositories?q=sauce+is:private+is:public')).toEqual([]);
  });

  it('serves permissions only to authenticated callers, per token', async () => {
    const anon = (await (await get('/repos/acme/widgets')).json()) as Record<string, unknown>;
    const admin = (await (await get('/repos/acme/widgets', { token: alice })).json()) as {
      permissions: Record<string, boolean>;
    };
    const pusher = (await (await get('/repos/acme/widgets', { token: carol })).json()) as {
      permissions: Record<string, boolean>;
    };
    expect(anon).not.toHaveProperty('permissions');
    expect(admin.permissions).toMatchObject({ admin: true, push: true, pull: true });
    expect(pusher.permissions).toMatchObject({ admin: false, push: true, pull: true });
  });

  it('keeps private repositories off the web and raw hosts', async () => {
    expect((await get('/acme/secret-sauce', { base: sim.urls.web })).status).toBe(404);
    expect((await get('/acme/secret-sauce/main/RECIPE.md', { base: sim.urls.raw })).status).toBe(
      404,
    );
    const raw = await get('/acme/widgets/main/src/index.ts', { base: sim.urls.raw });
    expect(await raw.text()).toBe('export const widget = 1;\n');
  });
});

describe('connections', () => {
  it('advertises a keep-alive that clients keep (undici drops one under 2 s)', async () => {
    const advertised = await new Promise<string | undefined>((resolve, reject) => {
      httpGet(`${sim.urls.api}/repos/acme/widgets`, (res) => {
        res.resume();
        const value = res.headers['keep-alive'];
        resolve(typeof value === 'string' ? value : undefined);
      }).on('error', reject);
    });
    const seconds = Number(/timeout=(\d+)/.exec(advertised ?? '')?.[1]);
    expect(seconds).toBeGreaterThan(2);
  });
});

describe('pagination', () => {
  it('cuts pages with per_page (max 100) and absolute Link headers', async () => {
    for (let i = 0; i < 5; i++)
      sim.world.addIssue({ owner: 'acme', repo: 'widgets', title: `extra ${i}` });
    const res = await get('/repos/acme/widgets/issues?per_page=2&state=all', { token: alice });
    const body = (await res.json()) as unknown[];
    expect(body).toHaveLength(2);
    const link = res.headers.get('link') ?? '';
    expect(link).toContain(
      `<${sim.urls.api}/repos/acme/widgets/issues?per_page=2&state=all&page=2>; rel="next"`,
    );
    expect(link).toMatch(/page=\d+>; rel="last"/);
    const last = /<([^>]+)>; rel="last"/.exec(link)?.[1] ?? '';
    const lastPage = await fetch(last, { headers: { authorization: `token ${alice}` } });
    expect(lastPage.headers.get('link')).toContain('rel="first"');
    expect(lastPage.headers.get('link')).not.toContain('rel="next"');
  });

  it('caps per_page at 100', async () => {
    for (let i = 0; i < 105; i++) sim.world.addStar('acme', 'widgets', `fan${i}`);
    const res = await get('/repos/acme/widgets/stargazers?per_page=500', { token: alice });
    expect((await res.json()) as unknown[]).toHaveLength(100);
  });
});

describe('conditional requests', () => {
  it('answers If-None-Match with 304 and does not charge authenticated callers', async () => {
    const first = await get('/repos/acme/widgets', { token: alice });
    const etag = first.headers.get('etag') ?? '';
    const used = Number(first.headers.get('x-ratelimit-used'));
    const second = await get('/repos/acme/widgets', {
      token: alice,
      headers: { 'if-none-match': etag },
    });
    expect(second.status).toBe(304);
    expect(Number(second.headers.get('x-ratelimit-used'))).toBe(used);
  });

  it('charges anonymous 304 answers', async () => {
    const first = await get('/repos/acme/widgets');
    const second = await get('/repos/acme/widgets', {
      headers: { 'if-none-match': first.headers.get('etag') ?? '' },
    });
    expect(second.status).toBe(304);
    expect(Number(second.headers.get('x-ratelimit-used'))).toBe(
      Number(first.headers.get('x-ratelimit-used')) + 1,
    );
  });

  it('answers If-Modified-Since with 304 until the resource changes', async () => {
    const first = await get('/repos/acme/widgets/issues/' + String(ids.issueNumber), {
      token: alice,
    });
    const lastModified = first.headers.get('last-modified') ?? '';
    expect(lastModified).not.toBe('');
    const again = await get('/repos/acme/widgets/issues/' + String(ids.issueNumber), {
      token: alice,
      headers: { 'if-modified-since': lastModified },
    });
    expect(again.status).toBe(304);
    clock.advance(60_000);
    sim.world.addIssueComment({
      owner: 'acme',
      repo: 'widgets',
      number: ids.issueNumber,
      body: 'bump',
    });
    const changed = await get('/repos/acme/widgets/issues/' + String(ids.issueNumber), {
      token: alice,
      headers: { 'if-modified-since': lastModified },
    });
    expect(changed.status).toBe(200);
  });

  it('gives different ETags to different tokens for the same body', async () => {
    const a = await get('/repos/acme/widgets/labels', { token: alice });
    const c = await get('/repos/acme/widgets/labels', { token: carol });
    expect(await a.text()).toBe(await c.text());
    expect(a.headers.get('etag')).not.toBe(c.headers.get('etag'));
  });
});

describe('rate limits', () => {
  it('sends x-ratelimit headers per bucket', async () => {
    const core = await get('/repos/acme/widgets', { token: alice });
    const search = await get('/search/issues?q=wobble', { token: alice });
    expect(core.headers.get('x-ratelimit-resource')).toBe('core');
    expect(core.headers.get('x-ratelimit-limit')).toBe('5000');
    expect(search.headers.get('x-ratelimit-resource')).toBe('search');
    expect(search.headers.get('x-ratelimit-limit')).toBe('30');
    expect(Number(core.headers.get('x-ratelimit-remaining'))).toBe(4999);
  });

  it('shares one budget per PAT user and answers 403 with remaining 0 when exhausted, until reset', async () => {
    const second = sim.tokens.addPat({ login: 'alice' }).token;
    sim.rateLimits.exhaust({ login: 'alice' });
    const res = await get('/repos/acme/widgets', { token: second });
    expect(res.status).toBe(403);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    const reset = Number(res.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(START / 1000);
    clock.set(reset * 1000 + 1);
    expect((await get('/repos/acme/widgets', { token: alice })).status).toBe(200);
  });

  it('keeps anonymous, search and core budgets apart', async () => {
    sim.rateLimits.exhaust({ anonymous: '127.0.0.1' });
    expect((await get('/repos/acme/widgets')).status).toBe(403);
    expect((await get('/repos/acme/widgets', { token: alice })).status).toBe(200);
    expect((await get('/search/repositories?q=widgets')).status).toBe(200);
  });

  it('does not charge /rate_limit and reports every bucket', async () => {
    await get('/repos/acme/widgets', { token: alice });
    const a = (await (await get('/rate_limit', { token: alice })).json()) as {
      resources: Record<string, { used: number }>;
    };
    const b = (await (await get('/rate_limit', { token: alice })).json()) as {
      resources: Record<string, { used: number }>;
    };
    expect(a.resources.core?.used).toBe(1);
    expect(b.resources.core?.used).toBe(1);
    expect(Object.keys(a.resources)).toEqual(
      expect.arrayContaining(['core', 'search', 'code_search', 'graphql']),
    );
  });

  it('answers 401 for revoked and unknown tokens', async () => {
    sim.tokens.revoke(alice);
    expect((await get('/repos/acme/widgets', { token: alice })).status).toBe(401);
    expect((await get('/repos/acme/widgets', { token: 'ghp_nope' })).status).toBe(401);
  });

  it('requires authentication for code search', async () => {
    expect((await get('/search/code?q=widget')).status).toBe(401);
    const res = await get('/search/code?q=widget', { token: alice });
    expect(res.headers.get('x-ratelimit-resource')).toBe('code_search');
  });

  it('sends a code result’s text matches only for the text-match media type (indices in UTF-8 bytes)', async () => {
    interface CodeItem {
      path: string;
      text_matches?: {
        fragment: string;
        property: string;
        matches: { text: string; indices: [number, number] }[];
      }[];
    }
    const plain = (await (await get('/search/code?q=widget', { token: alice })).json()) as {
      items: CodeItem[];
    };
    expect(plain.items.length).toBeGreaterThan(0);
    expect(plain.items.every((item) => item.text_matches === undefined)).toBe(true);
    const matched = (await (
      await get('/search/code?q=widget', {
        token: alice,
        headers: { accept: 'application/vnd.github.text-match+json' },
      })
    ).json()) as { items: CodeItem[] };
    const [first] = matched.items;
    const [textMatch] = first?.text_matches ?? [];
    expect(textMatch?.property).toBe('content');
    expect(textMatch?.matches.length).toBeGreaterThan(0);
    const bytes = Buffer.from(textMatch?.fragment ?? '');
    for (const match of textMatch?.matches ?? []) {
      const [start, end] = match.indices;
      expect(bytes.subarray(start, end).toString()).toBe(match.text);
      expect(match.text.toLowerCase()).toBe('widget');
    }
  });

  it.each([403, 429] as const)(
    'injects secondary limits (%i with Retry-After while budget remains)',
    async (status) => {
      sim.faults.inject({
        credential: alice,
        action: { kind: 'secondary_limit', status, retryAfterS: 30 },
        times: 1,
      });
      const res = await get('/repos/acme/widgets', { token: alice });
      expect(res.status).toBe(status);
      expect(res.headers.get('retry-after')).toBe('30');
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
      expect((await get('/repos/acme/widgets', { token: alice })).status).toBe(200);
    },
  );
});

describe('/user and memberships', () => {
  it('returns the token user', async () => {
    const body = (await (await get('/user', { token: alice })).json()) as {
      login: string;
      id: number;
    };
    expect(body.login).toBe('alice');
    expect(body.id).toBe(sim.world.getUser('alice')?.id);
    expect((await get('/user')).status).toBe(401);
  });

  it.each([
    ['alice', 200],
    ['bob', 200],
    ['carol', 404],
  ] as const)('membership of %s in acme → %i', async (login, status) => {
    const token = sim.tokens.addPat({ login }).token;
    const res = await get('/user/memberships/orgs/acme', { token });
    expect(res.status).toBe(status);
    if (status === 200)
      expect(await res.json()).toMatchObject({ state: 'active', organization: { login: 'acme' } });
  });

  it('hides private members from the public-members check', async () => {
    expect((await get('/orgs/acme/public_members/alice')).status).toBe(204);
    expect((await get('/orgs/acme/public_members/bob')).status).toBe(404);
  });
});

describe('app installation tokens', () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

  async function jwtFor(
    appId: number,
    iat: number,
    exp: number,
    pem = privateKeyPem,
  ): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(String(appId))
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(await importPKCS8(pem, 'RS256'));
  }

  function exchange(jwt: string, installation = 77): Promise<Response> {
    return fetch(`${sim.urls.api}/app/installations/${installation}/access_tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}` },
    });
  }

  beforeEach(() => {
    sim.apps.addApp({ id: 9, publicKeyPem });
    sim.apps.addInstallation({ id: 77, appId: 9, account: 'acme', repositories: ['secret-sauce'] });
  });

  it('issues an installation token that reads the installed private repository', async () => {
    const now = Math.floor(START / 1000);
    const res = await exchange(await jwtFor(9, now - 30, now + 540));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { token: string; expires_at: string };
    expect(Date.parse(body.expires_at)).toBe(START + 3_600_000);
    const repo = await get('/repos/acme/secret-sauce', { token: body.token });
    expect(repo.status).toBe(200);
    expect(repo.headers.get('x-ratelimit-limit')).toBe('5000');
    clock.advance(3_600_000);
    expect((await get('/repos/acme/secret-sauce', { token: body.token })).status).toBe(401);
  });

  it.each([
    ['an expired JWT', -700, -100, false],
    ['a JWT living longer than ten minutes', -10, 900, false],
    ['a JWT signed by another key', -10, 500, true],
  ])('refuses %s with 401', async (_name, iatOffset, expOffset, otherKey) => {
    const now = Math.floor(START / 1000);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const jwt = await jwtFor(9, now + iatOffset, now + expOffset, otherKey ? other : privateKeyPem);
    expect((await exchange(jwt)).status).toBe(401);
  });

  it('answers 404 for an installation of another app', async () => {
    const now = Math.floor(START / 1000);
    expect((await exchange(await jwtFor(9, now, now + 300), 12345)).status).toBe(404);
  });
});

describe('job logs', () => {
  it('redirects to a signed log URL that expires after a minute', async () => {
    const res = await get(`/repos/acme/widgets/actions/jobs/${ids.jobId}/logs`, { token: alice });
    expect(res.status).toBe(302);
    const location = res.headers.get('location') ?? '';
    expect(location.startsWith(sim.urls.log)).toBe(true);
    const log = await fetch(location);
    expect(log.status).toBe(200);
    expect(await log.text()).toBe('Building...\nBuild OK\n');
    expect((await fetch(location.replace(/sig=[^&]+/, 'sig=forged'))).status).toBe(403);
    clock.advance(61_000);
    expect((await fetch(location)).status).toBe(403);
  });
});

describe('repository statistics', () => {
  it('answers 202 while computing, then 200', async () => {
    expect((await get('/repos/acme/widgets/stats/contributors', { token: alice })).status).toBe(
      202,
    );
    expect((await get('/repos/acme/widgets/stats/contributors', { token: alice })).status).toBe(
      202,
    );
    clock.advance(5_000);
    const ready = await get('/repos/acme/widgets/stats/contributors', { token: alice });
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { author: { login: string }; total: number }[];
    expect(body.map((c) => c.author.login)).toContain('bob');
  });
});

describe('bodies', () => {
  it('shape pull requests like GitHub with head and base SHAs', async () => {
    const pr = (await (
      await get(`/repos/acme/widgets/pulls/${ids.pullNumber}`, { token: alice })
    ).json()) as Record<string, unknown>;
    expect(pr).toMatchObject({
      number: ids.pullNumber,
      state: 'open',
      merged: false,
      draft: false,
      head: { sha: ids.headSha, ref: 'feature/sprockets' },
      base: { ref: 'main' },
    });
    expect(pr.html_url).toBe(`${sim.urls.web}/acme/widgets/pull/${ids.pullNumber}`);
    const merged = (await (
      await get(`/repos/acme/widgets/pulls/${ids.mergedPullNumber}`, { token: alice })
    ).json()) as Record<string, unknown>;
    expect(merged).toMatchObject({ state: 'closed', merged: true });
  });

  it('embed the simple repository shape in workflow runs and combined statuses, as GitHub does', async () => {
    // GitHub's examples (actions/get-workflow-run, repos/get-combined-status-for-ref) give these
    // `repository` objects no pushed_at, updated_at or counts: they stay the same when someone
    // pushes to another branch or opens an issue.
    const paths = [
      `/repos/acme/widgets/actions/runs/${String(ids.runId)}`,
      `/repos/acme/widgets/commits/${ids.headSha}/status`,
    ];
    const before = await Promise.all(paths.map((p) => get(p, { token: alice })));
    for (const response of before) {
      const body = (await response.clone().json()) as { repository: Record<string, unknown> };
      expect(body.repository).toMatchObject({ full_name: 'acme/widgets', private: false });
      expect(body.repository).not.toHaveProperty('pushed_at');
      expect(body.repository).not.toHaveProperty('open_issues_count');
    }
    clock.advance(60_000);
    sim.world.addBranch({ owner: 'acme', repo: 'widgets', name: 'elsewhere' });
    sim.world.addCommit({
      owner: 'acme',
      repo: 'widgets',
      branch: 'elsewhere',
      message: 'Unrelated push',
      files: { 'other.txt': 'x\n' },
    });
    sim.world.addIssue({ owner: 'acme', repo: 'widgets', title: 'Unrelated issue' });
    for (const [i, path] of paths.entries()) {
      const again = await get(path, {
        token: alice,
        headers: { 'if-none-match': before[i]?.headers.get('etag') ?? '' },
      });
      expect(again.status).toBe(304);
    }
  });

  it('serves the same diff on the API (Accept diff) and the web .diff page', async () => {
    const api = await (
      await get(`/repos/acme/widgets/pulls/${ids.pullNumber}`, {
        token: alice,
        headers: { accept: 'application/vnd.github.diff' },
      })
    ).text();
    const web = await (
      await get(`/acme/widgets/pull/${ids.pullNumber}.diff`, { base: sim.urls.web })
    ).text();
    expect(api).toBe(web);
    expect(web).toContain('+export const sprocket = 3;');
    const patch = await (
      await get(`/acme/widgets/pull/${ids.pullNumber}.patch`, { base: sim.urls.web })
    ).text();
    expect(patch).toContain('Subject: [PATCH 1/2] Add sprockets');
  });
});

describe('faults and the request log', () => {
  it('records method, host, path, query, credential label and status — never the token', async () => {
    await get('/repos/acme/widgets?x=1', { token: alice });
    await get('/acme/widgets', { base: sim.urls.web });
    const [api, web] = sim.requests.entries;
    expect(api).toMatchObject({
      method: 'GET',
      host: 'api',
      path: '/repos/acme/widgets',
      query: 'x=1',
      credential: 'pat-1',
      status: 200,
    });
    expect(web).toMatchObject({ host: 'web', credential: 'anonymous', status: 200 });
    expect(JSON.stringify(sim.requests.entries)).not.toContain(alice);
  });

  it('injects a status per path, a given number of times', async () => {
    sim.faults.inject({
      pathPrefix: '/repos/acme/widgets/pulls',
      action: { kind: 'status', status: 502 },
      times: 1,
    });
    expect((await get('/repos/acme/widgets/pulls', { token: alice })).status).toBe(502);
    expect((await get('/repos/acme/widgets/pulls', { token: alice })).status).toBe(200);
    expect(sim.requests.find({ status: 502 })[0]?.fault).toBe('status');
  });

  it('answers a status fault with the exact JSON text it was given', async () => {
    const text = '{\n  "score": 1.0,\n  "body": "\\u003c!-- x --\\u003e"\n}\n';
    sim.faults.inject({
      path: '/repos/acme/widgets/issues',
      action: { kind: 'status', status: 200, bodyText: text },
    });
    const res = await get('/repos/acme/widgets/issues');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.text()).toBe(text);
  });

  it('applies faults per host only', async () => {
    sim.faults.inject({ host: 'raw', action: { kind: 'status', status: 503 } });
    expect((await get('/acme/widgets/main/README.md', { base: sim.urls.raw })).status).toBe(503);
    expect((await get('/repos/acme/widgets')).status).toBe(200);
  });

  it('resets the connection', async () => {
    sim.faults.inject({ path: '/repos/acme/widgets', action: { kind: 'reset' } });
    await expect(get('/repos/acme/widgets')).rejects.toThrow();
    expect(sim.requests.find({ path: '/repos/acme/widgets' })[0]?.status).toBe(0);
  });

  it('truncates the body', async () => {
    sim.faults.inject({ path: '/repos/acme/widgets', action: { kind: 'truncate', bytes: 10 } });
    const res = await get('/repos/acme/widgets');
    await expect(res.text()).rejects.toThrow();
  });

  it('sends an oversized body of the requested size', async () => {
    sim.faults.inject({
      path: '/repos/acme/widgets',
      action: { kind: 'oversize', bytes: 3 * 1024 * 1024 },
    });
    const res = await get('/repos/acme/widgets');
    expect(Number(res.headers.get('content-length'))).toBeGreaterThanOrEqual(3 * 1024 * 1024 - 16);
    expect((await res.arrayBuffer()).byteLength).toBe(Number(res.headers.get('content-length')));
  });

  it('applies a probabilistic fault by the injected random source', async () => {
    const draws = [0.5, 0.05, 0.5];
    const seeded = await createForgeSim({
      clock,
      random: () => draws.shift() ?? 1,
    });
    try {
      seedDemoWorld(seeded.world);
      seeded.faults.inject({
        host: 'api',
        probability: 0.1,
        action: { kind: 'status', status: 503 },
      });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${seeded.urls.api}/emojis`);
        await res.arrayBuffer();
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 503, 200]);
      expect(seeded.requests.entries.map((e) => e.fault)).toEqual([undefined, 'status', undefined]);
    } finally {
      await seeded.close();
    }
  });

  it('delays (latency) and drips through the injected delay', async () => {
    sim.faults.inject({ path: '/emojis', action: { kind: 'latency', ms: 250 }, times: 1 });
    await (await get('/emojis')).text();
    expect(delays).toEqual([250]);
    sim.faults.inject({
      path: '/repos/acme/widgets/topics',
      action: { kind: 'drip', chunkBytes: 4, intervalMs: 7 },
    });
    const body = await (await get('/repos/acme/widgets/topics')).json();
    expect(body).toEqual({ names: ['widgets', 'demo'] });
    expect(delays.slice(1).every((d) => d === 7)).toBe(true);
    expect(delays.length).toBeGreaterThan(3);
  });
});
