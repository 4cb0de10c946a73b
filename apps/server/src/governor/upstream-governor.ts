import { err, ok, type Result } from '@relay/protocol';
import {
  createMemoryPaceLedger,
  type PaceLedger,
  type PaceLimits,
  type PaceStanding,
} from './pace-ledger.js';

/**
 * GitHub's documented secondary limits for REST, per user or app token: 100 concurrent requests
 * and 900 points per minute (a GET is one point). The third one — 90 s of CPU time per 60 s of
 * real time — is measured on GitHub's side and cannot be enforced by a client.
 */
export const GITHUB_SECONDARY_LIMITS: PaceLimits = { maxInFlight: 100, pointsPerMinute: 900 };

/** The governor's defaults: 80 % of {@link GITHUB_SECONDARY_LIMITS} (80 in flight, 720 a minute). */
export const DEFAULT_PACE_LIMITS: PaceLimits = { maxInFlight: 80, pointsPerMinute: 720 };

/** How long a request waits for headroom by default before its 424 `relay_overloaded`. */
export const DEFAULT_GOVERNOR_MAX_WAIT_MS = 2_000;

/** How many requests may wait for one key at once by default; more are refused at once. */
export const DEFAULT_GOVERNOR_MAX_QUEUED = 1_000;

/**
 * How long a selection's claim on a sender's headroom counts ({@link UpstreamGovernor.claim})
 * when no request of that sender follows it (the request failed before its send).
 */
export const GOVERNOR_CLAIM_TTL_MS = 1_000;

/**
 * GitHub's search buckets per minute when no response has said otherwise: 30 for authenticated
 * search, 10 for code search (the anonymous lane's 10 is learned from its headers).
 */
export const DEFAULT_SEARCH_LIMITS: Readonly<Record<string, number>> = {
  search: 30,
  code_search: 10,
};

/** Why the governor refused a request: it waited `maxWaitMs` (or the queue was full). */
export interface GovernorRefusal {
  readonly code: 'relay_overloaded';
  /**
   * `waited`: the wait ran out; `queue_full`: too many already waiting for the key;
   * `unavailable`: the shared pace ledger (Redis) cannot be reached, so no pace can be granted.
   */
  readonly cause: 'waited' | 'queue_full' | 'unavailable';
}

/** Something the governor did that an operator should see once (logged and counted). */
export type GovernorEvent =
  | { readonly kind: 'queued'; readonly key: string }
  | { readonly kind: 'refused'; readonly key: string; readonly cause: GovernorRefusal['cause'] }
  | { readonly kind: 'slowed'; readonly key: string; readonly factor: number }
  | { readonly kind: 'restored'; readonly key: string };

/** An admission: release it when the upstream answer (or failure) is in. */
export interface GovernorPermit {
  /** Frees the in-flight slot; idempotent. */
  release(): void;
}

/** A bucket paced on top of a key's own pace (search, code search), from the forge's headers. */
export interface PacedBucket {
  /** The resource bucket (`search`, `code_search`). */
  readonly bucket: string;
}

/** Options of {@link createUpstreamGovernor}. */
export interface UpstreamGovernorOptions {
  /** Per-key limits. Default {@link DEFAULT_PACE_LIMITS}. */
  readonly limits?: PaceLimits;
  /** The longest a request waits for headroom. Default {@link DEFAULT_GOVERNOR_MAX_WAIT_MS}. */
  readonly maxWaitMs?: number;
  /** Waiters per key. Default {@link DEFAULT_GOVERNOR_MAX_QUEUED}. */
  readonly maxQueued?: number;
  /** The shared pace state. Default: {@link createMemoryPaceLedger} (one process). */
  readonly ledger?: PaceLedger;
  /** The clock, epoch milliseconds. */
  readonly now: () => number;
  /** Schedules `fn` after `ms`; returns its cancel. Default `setTimeout` (unref'd). */
  readonly schedule?: (fn: () => void, ms: number) => () => void;
  /** Told of queueing, refusals, slow-downs and restorations (the shell logs and counts them). */
  readonly onEvent?: (event: GovernorEvent) => void;
}

/**
 * The upstream governor: every upstream request takes a permit for its sender's key before it
 * is sent, so that no sender exceeds its pace ({@link PaceLimits}). Requests without headroom wait
 * in a bounded queue per key, served round-robin across callers (one caller's burst cannot starve
 * another), up to `maxWaitMs`, and are then refused ({@link GovernorRefusal}).
 */
export interface UpstreamGovernor {
  /**
   * Waits for a permit of `key` (and of `paced`, a search bucket of the same sender, whose pace
   * comes from the forge's headers).
   *
   * @param key - the sender: an identity id, or a token-free source (`anonymous:api`, …)
   * @param caller - the caller the request runs for (fairness); `''` when unknown
   * @param paced - an extra bucket to pace, if any
   */
  admit(
    key: string,
    caller: string,
    paced?: PacedBucket,
  ): Promise<Result<GovernorPermit, GovernorRefusal>>;
  /**
   * The keys among `keys` that have no headroom now: at their pace limit, with waiters, or with
   * their headroom taken by claims ({@link claim}). Claims are read when the set is asked
   * (`has`), not when it is made, so a selection that decides after another one claimed sees it.
   */
  atLimit(keys: readonly string[]): Promise<ReadonlySet<string>>;
  /**
   * Claims one point of `key`'s headroom for a request that selected it and will send soon: until
   * that request is admitted ({@link admit} takes the oldest claim of its key), the claim is
   * released, or {@link GOVERNOR_CLAIM_TTL_MS} passes, the claim counts against the headroom
   * {@link atLimit} reports. Without it, every request of a concurrent burst would select the
   * same identity (none has spent a point yet) and wait for it while another had headroom.
   *
   * @returns gives the claim back (idempotent; nothing once it was taken or expired)
   */
  claim(key: string): () => void;
  /**
   * Reads an answer of `key`: a secondary-limit answer halves its pace (see
   * {@link isSecondaryLimitAnswer}); a search bucket's `x-ratelimit-limit` sets its pace.
   */
  observe(key: string, answer: GovernorAnswer): Promise<void>;
  /** The key's standing now (for tests and health). */
  inspect(key: string): Promise<PaceStanding>;
  /**
   * The standing of every sender with points in the window, requests in flight or a reduced
   * pace (the metrics' gauges); search buckets are not listed.
   */
  senders(): Promise<readonly { readonly key: string; readonly standing: PaceStanding }[]>;
}

/** What the governor reads of an upstream answer. */
export interface GovernorAnswer {
  readonly status: number;
  /** `x-ratelimit-remaining`. */
  readonly remaining: number | undefined;
  /** `x-ratelimit-limit`. */
  readonly limit: number | undefined;
  /** `x-ratelimit-resource`. */
  readonly resource: string | undefined;
  /** A `Retry-After` was sent. */
  readonly retryAfter: boolean;
}

/**
 * Whether an answer is one of GitHub's secondary-limit answers: a 429, a 403 with budget left
 * (`x-ratelimit-remaining` above 0, or absent), or any answer with `Retry-After` (SPEC.md's
 * cooldown rules name the same three).
 *
 * @param answer - the upstream answer
 */
export function isSecondaryLimitAnswer(answer: GovernorAnswer): boolean {
  if (answer.retryAfter || answer.status === 429) return true;
  return answer.status === 403 && answer.remaining !== undefined && answer.remaining > 0;
}

interface Waiter {
  readonly caller: string;
  readonly paced: PacedBucket | undefined;
  readonly resolve: (result: Result<GovernorPermit, GovernorRefusal>) => void;
  cancel: () => void;
  done: boolean;
}

interface KeyQueue {
  /** Waiters per caller, in arrival order; callers in round-robin order. */
  readonly byCaller: Map<string, Waiter[]>;
  cursor: number;
  size: number;
  draining: boolean;
  redrain: boolean;
  cancelTimer: (() => void) | undefined;
}

function wantsRedrain(queue: KeyQueue): boolean {
  return queue.redrain;
}

/**
 * The busy keys of {@link UpstreamGovernor.atLimit}: a plain `Set` of those found at their limit
 * whose `has` also answers true for a key whose remaining headroom the live claims take
 * (`claimedOut`, asked at every `has`: the selector only asks `has`). It stays a `Set` (its own
 * `has` is not enumerable), so it compares and iterates as the keys found at their limit.
 *
 * @param busy - the keys found at their limit
 * @param claimedOut - whether the claims now take a key's remaining headroom
 */
function claimAwareBusySet(
  busy: ReadonlySet<string>,
  claimedOut: (key: string) => boolean,
): ReadonlySet<string> {
  const set = new Set(busy);
  const has = (key: string): boolean => Set.prototype.has.call(set, key) || claimedOut(key);
  Object.defineProperty(set, 'has', { value: has, enumerable: false });
  return set;
}

function defaultSchedule(fn: () => void, ms: number): () => void {
  const timer = setTimeout(fn, Math.max(0, ms));
  timer.unref();
  return () => {
    clearTimeout(timer);
  };
}

/**
 * Creates the upstream governor of a relay process.
 *
 * @param options - limits, wait, ledger, clock, scheduler and event sink
 * @example
 * ```ts
 * const governor = createUpstreamGovernor({ now: Date.now });
 * const permit = await governor.admit(identity.id, callerId);
 * if (!permit.ok) return fallBackLocal('relay_overloaded');
 * try { return await transport.request(request); } finally { permit.value.release(); }
 * ```
 */
export function createUpstreamGovernor(options: UpstreamGovernorOptions): UpstreamGovernor {
  const limits = options.limits ?? DEFAULT_PACE_LIMITS;
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_GOVERNOR_MAX_WAIT_MS;
  const maxQueued = options.maxQueued ?? DEFAULT_GOVERNOR_MAX_QUEUED;
  const ledger = options.ledger ?? createMemoryPaceLedger();
  const { now } = options;
  const schedule = options.schedule ?? defaultSchedule;
  const emit = options.onEvent ?? (() => undefined);
  const queues = new Map<string, KeyQueue>();
  /** Search buckets' per-minute limits learned from headers, by `key#bucket`. */
  const bucketLimits = new Map<string, number>();
  /** Keys whose pace is reduced now (to log their restoration once). */
  const slowed = new Set<string>();
  const ratio = limits.pointsPerMinute / GITHUB_SECONDARY_LIMITS.pointsPerMinute;
  /** Senders that took a permit or were slowed, until they are idle again. */
  const known = new Set<string>();
  /** Live claims of selections not admitted yet, by key, oldest first (see `claim`). */
  const claims = new Map<string, { readonly at: number }[]>();

  /** The key's claims still counting at `at` (expired ones are dropped). */
  function liveClaims(key: string, at: number): { readonly at: number }[] {
    const list = claims.get(key);
    if (list === undefined) return [];
    while (list.length > 0 && (list[0]?.at ?? at) + GOVERNOR_CLAIM_TTL_MS <= at) list.shift();
    if (list.length === 0) claims.delete(key);
    return list;
  }

  function bucketKey(key: string, paced: PacedBucket): string {
    return `${key}#${paced.bucket}`;
  }

  function bucketPace(key: string, paced: PacedBucket): PaceLimits {
    const perMinute =
      bucketLimits.get(bucketKey(key, paced)) ?? DEFAULT_SEARCH_LIMITS[paced.bucket] ?? 30;
    return {
      maxInFlight: limits.maxInFlight,
      pointsPerMinute: Math.max(1, Math.floor(perMinute * Math.min(1, ratio))),
    };
  }

  type Taken =
    | { ok: true; permit: GovernorPermit }
    | { ok: false; retryAt: number | undefined; unavailable?: true };

  /**
   * {@link take}, with a ledger failure (a networked ledger that cannot reach its store) as a
   * refusal: no request is sent unpaced.
   */
  async function tryTake(key: string, paced: PacedBucket | undefined): Promise<Taken> {
    try {
      return await take(key, paced);
    } catch {
      return { ok: false, retryAt: undefined, unavailable: true };
    }
  }

  /** Gives a slot back; a ledger failure leaves it to the ledger's slot deadline. */
  async function giveBack(key: string, at: number, slot: string | undefined): Promise<void> {
    try {
      await ledger.release(key, at, slot);
    } catch {
      // A networked ledger ends the slot at its deadline.
    }
  }

  async function take(key: string, paced: PacedBucket | undefined): Promise<Taken> {
    const at = now();
    // The search bucket first: its refusal then spends nothing of the sender's own pace (a
    // refusal of the sender after the bucket admitted leaves one bucket point spent: cautious).
    let bucketSlot: string | undefined;
    if (paced !== undefined) {
      const bucket = await ledger.tryTake(bucketKey(key, paced), bucketPace(key, paced), at);
      if (!bucket.ok) return bucket;
      bucketSlot = bucket.slot;
    }
    let own: Awaited<ReturnType<PaceLedger['tryTake']>>;
    try {
      own = await ledger.tryTake(key, limits, at);
    } catch (error) {
      if (paced !== undefined) await giveBack(bucketKey(key, paced), at, bucketSlot);
      throw error;
    }
    if (!own.ok) {
      if (paced !== undefined) await giveBack(bucketKey(key, paced), at, bucketSlot);
      return own;
    }
    const slot = own.slot;
    known.add(key);
    let released = false;
    return {
      ok: true,
      permit: {
        release() {
          if (released) return;
          released = true;
          void releaseAll(key, slot, paced, bucketSlot);
        },
      },
    };
  }

  async function releaseAll(
    key: string,
    slot: string | undefined,
    paced: PacedBucket | undefined,
    bucketSlot: string | undefined,
  ): Promise<void> {
    const at = now();
    await giveBack(key, at, slot);
    if (paced !== undefined) await giveBack(bucketKey(key, paced), at, bucketSlot);
    await checkRestored(key);
    void drain(key);
  }

  async function checkRestored(key: string): Promise<void> {
    if (!slowed.has(key)) return;
    let standing: PaceStanding;
    try {
      standing = await ledger.inspect(key, limits, now());
    } catch {
      return;
    }
    if (standing.factor >= 1) {
      slowed.delete(key);
      emit({ kind: 'restored', key });
    }
  }

  function queueOf(key: string): KeyQueue {
    let queue = queues.get(key);
    if (queue === undefined) {
      queue = {
        byCaller: new Map(),
        cursor: 0,
        size: 0,
        draining: false,
        redrain: false,
        cancelTimer: undefined,
      };
      queues.set(key, queue);
    }
    return queue;
  }

  function removeWaiter(key: string, queue: KeyQueue, waiter: Waiter): void {
    const list = queue.byCaller.get(waiter.caller);
    if (list === undefined) return;
    const index = list.indexOf(waiter);
    if (index >= 0) {
      list.splice(index, 1);
      queue.size -= 1;
    }
    if (list.length === 0) queue.byCaller.delete(waiter.caller);
    if (queue.size === 0) {
      queue.cancelTimer?.();
      queues.delete(key);
    }
  }

  /** The next waiter in round-robin order across callers, without removing it. */
  function nextWaiter(queue: KeyQueue): Waiter | undefined {
    const callers = [...queue.byCaller.keys()];
    if (callers.length === 0) return undefined;
    const caller = callers[queue.cursor % callers.length];
    return caller === undefined ? undefined : queue.byCaller.get(caller)?.[0];
  }

  /** Admits waiters of `key`, round-robin across callers, while the ledger has headroom. */
  async function drain(key: string): Promise<void> {
    const queue = queues.get(key);
    if (queue === undefined) return;
    if (queue.draining) {
      queue.redrain = true;
      return;
    }
    queue.draining = true;
    try {
      do {
        queue.redrain = false;
        for (;;) {
          const waiter = nextWaiter(queue);
          if (waiter === undefined) return;
          const taken = await tryTake(key, waiter.paced);
          if (waiter.done) {
            if (taken.ok) taken.permit.release();
            continue;
          }
          if (!taken.ok && taken.unavailable === true) {
            // The shared ledger is away: this waiter is refused now rather than left waiting.
            refuseWaiter(key, queue, waiter, 'unavailable');
            continue;
          }
          if (!taken.ok) {
            if (taken.retryAt !== undefined) {
              queue.cancelTimer?.();
              queue.cancelTimer = schedule(() => void drain(key), taken.retryAt - now());
            }
            break;
          }
          const callers = [...queue.byCaller.keys()];
          const position = callers.indexOf(waiter.caller);
          waiter.done = true;
          waiter.cancel();
          removeWaiter(key, queue, waiter);
          // The next turn goes to the caller after this one (its list may now be gone).
          queue.cursor = queue.byCaller.has(waiter.caller) ? position + 1 : position;
          waiter.resolve(ok(taken.permit));
        }
        // A release or timer during the awaits above asked for another pass.
      } while (wantsRedrain(queue));
    } finally {
      queue.draining = false;
    }
  }

  function refuseWaiter(
    key: string,
    queue: KeyQueue,
    waiter: Waiter,
    cause: GovernorRefusal['cause'],
  ): void {
    waiter.done = true;
    waiter.cancel();
    removeWaiter(key, queue, waiter);
    emit({ kind: 'refused', key, cause });
    waiter.resolve(err({ code: 'relay_overloaded', cause }));
  }

  return {
    async admit(key, caller, paced) {
      // This request's own claim (the oldest of its key) ends here: from now on its point is in
      // the ledger's window, or it waits in the queue (which makes the key busy by itself).
      liveClaims(key, now()).shift();
      if (claims.get(key)?.length === 0) claims.delete(key);
      const existing = queues.get(key);
      if (existing === undefined || existing.size === 0) {
        const taken = await tryTake(key, paced);
        if (taken.ok) return ok(taken.permit);
        if (taken.unavailable === true) {
          emit({ kind: 'refused', key, cause: 'unavailable' });
          return err({ code: 'relay_overloaded', cause: 'unavailable' });
        }
        if (maxWaitMs <= 0) {
          emit({ kind: 'refused', key, cause: 'waited' });
          return err({ code: 'relay_overloaded', cause: 'waited' });
        }
      }
      const queue = queueOf(key);
      if (queue.size >= maxQueued) {
        emit({ kind: 'refused', key, cause: 'queue_full' });
        return err({ code: 'relay_overloaded', cause: 'queue_full' });
      }
      emit({ kind: 'queued', key });
      const admitted = new Promise<Result<GovernorPermit, GovernorRefusal>>((resolve) => {
        const waiter: Waiter = { caller, paced, resolve, cancel: () => undefined, done: false };
        waiter.cancel = schedule(() => {
          if (!waiter.done) refuseWaiter(key, queue, waiter, 'waited');
        }, maxWaitMs);
        const list = queue.byCaller.get(caller);
        if (list === undefined) queue.byCaller.set(caller, [waiter]);
        else list.push(waiter);
        queue.size += 1;
      });
      void drain(key);
      return admitted;
    },

    async atLimit(keys) {
      const busy = new Set<string>();
      const standings = new Map<string, PaceStanding>();
      const at = now();
      for (const key of keys) {
        if ((queues.get(key)?.size ?? 0) > 0) {
          busy.add(key);
          continue;
        }
        const standing = await ledger.inspect(key, limits, at);
        if (
          standing.pointsInWindow >= standing.limits.pointsPerMinute ||
          standing.inFlight >= standing.limits.maxInFlight
        ) {
          busy.add(key);
        } else {
          standings.set(key, standing);
        }
      }
      // Claims are counted when the selector asks, so the ones made by selections that decided
      // while this one awaited the ledger are seen.
      return claimAwareBusySet(busy, (key) => {
        const standing = standings.get(key);
        if (standing === undefined) return false;
        const claimed = liveClaims(key, now()).length;
        return (
          standing.pointsInWindow + claimed >= standing.limits.pointsPerMinute ||
          standing.inFlight + claimed >= standing.limits.maxInFlight
        );
      });
    },

    claim(key) {
      const entry = { at: now() };
      const list = claims.get(key);
      if (list === undefined) claims.set(key, [entry]);
      else list.push(entry);
      return () => {
        const current = claims.get(key);
        const index = current?.indexOf(entry) ?? -1;
        if (current === undefined || index < 0) return;
        current.splice(index, 1);
        if (current.length === 0) claims.delete(key);
      };
    },

    async observe(key, answer) {
      const resource = answer.resource;
      if (
        resource !== undefined &&
        resource in DEFAULT_SEARCH_LIMITS &&
        answer.limit !== undefined &&
        answer.limit > 0
      ) {
        bucketLimits.set(bucketKey(key, { bucket: resource }), answer.limit);
      }
      if (!isSecondaryLimitAnswer(answer)) {
        await checkRestored(key);
        return;
      }
      let factor: number;
      try {
        factor = await ledger.penalize(key, now());
      } catch {
        // The shared ledger is away: the pace is not halved this time (the answer was served;
        // the identity's cooldown is the coordinator's, which fails the request if it is away).
        return;
      }
      slowed.add(key);
      known.add(key);
      emit({ kind: 'slowed', key, factor });
    },

    async inspect(key) {
      return ledger.inspect(key, limits, now());
    },

    async senders() {
      const at = now();
      const list: { key: string; standing: PaceStanding }[] = [];
      for (const key of [...known].sort()) {
        const standing = await ledger.inspect(key, limits, at);
        if (standing.pointsInWindow === 0 && standing.inFlight === 0 && standing.factor >= 1) {
          known.delete(key);
          continue;
        }
        list.push({ key, standing });
      }
      return list;
    },
  };
}
