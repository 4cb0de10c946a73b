import { DEMO, type DemoWorldIds, type RateLimitTable } from '@relay/forge-sim';
import {
  errorBodySchema,
  relayEnvelopeSchema,
  statusOf,
  type ErrorBody,
  type RelayEnvelope,
} from '@relay/protocol';
import {
  PRIVATE_MARKER,
  seedPrivateWorld,
  type PrivateWorld,
} from '../pipeline/public-only-world.js';
import {
  ADMIN_TOKEN,
  OTHER_POOL,
  POOL,
  startRelayHarness,
  type RelayAnswer,
  type RelayHarness,
} from '../pipeline/relay-harness.js';

/**
 * The fault suite's world and load: a relay harness over forge-sim with several pooled PAT
 * identities in two pools, callers of both, reads of many route kinds, a bounded concurrent load
 * runner and the checks every answer must pass.
 */

/**
 * REQUEST_TIMEOUT_MS of the suite's relay while `latency` or `drip` faults are injected (a
 * `latency` fault holds its answer far longer).
 */
export const FAULT_TIMEOUT_MS = 1_500;
/**
 * REQUEST_TIMEOUT_MS otherwise: long enough that a slow, shared machine never turns an answer
 * that no fault delayed into a timeout.
 */
export const CALM_TIMEOUT_MS = 60_000;
/** How long a `latency` fault holds its answer (released earlier when the harness closes). */
export const HANG_MS = 600_000;
/** MAX_RESPONSE_BYTES of the suite's relay (an `oversize` fault passes it). */
export const FAULT_MAX_RESPONSE_BYTES = 256 * 1024;

const AMPLE = { limit: 1_000_000, windowMs: 3_600_000 };
const AMPLE_BUCKETS = {
  core: AMPLE,
  search: AMPLE,
  code_search: AMPLE,
  graphql: AMPLE,
  integration_manifest: AMPLE,
};
/**
 * Primary rate limits high enough that no bucket runs out during a load: every refusal the suite
 * sees comes from an injected fault, not from spent quota (which other tests cover).
 */
export const AMPLE_RATE_LIMITS: RateLimitTable = {
  anonymous: AMPLE_BUCKETS,
  pat: AMPLE_BUCKETS,
  installation: AMPLE_BUCKETS,
};

/** Who sends a read. */
export type FaultCaller = keyof PrivateWorld['callers'];

/** One read of the load: the relay request body (pool `team` unless given) and its caller. */
export interface FaultRead {
  readonly name: string;
  readonly caller: FaultCaller;
  readonly body: {
    readonly pool?: string;
    readonly path: string;
    readonly query?: Readonly<Record<string, string>>;
    readonly headers?: Readonly<Record<string, string>>;
  };
}

const { org, publicRepo } = DEMO;
const REPO = `/repos/${org}/${publicRepo}`;

/**
 * The reads of the load: repository, issue, pull, label, search, user and organization
 * collection, job-log, rate-limit, anonymous-only (releases, timelines), GET /user, web and raw
 * alternates, a global read, another owner's public repository, the other pool, and an explicit
 * `max-age=0` (which never returns an unvalidated cached success).
 *
 * @param ids - the demo world's ids
 */
export function createFaultReads(ids: DemoWorldIds): readonly FaultRead[] {
  const read = (
    name: string,
    path: string,
    more: Omit<FaultRead['body'], 'path'> & { caller?: FaultCaller } = {},
  ): FaultRead => {
    const { caller = 'alice', ...body } = more;
    return { name, caller, body: { path, ...body } };
  };
  const pull = String(ids.pullNumber);
  const issue = String(ids.issueNumber);
  return [
    read('repo_view', REPO),
    read('repo_view max-age=0', REPO, { headers: { 'cache-control': 'max-age=0' } }),
    read('issue_list', `${REPO}/issues`),
    read('issue_view', `${REPO}/issues/${issue}`, { caller: 'carol' }),
    read('issue_timeline', `${REPO}/issues/${issue}/timeline`),
    read('pr_list', `${REPO}/pulls`),
    read('pr_view', `${REPO}/pulls/${pull}`, { caller: 'carol' }),
    read('pr_view patch', `${REPO}/pulls/${pull}`, {
      headers: { accept: 'application/vnd.github.patch' },
    }),
    read('pr_files', `${REPO}/pulls/${pull}/files`),
    read('label_list', `${REPO}/labels`),
    read('commit_list', `${REPO}/commits`),
    read('contents', `${REPO}/contents/README.md`),
    read('release_list', `${REPO}/releases`),
    read('run_view', `${REPO}/actions/runs/${String(ids.runId)}`),
    read('job_logs', `${REPO}/actions/jobs/${String(ids.jobId)}/logs`),
    read('search_issues', '/search/issues', {
      query: { q: `repo:${org}/${publicRepo} sprockets` },
    }),
    read('search_code', '/search/code', { query: { q: `repo:${org}/${publicRepo} sprocket` } }),
    read('search_repositories', '/search/repositories', { query: { q: 'widgets' } }),
    read('user_repo_list', `/users/${DEMO.users.alice}/repos`),
    read('org_repo_list', `/orgs/${org}/repos`, { caller: 'carol' }),
    read('org_repo_list max-age=0', `/orgs/${org}/repos`, {
      headers: { 'cache-control': 'max-age=0' },
    }),
    read('org_public_member_list', `/orgs/${org}/public_members`),
    read('user_gist_list', `/users/${DEMO.users.carol}/gists`),
    read('user_view', '/user', { caller: 'carol' }),
    read('emoji_list', '/emojis'),
    read('rate_limit', '/rate_limit'),
    read('other owner repo_view', `/repos/${DEMO.users.carol}/${publicRepo}`),
    read('other pool label_list', `${REPO}/labels`, { caller: 'bob', pool: OTHER_POOL }),
    read('other pool org_repo_list', `/orgs/${org}/repos`, { caller: 'bob', pool: OTHER_POOL }),
    read('other pool rate_limit', '/rate_limit', { caller: 'carol', pool: OTHER_POOL }),
  ];
}

/** Waits of `latency` faults that the suite can end (at close), so that no timer outlives it. */
export interface HeldDelays {
  readonly delay: (ms: number) => Promise<void>;
  /** Ends every wait now. */
  releaseAll(): void;
}

/** Creates {@link HeldDelays}: each wait ends after its time, or at {@link HeldDelays.releaseAll}. */
export function createHeldDelays(): HeldDelays {
  const pending = new Set<() => void>();
  return {
    delay: (ms) =>
      new Promise<void>((resolve) => {
        const end = () => {
          clearTimeout(timer);
          pending.delete(end);
          resolve();
        };
        const timer = setTimeout(end, ms);
        pending.add(end);
      }),
    releaseAll() {
      for (const end of [...pending]) end();
    },
  };
}

/** The suite's world: the harness, its callers and every secret that must never be shown. */
export interface FaultWorld {
  readonly h: RelayHarness;
  readonly world: PrivateWorld;
  readonly reads: readonly FaultRead[];
  /** Pooled tokens, caller tokens, the admin token and secret binding names. */
  readonly secrets: readonly string[];
  /**
   * Sets the relay's upstream deadline for requests sent from now on ({@link FAULT_TIMEOUT_MS}
   * or {@link CALM_TIMEOUT_MS}; the latter at start).
   */
  setDeadline(ms: number): void;
  /** Ends held waits, then closes the harness. */
  close(): Promise<void>;
}

/**
 * Starts the suite's world: the relay harness (a deadline the suite sets, ample rate limits,
 * seeded fault draws), the private world of `public-only-world.ts` (pat-alice and pat-carol in
 * `team`, pat-carol-other in `other`, callers alice, bob and carol), and two more pooled PATs in
 * `team` (bob's, scoped to the organization, and a second broad one of carol's), so that a
 * faulted identity always has others to fail over to.
 *
 * @param random - forge-sim's draws of probabilistic faults
 */
export async function startFaultWorld(random: () => number): Promise<FaultWorld> {
  const held = createHeldDelays();
  let deadlineMs = CALM_TIMEOUT_MS;
  const h = await startRelayHarness({
    // The transport's own timer, at the deadline the suite sets now (undici's header and body
    // timeouts stay at the longer one).
    transport: {
      timeoutMs: CALM_TIMEOUT_MS,
      scheduleTimeout: (_ms, onTimeout) => {
        const timer = setTimeout(onTimeout, deadlineMs);
        return () => {
          clearTimeout(timer);
        };
      },
    },
    maxResponseBytes: FAULT_MAX_RESPONSE_BYTES,
    sim: { random, delay: held.delay, rateLimits: AMPLE_RATE_LIMITS },
  });
  const world = await seedPrivateWorld(h);
  await h.addPatIdentity('pat-bob', DEMO.users.bob, [{ owner: org, allow_private: false }], 80);
  await h.addPatIdentity('pat-carol-2', DEMO.users.carol, [{ owner: '*', allow_private: false }]);
  const secrets = [
    ...h.secrets.values(),
    ...h.secrets.keys(),
    ...Object.values(world.callers),
    ADMIN_TOKEN,
  ];
  return {
    h,
    world,
    reads: createFaultReads(h.ids),
    secrets,
    setDeadline(ms) {
      deadlineMs = ms;
    },
    async close() {
      held.releaseAll();
      await h.close();
    },
  };
}

/**
 * What one answer was, in one word: `envelope:<upstream status>`, `stale:<reason>`, `<code>` or
 * `fallback_local:<reason>`.
 */
export type OutcomeKey = string;

/** A checked answer of the load. */
export interface LoadAnswer {
  readonly read: FaultRead;
  readonly answer: RelayAnswer;
  readonly outcome: OutcomeKey;
}

/**
 * The outcome of an answer: a 200 envelope (`envelope:<upstream status>`, or `stale:<reason>`
 * when stale_ok), or a typed error (`<code>`, or `fallback_local:<reason>`); `malformed` when it
 * is neither.
 *
 * @param answer - the relay's answer
 */
export function outcomeOf(answer: RelayAnswer): OutcomeKey {
  if (answer.status === 200) {
    const envelope = relayEnvelopeSchema.safeParse(answer.json);
    if (!envelope.success) return 'malformed';
    const { relay, status } = envelope.data;
    return relay.stale_ok ? `stale:${String(relay.stale_reason)}` : `envelope:${String(status)}`;
  }
  const error = errorBodySchema.safeParse(answer.json);
  if (!error.success) return 'malformed';
  const { code, reason } = error.data.error;
  return reason === undefined ? code : `${code}:${reason}`;
}

/** The cache identity of a read as the relay keys it (the pool is not part of it). */
export function cacheIdentityOf(read: FaultRead): string {
  const { path, query, headers } = read.body;
  const accept = headers?.accept ?? '';
  return JSON.stringify([path, query ?? {}, accept]);
}

/**
 * Everything wrong with one answer, as readable lines (none when it passes):
 * - a 200 is a valid envelope; any other status a typed error body (DESIGN.md §3) whose code is in
 *   the catalogue, whose status is the code's (424 exactly for `fallback_local`, with a SPEC.md
 *   reason), with the `x-relay-request-id` header; never `internal_error` (the untyped 500);
 * - no credential in the body or headers: no pooled token, caller or admin token, secret binding
 *   name, `Bearer ` or `authorization`; no private byte ({@link PRIVATE_MARKER});
 * - a stale answer only for a read that was cached before, without `max-age=0`, with
 *   `cache_expires_at` in the past.
 *
 * @param answer - the answer and its read
 * @param world - the secrets to look for
 * @param cachedBefore - cache identities of reads answered with a cacheable 200 before
 * @param now - the clock, epoch milliseconds
 */
export function findViolations(
  answer: LoadAnswer,
  world: Pick<FaultWorld, 'secrets'>,
  cachedBefore: ReadonlySet<string>,
  now: number,
): string[] {
  const { read, answer: a, outcome } = answer;
  const where = `${read.name} (${String(a.status)} ${outcome})`;
  const problems: string[] = [];
  if (outcome === 'malformed') problems.push(`${where}: neither an envelope nor a typed error`);
  if (a.headers.get('x-relay-request-id') === null) problems.push(`${where}: no request id`);
  if (a.status !== 200 && outcome !== 'malformed') {
    const body = a.json as ErrorBody;
    const expected = statusOf(body.error.code);
    if (a.status !== expected) problems.push(`${where}: status is not the code's`);
    if (body.error.request_id !== a.headers.get('x-relay-request-id')) {
      problems.push(`${where}: request_id differs from the header`);
    }
  }
  if (outcome === 'internal_error' || a.status === 500) problems.push(`${where}: untyped 500`);
  const text = `${[...a.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${a.text}`;
  for (const secret of world.secrets) {
    if (text.includes(secret)) problems.push(`${where}: shows a credential or binding name`);
  }
  if (/bearer /i.test(text)) problems.push(`${where}: shows 'Bearer '`);
  // GitHub's `Vary: Accept, Authorization, …` names the header without a value: allowed.
  if (/authorization/i.test(text.replace(/"vary":"[^"]*"/gi, ''))) {
    problems.push(`${where}: shows 'authorization'`);
  }
  if (text.includes(PRIVATE_MARKER)) problems.push(`${where}: shows private data`);
  if (outcome.startsWith('stale:')) {
    const relay = (a.json as RelayEnvelope).relay;
    if (!cachedBefore.has(cacheIdentityOf(read))) {
      problems.push(`${where}: stale without an earlier cached answer`);
    }
    if (read.body.headers?.['cache-control'] === 'max-age=0') {
      problems.push(`${where}: stale despite max-age=0`);
    }
    if (relay.cache_expires_at === undefined || Date.parse(relay.cache_expires_at) > now) {
      problems.push(`${where}: stale entry not expired`);
    }
    if (!relay.cacheable) problems.push(`${where}: stale but not cacheable`);
  }
  return problems;
}

/** Options of {@link runLoad}. */
export interface LoadOptions {
  /** Relay requests in all. */
  readonly requests: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** Picks the read of the i-th request. */
  readonly pick: (i: number) => FaultRead;
  /** Called before the i-th request starts (moves the clock, for example). */
  readonly beforeEach?: (i: number) => void;
}

/**
 * Sends `requests` relay requests, `concurrency` at a time (a bounded pool of workers pulling
 * from one counter), each with its read's caller token; returns every answer with its outcome.
 *
 * @param fw - the suite's world
 * @param options - how many, how many at once, which reads
 */
export async function runLoad(fw: FaultWorld, options: LoadOptions): Promise<LoadAnswer[]> {
  const answers: LoadAnswer[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < options.requests) {
      const i = next++;
      options.beforeEach?.(i);
      const read = options.pick(i);
      const answer = await fw.h.relay({ pool: POOL, ...read.body }, fw.world.callers[read.caller]);
      answers.push({ read, answer, outcome: outcomeOf(answer) });
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return answers;
}
