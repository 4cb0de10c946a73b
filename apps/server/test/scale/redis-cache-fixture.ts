import {
  DEMO,
  createForgeSim,
  createSimClock,
  seedDemoWorld,
  type ForgeSim,
} from '@relay/forge-sim';
import { loadServerConfig, startServer, type RunningServer } from '../../src/index.js';
import { TEST_REDIS_URL } from '../../src/scale/__fixtures__/test-redis.js';
import {
  demoRelayEnv,
  enrollAlice,
  openScaledBackend,
  registerAliceIdentity,
} from '../pipeline/relay-harness.js';

/** The admin token of the replicas. */
export const REPLICA_ADMIN = 'redis-cache-replicas-admin-0123456789';
/** The pool every caller of the replicas uses. */
export const REPLICA_POOL = 'team';

/** Replicas in this test process on one PostgreSQL schema, one Redis prefix, one forge-sim. */
export interface ReplicaSet {
  readonly sim: ForgeSim;
  readonly replicas: readonly RunningServer[];
  readonly schema: string;
  /** A caller token with a grant on {@link REPLICA_POOL} (login alice). */
  readonly callerToken: string;
  /** POST /v1/forge/request on replica `index`; the status and the JSON body. */
  relay(
    index: number,
    path: string,
    options?: { token?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; json: RelayAnswer }>;
  /** Stops every replica and the forge, drops the schema and the keys. */
  close(): Promise<void>;
}

/** The parts of an envelope or error body the tests read. */
export interface RelayAnswer {
  readonly status?: number;
  readonly body?: unknown;
  readonly relay?: { readonly cache?: string; readonly backend?: string };
  readonly identity?: { readonly id?: string } | null;
  readonly error?: { readonly code?: string; readonly reason?: string };
}

/**
 * Starts `count` replicas (startServer, as relay-server does with RELAY_DATABASE_URL and
 * RELAY_REDIS_URL set) against one forge-sim.
 *
 * @param count - how many replicas
 * @param redisUrl - the Redis they share (a TCP proxy's, in fault tests)
 */
export async function startReplicaSet(
  count: number,
  redisUrl = TEST_REDIS_URL,
  options: {
    /** Registers the pooled PAT identity `alice` (scope: the demo org) in the pool. */
    readonly pooledIdentity?: boolean;
  } = {},
): Promise<ReplicaSet> {
  const clock = createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') });
  const sim = await createForgeSim({ clock });
  seedDemoWorld(sim.world);
  const backend = openScaledBackend('replicas', redisUrl);
  const { schema } = backend;
  const env = {
    RELAY_PORT: '0',
    ...backend.env,
    RELAY_ADMIN_TOKEN: REPLICA_ADMIN,
    ...demoRelayEnv(sim, REPLICA_POOL),
    RELAY_MAX_CONNECTIONS_PER_PEER: '0',
    RELAY_MAX_CALLER_CONCURRENCY: '0',
  };
  const config = loadServerConfig(env);
  if (!config.ok) throw new Error('invalid test configuration');
  const secrets = new Map<string, string>();
  const replicas: RunningServer[] = [];
  for (let i = 0; i < count; i++) {
    replicas.push(
      await startServer(config.value, {
        now: () => clock.now(),
        readSecret: (name) => Promise.resolve(secrets.get(name)),
      }),
    );
  }
  const [first] = replicas;
  if (first === undefined) throw new Error('no replica');
  if (options.pooledIdentity === true) {
    secrets.set('alice_pat', sim.tokens.addPat({ login: DEMO.users.alice }).token);
    await registerAliceIdentity(first.url, REPLICA_ADMIN, REPLICA_POOL);
  }
  const callerToken = await enrollAlice(first.database, clock.now(), REPLICA_POOL);

  return {
    sim,
    replicas,
    schema,
    callerToken,
    async relay(index, path, options = {}) {
      const replica = replicas[index];
      if (replica === undefined) throw new Error(`no replica ${String(index)}`);
      const response = await fetch(`${replica.url}/v1/forge/request`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.token ?? callerToken}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          pool: REPLICA_POOL,
          method: 'GET',
          path,
          ...(options.headers === undefined ? {} : { headers: options.headers }),
        }),
      });
      return { status: response.status, json: (await response.json()) as RelayAnswer };
    },
    async close() {
      for (const replica of replicas) await replica.close();
      await sim.close();
      await backend.close();
    },
  };
}
