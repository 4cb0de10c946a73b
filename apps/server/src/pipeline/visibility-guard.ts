import type { ForgeResponse, ForgeTransportError } from '@relay/forge-transport';
import { err, ok, type Result, type RouteKind } from '@relay/protocol';
import { isAnonymousQuotaExhausted } from './token-free-lanes.js';

/** The outcome of one metadata probe: the forge's answer, or a transport failure. */
export type ProbeResult = Result<ForgeResponse, ForgeTransportError>;

/**
 * Sends `GET /repos/{owner}/{repo}` (the path given) with a pooled identity, or undefined when none
 * may. With `conditional`, only from an identity holding an ETag of an earlier answer to it, sent
 * as `If-None-Match` (a 304 then costs no quota).
 */
export type PooledProbe = (path: string, conditional?: boolean) => Promise<ProbeResult | undefined>;

/** What {@link VisibilityGuard.prove} needs for one repository. */
export interface VisibilityProbeInput {
  readonly owner: string;
  readonly repo: string;
  /** Sends the metadata request anonymously (with the request's rewrite snapshot). */
  readonly anonymous: (path: string) => Promise<ProbeResult>;
  /** Sends it with a pooled identity; used only when the anonymous quota is exhausted. */
  readonly pooled: PooledProbe;
  /**
   * Whether the anonymous quota is already known to be exhausted (remembered from earlier
   * answers until their reset): the anonymous probe is then skipped, as its answer would be.
   */
  readonly anonymousSpent?: () => boolean | Promise<boolean>;
  /**
   * Whether a pooled identity holds an ETag of this repository's metadata: the guard then asks
   * it first, conditionally; a 304 whose ETag it saw on a public answer proves the repository
   * still public for free (an anonymous probe is always charged). Any other answer is judged as
   * a probe answer; an unknown 304 falls back to the ordinary order.
   */
  readonly pooledRevalidates?: () => boolean;
}

/**
 * Why a repository was not proven public: `not_public` (private, unknown, or unprovable),
 * or the transport failure of the probe (a rewrite denial stays a hard 403).
 */
export type VisibilityFailure =
  | { readonly code: 'not_public' }
  | { readonly code: 'probe_failed'; readonly error: ForgeTransportError };

/** How a proof was obtained (for tests and the audit): a cached proof, or a probe lane. */
export type ProofSource = 'cached' | 'anonymous' | 'pooled';

/** The public-visibility guard (SPEC.md rule 3). */
export interface VisibilityGuard {
  /**
   * Proves that a repository is public, before any cache entry or pooled identity is used for
   * it: anonymous repository metadata first, a pooled identity only when the anonymous quota is
   * exhausted. Proofs (and refusals) are cached briefly.
   */
  prove(input: VisibilityProbeInput): Promise<Result<ProofSource, VisibilityFailure>>;
  /**
   * Learns from a fresh answer to `GET /repos/{owner}/{repo}` that the pipeline obtained anyway
   * (a `repo_view` read, after its proof): the same metadata a probe reads, so it renews the
   * proof (a 200 that says public) or records a refusal (a 200 that says otherwise, or a 404)
   * exactly as a probe answer would. A 304 renews the proof only when its ETag is that of an
   * answer this guard saw saying public since the last refusal (the metadata is unchanged, so
   * still public); any other answer is ignored.
   */
  observe(owner: string, repo: string, response: ForgeResponse): void;
  /**
   * Learns from the API answer of any read of the repository that the pipeline obtained after
   * its proof: a `repo_view` answer as {@link observe}; a 200 that embeds the repository itself
   * (a pull request's `base.repo`, a workflow run's or a combined status's `repository`, whose
   * `full_name` must name this repository) renews the proof when the embedded repository says
   * public and records a refusal when it says private, as a probe answer would. Anything else
   * (other kinds, other statuses, a missing or foreign repository) is ignored. A guard shared by
   * several replicas resolves once what it recorded holds for every replica.
   */
  observeRead(
    kind: RouteKind,
    owner: string,
    repo: string,
    response: ForgeResponse,
  ): void | Promise<void>;
  /**
   * Drops the proof of a repository that an answer revealed as private (`owner/repo`, any case):
   * a refusal is recorded in its place, so the next read of it probes again after the refusal's
   * lifetime and is refused until then. A guard shared by several replicas resolves once the
   * refusal holds for every replica.
   */
  revoke(fullName: string): void | Promise<void>;
  /**
   * Forgets what this guard knows of a repository (`owner/repo`, any case), proof or refusal, so
   * that its next `prove` probes: for a guard whose proofs another store vouches for (several
   * replicas), when that store knows nothing of it. With `replacement` (that store's expired
   * record) the guard holds that instead: its ETags still renew the proof by a 304.
   */
  forget(fullName: string, replacement?: Proof): void;
}

/** Where the answer of a route kind embeds its own repository (GitHub's response shapes). */
const EMBEDDED_REPOSITORY: Partial<Record<RouteKind, readonly string[]>> = {
  pr_view: ['base', 'repo'],
  run_view: ['repository'],
  commit_status: ['repository'],
  commit_status_ref: ['repository'],
};

/**
 * Lists whose every item embeds its repository: the items (at `items`, or the body itself) and
 * where in each item (a pull request's `base.repo`, a workflow run's or a check suite's
 * `repository`).
 */
const EMBEDDED_IN_ITEMS: Partial<
  Record<RouteKind, { readonly items: readonly string[]; readonly at: readonly string[] }>
> = {
  pr_list: { items: [], at: ['base', 'repo'] },
  commit_pulls: { items: [], at: ['base', 'repo'] },
  run_list: { items: ['workflow_runs'], at: ['repository'] },
  workflow_run_list: { items: ['workflow_runs'], at: ['repository'] },
  commit_check_suites: { items: ['check_suites'], at: ['repository'] },
  commit_check_suites_ref: { items: ['check_suites'], at: ['repository'] },
};

/** The value at `path` of a JSON value, if there is one. */
function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** The repositories a 200 of `kind` embeds (empty when it embeds none, or the body is not JSON). */
function embeddedRepositories(kind: RouteKind, response: ForgeResponse): unknown[] {
  if (response.body.encoding !== 'json') return [];
  const body: unknown = response.body.body;
  const single = EMBEDDED_REPOSITORY[kind];
  if (single !== undefined) return [valueAt(body, single)];
  const list = EMBEDDED_IN_ITEMS[kind];
  const items = list === undefined ? undefined : valueAt(body, list.items);
  if (list === undefined || !Array.isArray(items)) return [];
  return items.map((item) => valueAt(item, list.at));
}

/** Options of {@link createVisibilityGuard}. */
export interface VisibilityGuardOptions {
  /** The clock, epoch milliseconds. */
  readonly now: () => number;
  /**
   * How long a public proof is reused. Default {@link DEFAULT_PROOF_TTL_MS} (60 s): a repository
   * that turns private is refused within this bound (at once when an answer reveals it).
   */
  readonly publicTtlMs?: number;
  /** How long a refusal is reused. Default 30 s. */
  readonly refusalTtlMs?: number;
  /** Proofs kept at most (oldest dropped first). Default 10,000. */
  readonly maxEntries?: number;
  /**
   * Told every proof or refusal as it is recorded (`owner/repo` lowercase): a guard shared by
   * several replicas writes it through to their common store.
   */
  readonly onRecord?: (key: string, proof: Proof) => void;
}

const NOT_PUBLIC = { code: 'not_public' } as const;

/** The default lifetime of a public proof: 60 s (RELAY_VISIBILITY_PROOF_TTL_S). */
export const DEFAULT_PROOF_TTL_MS = 60_000;

function isPublicBody(body: ForgeResponse['body']): boolean {
  if (body.encoding !== 'json') return false;
  return isPublicRepository(body.body);
}

function isPublicRepository(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (record.private !== false) return false;
  return record.visibility === undefined || record.visibility === 'public';
}

/** ETags of public answers kept per repository (the forge salts them per credential). */
const MAX_PUBLIC_ETAGS = 8;

/** An ETag without its weak prefix (a 304 may carry either form). */
function bareEtag(response: ForgeResponse): string | undefined {
  const etag = response.headers.etag;
  return etag === undefined || etag === '' ? undefined : etag.replace(/^W\//, '');
}

/** What the guard knows of one repository. */
export interface Proof {
  readonly isPublic: boolean;
  readonly until: number;
  /** ETags of answers that said public since the last refusal (empty for a refusal). */
  readonly publicEtags: readonly string[];
}

/**
 * Creates the public-visibility guard. A repository is public when its metadata says
 * `private: false` (and, when present, `visibility: public`); a 404, a private flag or any other
 * answer counts as not public. Only the flag is read: the metadata body is never served.
 * Concurrent proofs of one repository share one probe: the others wait for it and reuse the
 * proof (or refusal) it recorded, and probe themselves only when it recorded nothing (a failed
 * probe, or no identity of the first request's pool could ask).
 *
 * @param options - the clock and the proof lifetimes
 */
export function createVisibilityGuard(options: VisibilityGuardOptions): VisibilityGuard {
  const publicTtlMs = options.publicTtlMs ?? DEFAULT_PROOF_TTL_MS;
  const refusalTtlMs = options.refusalTtlMs ?? 30_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const proofs = new Map<string, Proof>();
  const probing = new Map<string, Promise<unknown>>();

  function remember(key: string, isPublic: boolean, etag: string | undefined): void {
    const previous = proofs.get(key);
    if (previous === undefined && proofs.size >= maxEntries) {
      const oldest = proofs.keys().next();
      if (oldest.done !== true) proofs.delete(oldest.value);
    }
    let publicEtags: readonly string[] = [];
    if (isPublic) {
      const kept = previous?.isPublic === true ? previous.publicEtags : [];
      publicEtags =
        etag === undefined || kept.includes(etag) ? kept : [...kept, etag].slice(-MAX_PUBLIC_ETAGS);
    }
    const proof = {
      isPublic,
      until: options.now() + (isPublic ? publicTtlMs : refusalTtlMs),
      publicEtags,
    };
    proofs.set(key, proof);
    options.onRecord?.(key, proof);
  }

  /** The unexpired proof or refusal of `key`, if any. */
  function current(key: string): Proof | undefined {
    const proof = proofs.get(key);
    return proof !== undefined && options.now() < proof.until ? proof : undefined;
  }

  const keyOf = (owner: string, repo: string) => `${owner.toLowerCase()}/${repo.toLowerCase()}`;

  async function probe(
    key: string,
    input: VisibilityProbeInput,
  ): Promise<Result<ProofSource, VisibilityFailure>> {
    const path = `/repos/${input.owner}/${input.repo}`;
    let answer: ForgeResponse | undefined;
    let source: ProofSource = 'anonymous';
    if (input.pooledRevalidates?.() === true) {
      const conditional = await input.pooled(path, true);
      if (conditional?.ok === true) {
        if (conditional.value.status === 304 && renewsByEtag(key, conditional.value)) {
          return ok('pooled');
        }
        if (conditional.value.status === 200 || conditional.value.status === 404) {
          answer = conditional.value;
          source = 'pooled';
        }
      }
    }
    if (answer === undefined && (await input.anonymousSpent?.()) !== true) {
      const anonymous = await input.anonymous(path);
      if (!anonymous.ok) return err({ code: 'probe_failed', error: anonymous.error });
      answer = anonymous.value;
    }
    if (answer === undefined || (source === 'anonymous' && isAnonymousQuotaExhausted(answer))) {
      const pooled = await input.pooled(path);
      if (pooled === undefined) return err(NOT_PUBLIC);
      if (!pooled.ok) return err({ code: 'probe_failed', error: pooled.error });
      answer = pooled.value;
      source = 'pooled';
    }
    if (answer.status === 200 || answer.status === 404) {
      const isPublic = answer.status === 200 && isPublicBody(answer.body);
      remember(key, isPublic, bareEtag(answer));
      return isPublic ? ok(source) : err(NOT_PUBLIC);
    }
    return err(NOT_PUBLIC);
  }

  /**
   * A 304 whose ETag is that of an answer this guard saw saying public since the last refusal:
   * the metadata is unchanged, so the repository is still public (the proof is renewed).
   */
  function renewsByEtag(key: string, response: ForgeResponse): boolean {
    const etag = bareEtag(response);
    const known = proofs.get(key);
    if (etag === undefined || known?.isPublic !== true || !known.publicEtags.includes(etag)) {
      return false;
    }
    remember(key, true, etag);
    return true;
  }

  function observe(owner: string, repo: string, response: ForgeResponse): void {
    const key = keyOf(owner, repo);
    if (response.status === 304) {
      renewsByEtag(key, response);
      return;
    }
    if (response.status !== 200 && response.status !== 404) return;
    const isPublic = response.status === 200 && isPublicBody(response.body);
    remember(key, isPublic, bareEtag(response));
  }

  return {
    observe,

    revoke(fullName) {
      const key = fullName.toLowerCase();
      if (!/^[^/]+\/[^/]+$/.test(key)) return;
      remember(key, false, undefined);
    },

    forget(fullName, replacement) {
      const key = fullName.toLowerCase();
      if (replacement === undefined) proofs.delete(key);
      else proofs.set(key, replacement);
    },

    observeRead(kind, owner, repo, response) {
      if (kind === 'repo_view') {
        observe(owner, repo, response);
        return;
      }
      if (response.status !== 200) return;
      const key = keyOf(owner, repo);
      // Only the embedded copies of this repository count (a list may embed forks' repositories
      // elsewhere); one that says private is a refusal, whatever the others say.
      const own = embeddedRepositories(kind, response).filter((embedded) => {
        if (typeof embedded !== 'object' || embedded === null) return false;
        const fullName = (embedded as Record<string, unknown>).full_name;
        return typeof fullName === 'string' && fullName.toLowerCase() === key;
      });
      if (own.length === 0) return;
      // The embedded repository carries no ETag of its own: a renewal, not a 304 validator.
      remember(key, own.every(isPublicRepository), undefined);
    },

    async prove(input) {
      const key = keyOf(input.owner, input.repo);
      const cached = current(key);
      if (cached !== undefined) return cached.isPublic ? ok('cached') : err(NOT_PUBLIC);
      const pending = probing.get(key);
      if (pending !== undefined) {
        await pending;
        const shared = current(key);
        if (shared !== undefined) return shared.isPublic ? ok('cached') : err(NOT_PUBLIC);
      }
      const running = probe(key, input);
      const settled = running.then(
        () => undefined,
        () => undefined,
      );
      probing.set(key, settled);
      try {
        return await running;
      } finally {
        if (probing.get(key) === settled) probing.delete(key);
      }
    },
  };
}
