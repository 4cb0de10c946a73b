import { PAGINATED_READ_MAX_PAGES, PAGE_SIZE_MAX } from '@relay/protocol';
import type { RelayEnvelope } from '@relay/protocol';
import type { CallerAuth } from './caller-auth.js';
import {
  getPoolResource,
  loadCallerSession,
  parseEnvelope,
  postForgeRequest,
} from './caller-session.js';
import type { CliDependencies } from './cli-dependencies.js';
import { CliError } from './cli-error.js';
import {
  envelopeBodyBytes,
  findNextLink,
  formatGhHttpError,
  isJsonEnvelope,
  slurpPages,
  splicePaginatedPages,
} from './gh-api-output.js';
import { runJqFilter } from './jq-filter.js';
import { isLoginProbe, planApiInvocation } from './native-api-invocation.js';
import type { RelayableApiRead } from './native-api-invocation.js';
import { runNativeCli } from './native-cli.js';
import { parseRetries, sendWithRetries } from './relay-retry-policy.js';
import { toReplyError } from './relay-http.js';

/** Where `relay native api` writes. */
export interface ApiOutput {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/** The fixed stderr notice after a bare rate_limit read (client rule 14). */
export const QUOTA_NOTICE =
  "relay: this rate limit is the pooled reader identity's quota, not your own\n";

/** The outcome of reading every page. */
type PagesOutcome =
  | { readonly kind: 'pages'; readonly envelopes: readonly RelayEnvelope[] }
  | { readonly kind: 'delegate' };

function isBareRateLimit(plan: RelayableApiRead): boolean {
  return plan.path === '/rate_limit' && Object.keys(plan.query).length === 0;
}

function freshHeaders(deps: CliDependencies, plan: RelayableApiRead): Record<string, string> {
  const headers = { ...plan.headers };
  if (deps.env.RELAY_FRESH === '1' && headers['cache-control'] === undefined) {
    headers['cache-control'] = 'max-age=0';
  }
  return headers;
}

function queryFromUrl(next: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of next.searchParams) {
    const existing = query[key];
    if (existing === undefined) query[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else query[key] = [existing, value];
  }
  return query;
}

/** How many items a page holds: an array's length, or a wrapped list's array and total_count. */
function pageItems(body: unknown): { count: number; total: number | undefined } | undefined {
  if (Array.isArray(body)) return { count: body.length, total: undefined };
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const total = typeof record.total_count === 'number' ? record.total_count : undefined;
  const list = Object.values(record).find((value) => Array.isArray(value)) as unknown[] | undefined;
  if (list === undefined) return total === undefined ? undefined : { count: 0, total };
  return { count: list.length, total };
}

async function readPages(
  deps: CliDependencies,
  auth: CallerAuth,
  plan: RelayableApiRead,
): Promise<PagesOutcome> {
  const retries = parseRetries(deps.env);
  if (!retries.ok) throw retries.error;
  const headers = freshHeaders(deps, plan);
  const perPage = Number(typeof plan.query.per_page === 'string' ? plan.query.per_page : 30);
  const envelopes: RelayEnvelope[] = [];
  let path = plan.path;
  let query: Readonly<Record<string, string | readonly string[]>> = plan.query;
  let seen = 0;
  for (;;) {
    const outcome = await sendWithRetries(
      () =>
        postForgeRequest(deps, auth, {
          pool: auth.pool,
          method: 'GET',
          path,
          ...(Object.keys(query).length === 0 ? {} : { query: query as Record<string, string> }),
          ...(Object.keys(headers).length === 0 ? {} : { headers }),
        }),
      { retries: retries.value, sleep: deps.sleep },
    );
    if (outcome.kind === 'failure') throw toReplyError(outcome.reply);
    if (outcome.kind === 'fallback') {
      if (deps.env.RELAY_NO_FALLBACK === '1') {
        throw new CliError('fallback_local', {
          reason: outcome.reason,
          message: 'The relay asks for a local run and RELAY_NO_FALLBACK=1 forbids it.',
        });
      }
      return { kind: 'delegate' };
    }
    const envelope = parseEnvelope(outcome.reply.json);
    envelopes.push(envelope);
    if (!plan.paginate || envelope.status < 200 || envelope.status > 299) break;

    const next = findNextLink(envelope.headers.link);
    if (next !== undefined) {
      if (envelopes.length >= PAGINATED_READ_MAX_PAGES) return { kind: 'delegate' };
      let url: URL;
      try {
        url = new URL(next);
      } catch {
        return { kind: 'delegate' };
      }
      path = url.pathname;
      query = queryFromUrl(url);
      continue;
    }
    // No Link header: prove the end from the body, or hand the set to the native CLI.
    const items = envelope.body_encoding === 'json' ? pageItems(envelope.body) : undefined;
    if (items === undefined) break;
    seen += items.count;
    if (items.total !== undefined) {
      if (seen < items.total) return { kind: 'delegate' };
      break;
    }
    if (items.count >= Math.min(perPage, PAGE_SIZE_MAX) && items.count > 0) {
      return { kind: 'delegate' };
    }
    break;
  }
  return { kind: 'pages', envelopes };
}

async function runLoginProbe(deps: CliDependencies, output: ApiOutput): Promise<number> {
  const session = await loadCallerSession(deps);
  if (session.saved === undefined || session.auth.source !== 'saved') {
    throw new CliError('not_logged_in');
  }
  const reply = await getPoolResource(deps, session.auth, 'health');
  if (reply.kind !== 'ok') throw toReplyError(reply);
  output.stdout.write(`${session.saved.login}\n`);
  return 0;
}

/**
 * Runs `relay native api <args>` (the `native api` row and client rules 4-7, 12, 14): the
 * exact login probe reads pool health; relayable GET reads go through the relay with retries,
 * pagination (at most 10 pages) and gh's output; everything else, jq missing, longer or
 * unprovable page sets and `fallback_local` answers run the native CLI with the original
 * arguments. Resolves the exit code.
 *
 * @throws CliError for failures that end the command (mapped once by the command runner)
 */
export async function runNativeApi(
  deps: CliDependencies,
  output: ApiOutput,
  args: readonly string[],
): Promise<number> {
  const argv = ['api', ...args];
  if (isLoginProbe(args)) return runLoginProbe(deps, output);
  const plan = planApiInvocation(args);
  if (plan.kind === 'delegate') return runNativeCli(deps, argv);
  let jqPath: string | undefined;
  if (plan.jq !== undefined) {
    jqPath = await deps.findExecutable('jq', deps.env);
    if (jqPath === undefined) return runNativeCli(deps, argv);
  }
  const session = await loadCallerSession(deps);
  const pages = await readPages(deps, session.auth, plan);
  if (pages.kind === 'delegate') return runNativeCli(deps, argv);

  const envelopes = pages.envelopes;
  const last = envelopes[envelopes.length - 1];
  if (last === undefined) return 1;
  const failed = last.status < 200 || last.status > 299;
  const bodies = envelopes.map((envelope) => envelopeBodyBytes(envelope));

  if (jqPath !== undefined && plan.jq !== undefined) {
    const good = failed ? bodies.slice(0, -1) : bodies;
    for (const body of good) {
      const filtered = await runJqFilter(deps, jqPath, plan.jq, body);
      output.stdout.write(filtered.stdout);
      if (!filtered.ok) {
        output.stderr.write(filtered.stderr);
        return 1;
      }
    }
    if (failed) output.stdout.write(bodies[bodies.length - 1] ?? Buffer.alloc(0));
  } else if (plan.slurp && !failed) {
    output.stdout.write(slurpPages(bodies));
  } else if (plan.paginate && envelopes.every((envelope) => isJsonEnvelope(envelope))) {
    output.stdout.write(splicePaginatedPages(bodies));
  } else {
    for (const body of bodies) output.stdout.write(body);
  }
  if (failed) {
    output.stderr.write(
      formatGhHttpError(last.status, last.body_encoding === 'json' ? last.body : undefined),
    );
    return 1;
  }
  if (isBareRateLimit(plan)) output.stderr.write(QUOTA_NOTICE);
  return 0;
}
