import { err, ok } from '@relay/protocol';
import {
  createVisibilityGuard,
  type Proof,
  type VisibilityGuard,
  type VisibilityGuardOptions,
} from '../pipeline/visibility-guard.js';
import { callRedis, type RedisKeyspace } from './redis-script.js';

/** Options of {@link createSharedVisibilityGuard}. */
export interface SharedVisibilityGuardOptions extends Omit<VisibilityGuardOptions, 'onRecord'> {
  /** The connection's keyspace (proofs live under `<prefix>proof:`). */
  readonly redis: RedisKeyspace;
  /** Bound of one Redis call, ms. Default `REDIS_CALL_DEADLINE_MS` (1,000). */
  readonly deadlineMs?: number;
  /** Reports a Redis call that failed (the guard then probes instead of trusting anything). */
  readonly onUnavailable?: () => void;
}

/**
 * How long a record outlives its proof in Redis, ms: a 304 whose ETag an expired public proof
 * holds still renews it (as on one replica, where expired proofs stay in memory).
 */
const RECORD_SLACK_MS = 10 * 60_000;

/** Thrown inside when Redis did not answer. */
class ProofStoreUnavailable extends Error {}

const NOT_PUBLIC = { code: 'not_public' } as const;

/**
 * The public-visibility guard of several replicas: proofs and refusals live in Redis, so a proof
 * made on replica A serves replica B, and a repository found private on any replica is refused
 * by every replica from its next request.
 *
 * Each `prove` reads the repository's record from Redis (one round trip; a cache hit of a
 * repository route pays it): an unexpired proof or refusal there is the answer, whatever this
 * process remembers. Without one, the process replaces its own copy with Redis's expired record
 * (whose ETags a conditional probe's 304 still renews), or forgets it, and probes (the probe
 * engine, lifetimes, ETag renewals and the sharing of one probe by concurrent requests are
 * {@link createVisibilityGuard}'s). Every proof or refusal recorded here is written through to
 * Redis; `revoke` and `observeRead` resolve once what they recorded is stored there, so the
 * pipeline purges and answers only after every replica would refuse.
 *
 * While Redis is unavailable nothing is trusted: every `prove` probes afresh (no proof is reused,
 * so another replica's revocation cannot be missed), and a refusal that could not be stored is
 * kept and enforced by this process until its lifetime ends, and written again at each read.
 *
 * @param options - the connection, clock, lifetimes, deadline and problem sink
 */
export function createSharedVisibilityGuard(
  options: SharedVisibilityGuardOptions,
): VisibilityGuard {
  const { redis, now } = options;
  const fail = () => new ProofStoreUnavailable();
  const keyOf = (fullName: string) => redis.key('proof', fullName);
  /** The write in flight per repository: a `prove` of this process waits for its own record. */
  const writes = new Map<string, Promise<void>>();
  /** Refusals Redis has not stored (it was away), enforced here until they end. */
  const unshared = new Map<string, Proof>();

  async function write(key: string, proof: Proof): Promise<void> {
    const ttl = Math.max(1, Math.ceil(proof.until - now())) + RECORD_SLACK_MS;
    try {
      await callRedis(
        () =>
          redis.client.set(keyOf(key), JSON.stringify(proof), {
            expiration: { type: 'PX', value: ttl },
          }),
        fail,
        options.deadlineMs,
      );
      unshared.delete(key);
    } catch {
      options.onUnavailable?.();
      if (!proof.isPublic) unshared.set(key, proof);
    }
  }

  function track(key: string, proof: Proof): void {
    const pending = write(key, proof);
    writes.set(key, pending);
    void pending.finally(() => {
      if (writes.get(key) === pending) writes.delete(key);
    });
  }

  async function read(key: string): Promise<Proof | undefined> {
    const stored = await callRedis(() => redis.client.get(keyOf(key)), fail, options.deadlineMs);
    if (stored === null) return undefined;
    try {
      return JSON.parse(stored) as Proof;
    } catch {
      return undefined;
    }
  }

  const inner = createVisibilityGuard({
    ...options,
    onRecord: track,
  });

  return {
    async prove(input) {
      const key = `${input.owner}/${input.repo}`.toLowerCase();
      const pendingRefusal = unshared.get(key);
      if (pendingRefusal !== undefined) {
        if (now() < pendingRefusal.until) {
          await write(key, pendingRefusal);
          return err(NOT_PUBLIC);
        }
        unshared.delete(key);
      }
      await writes.get(key);
      let shared: Proof | undefined;
      try {
        shared = await read(key);
      } catch {
        options.onUnavailable?.();
      }
      if (shared !== undefined && now() < shared.until) {
        return shared.isPublic ? ok('cached') : err(NOT_PUBLIC);
      }
      // An expired record is kept (not forgotten): a 304 of an ETag it holds renews the proof,
      // whichever replica saw the public answer.
      inner.forget(key, shared);
      return inner.prove(input);
    },
    observe: (owner, repo, response) => {
      inner.observe(owner, repo, response);
    },
    async observeRead(kind, owner, repo, response) {
      await inner.observeRead(kind, owner, repo, response);
      await writes.get(`${owner}/${repo}`.toLowerCase());
    },
    async revoke(fullName) {
      await inner.revoke(fullName);
      await writes.get(fullName.toLowerCase());
    },
    forget: (fullName, replacement) => {
      inner.forget(fullName, replacement);
    },
  };
}
