import { DEMO } from '@relay/forge-sim';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_AVAILABLE } from '../../src/scale/__fixtures__/test-redis.js';
import {
  POSTGRES_AVAILABLE,
  TEST_POSTGRES_URL,
} from '../../src/storage/__fixtures__/test-databases.js';
import { REPLICA_ADMIN, startReplicaSet, type ReplicaSet } from './redis-cache-fixture.js';

/**
 * Issue 25 item 2 (shared cache, coalescing, proofs, invalidation): three relay-server instances
 * in this process, on one PostgreSQL schema and one Redis prefix, against one forge-sim that
 * counts the upstream requests.
 */
describe.runIf(POSTGRES_AVAILABLE && REDIS_AVAILABLE)('three replicas sharing Redis', () => {
  let set: ReplicaSet;
  const repoPath = (rest: string) => `/repos/${DEMO.org}/${DEMO.publicRepo}${rest}`;
  const upstream = (path: string) => set.sim.requests.count({ host: 'api', path });

  beforeAll(async () => {
    set = await startReplicaSet(3);
  }, 60_000);
  afterAll(async () => {
    await set.close();
  });

  it('serves on B and C, as hits, what a miss on A fetched', async () => {
    const path = repoPath('/issues');
    const onA = await set.relay(0, path);
    expect(onA.status).toBe(200);
    expect(onA.json.relay?.cache).toBe('miss');
    for (const replica of [1, 2]) {
      const hit = await set.relay(replica, path);
      expect(hit.json.relay?.cache).toBe('hit');
      expect(hit.json.body).toEqual(onA.json.body);
    }
    expect(upstream(path)).toBe(1);
  });

  it('sends one upstream request for 50 identical concurrent misses spread over A, B and C', async () => {
    const path = repoPath('/labels');
    // The visibility proof of the repository is made once beforehand (it is shared too).
    await set.relay(0, repoPath('/issues'));
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => set.relay(i % 3, path)));
    expect(answers.map((answer) => answer.status)).toEqual(Array<number>(50).fill(200));
    expect(new Set(answers.map((answer) => JSON.stringify(answer.json.body))).size).toBe(1);
    expect(upstream(path)).toBe(1);
  });

  it('refuses a caller disabled in the database on every replica from its very next request', async () => {
    const path = repoPath('/issues');
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    const setDisabled = (disabled: number) =>
      client.query(`update ${set.schema}.callers set disabled = $1 where login = $2`, [
        disabled,
        DEMO.users.alice,
      ]);
    try {
      // Each round: every replica has the caller's lookups cached, then an operator's commit
      // lands and the next request goes straight to each replica (no notification waited for).
      for (let round = 0; round < 5; round++) {
        for (const replica of [0, 1, 2]) expect((await set.relay(replica, path)).status).toBe(200);
        await setDisabled(1);
        for (const replica of [2, 1, 0]) expect((await set.relay(replica, path)).status).toBe(401);
        await setDisabled(0);
      }
    } finally {
      await setDisabled(0);
      await client.end();
    }
  });

  it('applies a pool policy edited in the database on every replica from its next request', async () => {
    const path = repoPath('/issues');
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    const setPolicy = (policy: unknown) =>
      client.query(`update ${set.schema}.pools set policy_json = $1 where id = 'team'`, [
        JSON.stringify(policy),
      ]);
    try {
      for (const replica of [0, 1, 2]) expect((await set.relay(replica, path)).status).toBe(200);
      // The owner leaves allowed_owners and other owners' public repositories are refused.
      await setPolicy({ allowed_owners: [], allow_public_repos: false });
      for (const replica of [1, 2, 0]) {
        const refused = await set.relay(replica, path);
        expect(refused.status).toBe(424);
        expect(refused.json.error?.reason).toBe('repo_not_public');
      }
    } finally {
      await setPolicy({ allowed_owners: [DEMO.org] });
      await client.end();
    }
    for (const replica of [0, 1, 2]) expect((await set.relay(replica, path)).status).toBe(200);
  });

  it('applies on C, from its next request, a string-rewrite PUT made on A', async () => {
    const admin = (method: string, body?: unknown) =>
      fetch(`${set.replicas[0]!.url}/v1/admin/string-rewrites`, {
        method,
        headers: { authorization: `Bearer ${REPLICA_ADMIN}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const marker = repoPath('/issues/forbidden-marker-1');
    for (let round = 0; round < 3; round++) {
      // C holds the current snapshot.
      expect((await set.relay(2, repoPath('/issues'))).status).toBe(200);
      const current = (await (await admin('GET')).json()) as { revision: number };
      const rules = round % 2 === 0 ? [{ pattern: 'forbidden-marker', replacement: '' }] : [];
      expect(
        (await admin('PUT', { schema_version: 1, expected_revision: current.revision, rules }))
          .status,
      ).toBe(200);
      const next = await set.relay(2, marker);
      if (rules.length > 0) {
        expect(next.status).toBe(403);
        expect(next.json.error?.code).toBe('string_rewrite_denied');
      } else {
        expect(next.json.error?.code).not.toBe('string_rewrite_denied');
      }
    }
  });

  it('never serves a cached byte of a repository another replica found private', async () => {
    set.sim.world.addRepo({ owner: DEMO.org, name: 'gizmos', private: false });
    const path = `/repos/${DEMO.org}/gizmos`;
    expect((await set.relay(0, path)).json.relay?.cache).toBe('miss');
    expect((await set.relay(2, path)).json.relay?.cache).toBe('hit');
    set.sim.world.setVisibility(DEMO.org, 'gizmos', true);
    // B refreshes the repository and learns it is private (the anonymous read answers 404).
    await set.relay(1, path, { headers: { 'cache-control': 'max-age=0' } });
    for (const replica of [0, 2, 1]) {
      const refused = await set.relay(replica, path);
      expect(refused.status).toBe(424);
      expect(refused.json.error?.reason).toBe('repo_not_public');
    }
  });
});
