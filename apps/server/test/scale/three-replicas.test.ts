import {
  DEMO,
  createForgeSim,
  createSimClock,
  seedDemoWorld,
  type ForgeSim,
} from '@relay/forge-sim';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_AVAILABLE } from '../../src/scale/__fixtures__/test-redis.js';
import {
  POSTGRES_AVAILABLE,
  TEST_POSTGRES_URL,
} from '../../src/storage/__fixtures__/test-databases.js';
import {
  demoRelayEnv,
  openScaledBackend,
  registerAliceIdentity,
  type ServerBackend,
} from '../pipeline/relay-harness.js';
import { callReplica, startReplicaProcess, type ReplicaProcess } from './replica-processes.js';

/**
 * Issue 25 item 3: three relay-server processes on one PostgreSQL schema and one Redis prefix,
 * against one forge-sim, behave as one relay. Every replica is a real process started from source
 * with the variables an operator sets (RELAY_DATABASE_URL, RELAY_REDIS_URL); the forge counts the
 * upstream requests.
 */
const ADMIN = 'three-replicas-admin-token-0123456789';
const POOL = 'team';

let sim: ForgeSim;
let backend: (ServerBackend & { readonly schema: string }) | undefined;
let replicas: ReplicaProcess[] = [];
let callerToken: string;
let statsToken: string;
/** forge-sim's id of carol's PAT (an identity registered only by the pace case). */
let carolCredential: string;
let ids: ReturnType<typeof seedDemoWorld>;

const relay = (
  replica: ReplicaProcess,
  path: string,
  token = callerToken,
  query?: Record<string, string>,
) =>
  callReplica(replica.url, 'POST', '/v1/forge/request', token, {
    pool: POOL,
    method: 'GET',
    path,
    ...(query === undefined ? {} : { query }),
  });

/** The governor's pace per sender on every replica (points a minute), shared through Redis. */
const PACE = 20;

/** Upstream requests of the API host for `path` so far (any credential). */
const upstreamCount = (path: string) => sim.requests.count({ host: 'api', path });

/** Polls `read` until `done` holds, at most `tries` times 100 ms apart; returns the last value. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, tries = 100) {
  let value = await read();
  for (let i = 0; i < tries && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

describe.runIf(POSTGRES_AVAILABLE && REDIS_AVAILABLE)(
  'three replicas on one PostgreSQL and one Redis',
  () => {
    beforeAll(async () => {
      sim = await createForgeSim({
        clock: createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') }),
      });
      ids = seedDemoWorld(sim.world);
      const { token: alicePat } = sim.tokens.addPat({ login: DEMO.users.alice });
      const carolPat = sim.tokens.addPat({ login: DEMO.users.carol });
      carolCredential = carolPat.id;
      backend = openScaledBackend('replicas');
      const env = {
        ...backend.env,
        RELAY_ADMIN_TOKEN: ADMIN,
        ...demoRelayEnv(sim, POOL),
        RELAY_MAX_CONNECTIONS_PER_PEER: '0',
        RELAY_MAX_CALLER_CONCURRENCY: '0',
        RELAY_GOVERNOR_POINTS_PER_MINUTE: String(PACE),
        RELAY_GOVERNOR_MAX_WAIT_MS: '0',
        RELAY_SECRET_alice_pat: alicePat,
        RELAY_SECRET_carol_pat: carolPat.token,
      };
      // The first replica migrates the schema; the other two start against it at once.
      const a = await startReplicaProcess('A', env);
      const [b, c] = await Promise.all([
        startReplicaProcess('B', env),
        startReplicaProcess('C', env),
      ]);
      replicas = [a, b, c];
      await registerAliceIdentity(a.url, ADMIN, POOL);
      const caller = await callReplica(a.url, 'POST', '/v1/admin/callers', ADMIN, {
        pool: POOL,
        forge_login: DEMO.users.bob,
        name: 'replica-test',
      });
      expect(caller.status).toBe(201);
      callerToken = caller.json.token;
      // A second client of the same caller, used only by the stats case (on replica B).
      const stats = await callReplica(b.url, 'POST', '/v1/admin/callers', ADMIN, {
        pool: POOL,
        forge_login: DEMO.users.bob,
        name: 'stats-client',
      });
      expect(stats.status).toBe(201);
      statsToken = stats.json.token;
    }, 120_000);

    afterAll(async () => {
      await Promise.all(replicas.map((replica) => replica.stop()));
      await sim.close();
      await backend?.close();
    });

    it('serves on B, as a hit, what a miss on A fetched', async () => {
      const [a, b] = replicas as [ReplicaProcess, ReplicaProcess, ReplicaProcess];
      const path = `/repos/${DEMO.org}/${DEMO.publicRepo}/pulls/${String(ids.pullNumber)}`;
      const first = await relay(a, path);
      expect(first.status).toBe(200);
      expect(first.json.relay.cache).toBe('miss');
      const upstream = upstreamCount(path);
      const second = await relay(b, path);
      expect(second.status).toBe(200);
      expect(second.json.relay.cache).toBe('hit');
      expect(second.json.body).toEqual(first.json.body);
      expect(upstreamCount(path)).toBe(upstream);
    });

    it('sends one upstream request for 50 identical concurrent misses spread over A, B and C', async () => {
      const path = `/repos/${DEMO.org}/${DEMO.publicRepo}/issues/${String(ids.issueNumber)}/comments`;
      expect(upstreamCount(path)).toBe(0);
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => relay(replicas[i % 3]!, path)),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 50 }, () => 200));
      expect(new Set(answers.map((answer) => JSON.stringify(answer.json.body))).size).toBe(1);
      expect(upstreamCount(path)).toBe(1);
    });

    it('refuses a disabled caller on every replica from its next request', async () => {
      const extra = await callReplica(replicas[0]!.url, 'POST', '/v1/admin/callers', ADMIN, {
        pool: POOL,
        forge_login: DEMO.users.alice,
        name: 'to-disable',
      });
      expect(extra.status).toBe(201);
      const token: string = extra.json.token;
      const path = `/repos/${DEMO.org}/${DEMO.publicRepo}/pulls/${String(ids.pullNumber)}`;
      for (const replica of replicas) expect((await relay(replica, path, token)).status).toBe(200);
      // An operator disables the caller in the database (there is no admin endpoint for it).
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`set search_path to ${backend!.schema}`);
        await client.query(`update callers set disabled = 1 where login = $1`, [DEMO.users.alice]);
      } finally {
        await client.end();
      }
      for (const replica of replicas) {
        const refused = await relay(replica, path, token);
        // A disabled caller's token authenticates no more: 401, as on one process.
        expect(refused.status, replica.name).toBe(401);
      }
    });

    it('applies on C, from its next request, a string-rewrite PUT made on A', async () => {
      const [a, , c] = replicas as [ReplicaProcess, ReplicaProcess, ReplicaProcess];
      const current = await callReplica(a.url, 'GET', '/v1/admin/string-rewrites', ADMIN);
      const put = await callReplica(a.url, 'PUT', '/v1/admin/string-rewrites', ADMIN, {
        schema_version: 1,
        expected_revision: current.json.revision,
        rules: [{ pattern: 'forbidden-marker', replacement: '[redacted]' }],
      });
      expect(put.status).toBe(200);
      const denied = await relay(c, `/repos/${DEMO.org}/forbidden-marker`);
      expect(denied.status).toBe(403);
      expect(denied.json.error?.code ?? denied.json.code).toBe('string_rewrite_denied');
    });

    it('counts every replica’s work in stats and audit', async () => {
      const token = statsToken;
      const path = `/repos/${DEMO.org}/${DEMO.publicRepo}/issues/${String(ids.issueNumber)}`;
      for (const replica of replicas) expect((await relay(replica, path, token)).status).toBe(200);
      const stats = () =>
        callReplica(
          replicas[2]!.url,
          'GET',
          `/v1/pools/${POOL}/stats?window=30m&client=stats-client`,
          token,
        );
      // The audit is written in batches off the response path: wait for all three replicas' rows.
      const served = (answer: Awaited<ReturnType<typeof stats>>): number =>
        (answer.json.client_usage as { client: string; requests: number }[]).find(
          (usage) => usage.client === 'stats-client',
        )?.requests ?? 0;
      const after = await eventually(stats, (answer) => served(answer) >= 3);
      expect(served(after)).toBe(3);
    });

    // Last: the identity stays cooled down for the rest of the run.
    it('honours on B a cooldown that A set', async () => {
      const [a, b] = replicas as [ReplicaProcess, ReplicaProcess, ReplicaProcess];
      const path = `/repos/${DEMO.org}/${DEMO.publicRepo}/pulls/${String(ids.pullNumber)}/commits`;
      // The forge answers the anonymous lane and alice's identity with a secondary limit once:
      // A cools the identity down.
      for (const credential of ['anonymous', 'pat-1']) {
        sim.faults.inject({
          host: 'api',
          path,
          credential,
          action: { kind: 'secondary_limit', status: 403, retryAfterS: 60 },
          times: 1,
        });
      }
      const limited = await relay(a, path);
      expect(limited.status).not.toBe(200);
      const health = await callReplica(b.url, 'GET', `/v1/pools/${POOL}/health`, callerToken);
      expect(health.status).toBe(200);
      expect(health.json.identities_cooling_down).toBe(1);
      // B does not send alice's identity upstream while it cools down.
      const before = sim.requests.count({ host: 'api', credential: 'pat-1' });
      const onB = await relay(
        b,
        `/repos/${DEMO.org}/${DEMO.publicRepo}/pulls/${String(ids.mergedPullNumber)}`,
      );
      expect(onB.json.identity?.id).not.toBe('alice');
      expect(sim.requests.count({ host: 'api', credential: 'pat-1' })).toBe(before);
    });

    it('keeps every sender under the pace together, whichever replica sends (issue 27 item 6)', async () => {
      // alice's identity cools down since the case above: carol's, registered now, and the
      // anonymous lane serve. 3 × 25 distinct reads spread over A, B and C: more than the pace
      // allows a minute.
      const carol = await callReplica(
        replicas[0]!.url,
        'POST',
        `/v1/admin/pools/${POOL}/identities`,
        ADMIN,
        {
          id: 'carol-pat',
          kind: 'pat',
          login: DEMO.users.carol,
          secret_ref: 'carol_pat',
          scopes: [{ owner: DEMO.org }],
          weight: 100,
        },
      );
      expect(carol.status).toBe(201);
      const answers = await Promise.all(
        Array.from({ length: 75 }, (_, i) =>
          relay(replicas[i % 3]!, `/repos/${DEMO.org}/${DEMO.publicRepo}/issues`, callerToken, {
            page: String(i + 1),
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.every((status) => status === 200 || status === 424)).toBe(true);
      // The ones the pace refused are the typed overload answer, never a forge refusal.
      for (const answer of answers.filter((a) => a.status === 424)) {
        expect(JSON.stringify(answer.json)).toContain('relay_overloaded');
      }
      const log = sim.requests.find({ host: 'api' });
      // The two secondary-limit answers of the cooldown case were injected; the forge's own
      // model never answered one.
      expect(log.filter((request) => request.fault === 'secondary_limit')).toHaveLength(2);
      const perCredential = new Map<string, number>();
      for (const request of log) {
        perCredential.set(request.credential, (perCredential.get(request.credential) ?? 0) + 1);
      }
      // The whole run is well within a minute: no sender spent more than the pace.
      for (const [credential, count] of perCredential) {
        expect(count, credential).toBeLessThanOrEqual(PACE);
      }
      expect(perCredential.get(carolCredential)).toBe(PACE);
      expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    });
  },
);
