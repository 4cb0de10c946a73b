import type { RelayEnvelope } from '@relay/protocol';
import type { RelayPort, RelayRead } from '../relay-port.js';

/**
 * A fake relay for the `pr checks` tests: one repository (`acme/widgets`) whose PR 7 has a
 * head commit with check runs, a combined status and Actions runs, served page by page as
 * REST does (100 a page, `Link: rel="next"`, `total_count`). Every logical read is recorded
 * so that tests count them against SPEC.md client rule 10's bounds. Test support only.
 */
export interface ChecksWorld {
  readonly headSha: string;
  readonly headRef: string;
  readonly checkRuns: readonly unknown[];
  readonly statuses: readonly unknown[];
  readonly actionsRuns: readonly unknown[];
  /** Whether PR 7 exists (a 404 otherwise, in a repository that exists). */
  readonly pullExists?: boolean;
  /** The relay cache state of every answer. */
  readonly cache?: 'hit' | 'miss' | 'stale';
  /** Paths the relay answers with `fallback_local`. */
  readonly fallbackPaths?: readonly string[];
}

/** The fake port and what it saw; `world` may be replaced between reads (a watch's changes). */
export interface ChecksFakePort extends RelayPort {
  readonly reads: RelayRead[];
  world: ChecksWorld;
}

/** A 40-hex head sha. */
export const HEAD_SHA = 'a'.repeat(40);
/** The repository's REST prefix. */
export const REPO = '/repos/acme/widgets';

/** A REST check run (the fields gh's context reads, plus what REST always sends). */
export function restCheckRun(seed: {
  readonly id: number;
  readonly name: string;
  readonly status?: string;
  readonly conclusion?: string | null;
  readonly startedAt?: string | null;
  readonly completedAt?: string | null;
  readonly link?: string | null;
  readonly suite?: number;
}): Record<string, unknown> {
  const status = seed.status ?? 'completed';
  return {
    id: seed.id,
    head_sha: HEAD_SHA,
    name: seed.name,
    status,
    conclusion:
      seed.conclusion === undefined ? (status === 'completed' ? 'success' : null) : seed.conclusion,
    started_at: seed.startedAt === undefined ? '2020-08-27T18:58:46Z' : seed.startedAt,
    completed_at: seed.completedAt === undefined ? '2020-08-27T19:00:12Z' : seed.completedAt,
    details_url: seed.link === undefined ? 'sweet link' : seed.link,
    html_url: `https://github.com/acme/widgets/runs/${String(seed.id)}`,
    check_suite: { id: seed.suite ?? 900 },
    app: { slug: 'github-actions' },
  };
}

/** A combined-status item. */
export function restStatus(seed: {
  readonly context: string;
  readonly state: string;
  readonly targetUrl?: string | null;
  readonly description?: string | null;
}): Record<string, unknown> {
  return {
    context: seed.context,
    state: seed.state,
    target_url: seed.targetUrl === undefined ? 'sweet link' : seed.targetUrl,
    description: seed.description === undefined ? null : seed.description,
    created_at: '2020-08-27T18:58:46Z',
    updated_at: '2020-08-27T18:58:46Z',
  };
}

/** An Actions run of the head commit. */
export function restActionsRun(seed: {
  readonly suite: number;
  readonly event: string;
  readonly workflow: string;
}): Record<string, unknown> {
  return {
    id: seed.suite + 5000,
    name: seed.workflow,
    display_title: 'a commit',
    check_suite_id: seed.suite,
    event: seed.event,
    head_sha: HEAD_SHA,
  };
}

/** A world with these contexts on head `trunk`. */
export function checksWorld(parts: Partial<ChecksWorld>): ChecksWorld {
  return {
    headSha: HEAD_SHA,
    headRef: 'trunk',
    checkRuns: [],
    statuses: [],
    actionsRuns: [],
    ...parts,
  };
}

function envelope(
  status: number,
  body: unknown,
  route: string,
  cache: ChecksWorld['cache'],
  link?: string,
): RelayEnvelope {
  return {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(link === undefined ? {} : { link }),
    },
    body,
    body_encoding: 'json',
    identity: null,
    relay: {
      pool: 'team',
      request_id: 'r',
      cacheable: true,
      cache: cache ?? 'miss',
      stale_ok: cache === 'stale',
      ...(cache === 'stale'
        ? { stale_reason: 'forge_rate_limited', cache_expires_at: '2024-01-01T00:00:00Z' }
        : {}),
      route_kind: route,
    },
  } as unknown as RelayEnvelope;
}

/** One page of a wrapped collection, with REST's `Link` when more follow. */
function page(
  request: RelayRead,
  items: readonly unknown[],
  wrap: (slice: readonly unknown[]) => Record<string, unknown>,
  route: string,
  cache: ChecksWorld['cache'],
): RelayEnvelope {
  const number = Number(request.query?.page ?? '1');
  const size = Number(request.query?.per_page ?? '30');
  const slice = items.slice((number - 1) * size, number * size);
  const more = number * size < items.length;
  const link = more
    ? `<https://api.github.com${request.path}?per_page=${String(size)}&page=${String(number + 1)}>; rel="next"`
    : undefined;
  return envelope(200, { total_count: items.length, ...wrap(slice) }, route, cache, link);
}

/** Builds the fake port over `world`. */
export function createChecksFakePort(world: ChecksWorld): ChecksFakePort {
  const reads: RelayRead[] = [];
  const port: ChecksFakePort = {
    reads,
    world,
    read(request) {
      reads.push(request);
      const current = port.world;
      const { cache } = current;
      if (current.fallbackPaths?.includes(request.path) === true) {
        return Promise.resolve({ kind: 'fallback', reason: 'forge_rate_limited' });
      }
      const commit = `${REPO}/commits/${current.headSha}`;
      const pull = {
        number: 7,
        state: 'open',
        head: { sha: current.headSha, ref: current.headRef },
      };
      let answer: RelayEnvelope;
      switch (request.path) {
        case `${REPO}/pulls/7`:
          answer =
            current.pullExists === false
              ? envelope(404, { message: 'Not Found' }, 'pr_view', cache)
              : envelope(200, pull, 'pr_view', cache);
          break;
        case REPO:
          answer = envelope(
            200,
            { full_name: 'acme/widgets', default_branch: 'trunk' },
            'repo_view',
            cache,
          );
          break;
        case `${REPO}/pulls`:
          answer = envelope(
            200,
            [
              {
                ...pull,
                head: { ...pull.head, repo: { id: 1, owner: { login: 'acme' } } },
                base: { repo: { id: 1 } },
              },
            ],
            'pr_list',
            cache,
          );
          break;
        case `${commit}/check-runs`:
          answer = page(
            request,
            current.checkRuns,
            (slice) => ({ check_runs: slice }),
            'commit_check_runs',
            cache,
          );
          break;
        case `${commit}/status`:
          answer = page(
            request,
            current.statuses,
            (slice) => ({ state: 'success', statuses: slice }),
            'commit_status',
            cache,
          );
          break;
        case `${REPO}/actions/runs`:
          answer = page(
            request,
            current.actionsRuns,
            (slice) => ({ workflow_runs: slice }),
            'run_list',
            cache,
          );
          break;
        default:
          return Promise.reject(new Error(`unexpected read of ${request.path}`));
      }
      return Promise.resolve({ kind: 'served', envelope: answer });
    },
  };
  return port;
}
