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
import { closeSync, openSync, readFileSync } from 'node:fs';
import {
  envelopeBodyBytes,
  findNextLink,
  formatGhHttpError,
  ghErrorMessage,
  isJsonEnvelope,
  slurpPages,
  splicePaginatedPages,
} from './gh-api-output.js';
import { sanitizeGhJsonBody } from './gh-api-sanitizer.js';
import { forgeJsonText } from './native-api-body-text.js';
import { fillPlaceholders, namesPlaceholder } from './gh-api-fields.js';
import type { ApiFieldContext, FileError } from './gh-api-fields.js';
import { checkJqExpression, formatJqOutput, normalizeJqInput } from './gh-jq.js';
import { runJqFilter } from './jq-filter.js';
import {
  fillPlaceholdersInArgs,
  isLoginProbe,
  planApiInvocation,
} from './native-api-invocation.js';
import type { ApiPlanContext, RelayableApiRead } from './native-api-invocation.js';
import { readGitRemotes } from './native/git-remotes.js';
import {
  GITHUB_HOST,
  parseRepoSelector,
  selectRemoteRepository,
} from './native/argv/repo-selector.js';
import type { GitRemote } from './native/argv/repo-selector.js';
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
  | {
      readonly kind: 'pages';
      readonly envelopes: readonly RelayEnvelope[];
      /** Each page's forge JSON text, when its envelope carries one (see forgeJsonText). */
      readonly jsonTexts: readonly (string | undefined)[];
    }
  | { readonly kind: 'delegate' };

/**
 * Whether `plan` is a bare rate_limit read: no query of the user's own. The `per_page=100`
 * that `--paginate` adds (gh's addPerPage) is not the user's, so `api rate_limit --paginate`
 * is bare too.
 */
function isBareRateLimit(plan: RelayableApiRead): boolean {
  if (plan.path !== '/rate_limit') return false;
  const keys = Object.keys(plan.query);
  if (keys.length === 0) return true;
  return plan.paginate && keys.length === 1 && plan.query.per_page === String(PAGE_SIZE_MAX);
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
  const jsonTexts: (string | undefined)[] = [];
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
    let envelope: RelayEnvelope;
    try {
      envelope = parseEnvelope(outcome.reply.json);
    } catch (error) {
      // A body nested deeper than the envelope check's stack (thousands of levels): gh prints
      // it as it is, so the native CLI does.
      if (error instanceof RangeError) return { kind: 'delegate' };
      throw error;
    }
    envelopes.push(envelope);
    jsonTexts.push(
      envelope.body_encoding === 'json'
        ? forgeJsonText(outcome.reply.text, envelope.body)
        : undefined,
    );
    if (!plan.paginate || envelope.status < 200 || envelope.status > 299) break;
    // Every page's items count towards a total_count, the Link-paginated ones included.
    const items = envelope.body_encoding === 'json' ? pageItems(envelope.body) : undefined;
    seen += items?.count ?? 0;

    const link = envelope.headers.link;
    const next = findNextLink(link);
    // gh follows only rel="next": a Link header without one is the last page.
    if (link !== undefined && next === undefined) break;
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
    if (items === undefined) break;
    if (items.total !== undefined) {
      if (seen < items.total) return { kind: 'delegate' };
      break;
    }
    if (items.count >= Math.min(perPage, PAGE_SIZE_MAX) && items.count > 0) {
      return { kind: 'delegate' };
    }
    break;
  }
  return { kind: 'pages', envelopes, jsonTexts };
}

async function runLoginProbe(deps: CliDependencies, output: ApiOutput): Promise<number> {
  const session = await loadCallerSession(deps);
  if (session.saved === undefined) throw new CliError('not_logged_in');
  if (session.auth.source !== 'saved') {
    // The probe prints the saved login, which belongs to the saved token alone: an explicit
    // token (RELAY_TOKEN or --token-env) has no login the relay could vouch for.
    throw new CliError('not_logged_in', {
      message:
        'The login probe prints the saved login, and an explicit relay token (RELAY_TOKEN) has none: unset it, or run `relay login`.',
    });
  }
  const reply = await getPoolResource(deps, session.auth, 'health');
  if (reply.kind !== 'ok') throw toReplyError(reply);
  output.stdout.write(`${session.saved.login}\n`);
  return 0;
}

/** `git symbolic-ref --quiet HEAD` → the current branch (gh's `CurrentBranch`). */
async function readCurrentBranch(deps: CliDependencies): Promise<string | undefined> {
  try {
    const result = await deps.runProcess('git', ['symbolic-ref', '--quiet', 'HEAD'], {
      env: deps.env,
    });
    if (result.code !== 0) return undefined;
    const line = Buffer.from(result.stdout).toString('utf8').split('\n')[0]?.trim() ?? '';
    const branch = line.replace(/^refs\/heads\//, '');
    return branch === '' ? undefined : branch;
  } catch {
    return undefined;
  }
}

/**
 * gh api's base repository (`OverrideBaseRepoFunc` then `BaseRepoFunc`): GH_REPO, else the
 * first ranked git remote. gh api ignores `gh repo set-default` and filters remotes by its
 * authenticated hosts, neither of which is modelled: such remotes, and a remote on another
 * host, give no repository (the native CLI runs).
 */
function baseRepository(
  env: CliDependencies['env'],
  remotes: readonly GitRemote[],
): { owner: string; name: string } | undefined {
  const ghRepo = env.GH_REPO;
  if (ghRepo !== undefined && ghRepo !== '') {
    const repo = parseRepoSelector(ghRepo, env);
    return repo === undefined ? undefined : { owner: repo.owner, name: repo.name };
  }
  if (remotes.some((remote) => remote.resolved !== undefined)) return undefined;
  const selected = selectRemoteRepository(remotes, env);
  if (!selected.ok || selected.value.host !== GITHUB_HOST) return undefined;
  return { owner: selected.value.owner, name: selected.value.name };
}

/** Go's texts of the errno values a file read commonly fails with (syscall.Errno.Error). */
const GO_ERRNO_TEXTS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
};

/**
 * gh's error for a `-F key=@path` it cannot read (`IOStreams.ReadUserFile`: os.Open, then
 * io.ReadAll): `open <path>: <errno text>`, or `read <path>: is a directory`; undefined for a
 * failure whose Go text is not modelled (the native CLI then runs).
 */
function goFileError(path: string, error: unknown): FileError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EISDIR') return { error: `read ${path}: is a directory` };
  const text = code === undefined ? undefined : GO_ERRNO_TEXTS[code];
  return text === undefined ? undefined : { error: `open ${path}: ${text}` };
}

/** The planner's context: git is read only when an argument names a placeholder. */
async function planContext(
  deps: CliDependencies,
  args: readonly string[],
): Promise<ApiPlanContext> {
  const named = args.map((arg) => namesPlaceholder(arg));
  const ghRepoSet = deps.env.GH_REPO !== undefined && deps.env.GH_REPO !== '';
  const needsRemotes = !ghRepoSet && named.some((entry) => entry.repo);
  const needsBranch = !ghRepoSet && named.some((entry) => entry.branch);
  const remotes = needsRemotes ? await readGitRemotes(deps) : [];
  const branch = needsBranch ? await readCurrentBranch(deps) : undefined;
  const fields: ApiFieldContext = {
    baseRepo: () => baseRepository(deps.env, remotes),
    // gh v2.60's own error under GH_REPO (fillPlaceholders; the native CLI would not see
    // GH_REPO: every native child runs without it, SPEC.md client rule 16).
    branch: () =>
      ghRepoSet
        ? { error: "unable to determine an appropriate value for the 'branch' placeholder" }
        : branch,
    readFile: (path) => {
      try {
        return readFileSync(path);
      } catch (error) {
        return goFileError(path, error);
      }
    },
  };
  // gh's openUserFile for --input: os.Open only (a directory opens; its error comes later).
  const openError = (path: string): string | undefined => {
    try {
      closeSync(openSync(path, 'r'));
      return undefined;
    } catch (error) {
      return goFileError(path, error)?.error;
    }
  };
  return { env: deps.env, stdoutIsTTY: deps.stdoutIsTTY, fields, openError };
}

/**
 * The native gh's argv: the original one, except that under GH_REPO its `{owner}`/`{repo}`
 * placeholders are filled from GH_REPO as gh would fill them (fillPlaceholdersInArgs), since
 * the native gh runs without GH_REPO (SPEC.md client rule 16) and would read the git remotes.
 */
function nativeArgv(
  env: CliDependencies['env'],
  args: readonly string[],
  fields: ApiFieldContext,
): string[] {
  const ghRepo = env.GH_REPO;
  if (ghRepo === undefined || ghRepo === '' || !args.some((arg) => namesPlaceholder(arg).repo)) {
    return ['api', ...args];
  }
  const filled = fillPlaceholdersInArgs(args, (value) => {
    const result = fillPlaceholders(value, fields);
    return typeof result === 'string' ? result : undefined;
  });
  return ['api', ...(filled ?? args)];
}

/** What gh prints for one page: stdout bytes, and the stderr message when it failed. */
interface PageOutput {
  /** The body as gh reads it (a JSON one through go-gh's sanitizer). */
  readonly body: Buffer;
  /** Whether gh reads the body as JSON (its content type). */
  readonly json: boolean;
  /** gh's error message (`''` = `HTTP <code>`), when the page ends the command with exit 1. */
  readonly error: string | undefined;
  /** Whether gh prints the body as is (an error message was parsed, or no jq). */
  readonly raw: boolean;
  readonly noContent: boolean;
}

/**
 * gh's `processResponse` for one page, less the printing: 204 prints nothing; a JSON body
 * passes through go-gh's sanitizer first; a JSON error body (status ≥ 400) gives gh's message
 * and is printed raw; any other status above 299 is `HTTP <code>` after the body (filtered
 * when --jq is given and no message was found). Undefined when gh's own reading of the body
 * fails (a JSON body that is not UTF-8, an error body Go cannot decode: gh's message is a Go
 * error).
 */
function pageOutput(envelope: RelayEnvelope, jsonText: string | undefined): PageOutput | undefined {
  const json = isJsonEnvelope(envelope);
  if (envelope.status === 204) {
    const body = Buffer.alloc(0);
    return { body, json, error: undefined, raw: true, noContent: true };
  }
  const bytes =
    jsonText === undefined ? envelopeBodyBytes(envelope) : Buffer.from(jsonText, 'utf8');
  const body = json ? sanitizeGhJsonBody(bytes) : bytes;
  if (body === undefined) return undefined;
  let message = '';
  if (envelope.status >= 400 && json) {
    const parsed = ghErrorMessage(envelope.status, body.toString('utf8'));
    if (!parsed.ok) return undefined;
    message = parsed.message;
  }
  const failed = message !== '' || envelope.status > 299;
  return {
    body,
    json,
    error: failed ? message : undefined,
    raw: message !== '',
    noContent: false,
  };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * `--jq` over every page as gh runs it (once per page, the error page raw when gh parsed a
 * message from it), or undefined when the output is one this model cannot promise
 * (see gh-jq.ts): the native CLI runs instead, before anything is printed.
 */
async function filterPages(
  deps: CliDependencies,
  jqPath: string,
  expression: string,
  pages: readonly PageOutput[],
): Promise<Buffer | undefined> {
  const check = checkJqExpression(expression);
  if (!check.ok) return undefined;
  const out: Buffer[] = [];
  for (const page of pages) {
    if (page.noContent) continue;
    if (page.raw) {
      out.push(page.body);
      continue;
    }
    // gh's jq reads any body (it does not look at the content type); Go decodes invalid UTF-8
    // byte by byte, which is not modelled.
    const text = decodeUtf8(page.body);
    const input = text === undefined ? undefined : normalizeJqInput(text);
    if (input === undefined || (check.stringifies && input.riskyNumbers)) return undefined;
    const filtered = await runJqFilter(deps, jqPath, expression, Buffer.from(input.text, 'utf8'));
    if (!filtered.ok) return undefined;
    const printed = formatJqOutput(Buffer.from(filtered.stdout).toString('utf8'));
    if (printed === undefined) return undefined;
    out.push(Buffer.from(printed, 'utf8'));
  }
  return Buffer.concat(out);
}

/**
 * Runs `relay native api <args>` (the `native api` row and client rules 4-7, 12, 14): the
 * exact login probe reads pool health; relayable GET reads go through the relay with retries,
 * pagination (at most 10 pages) and gh's output; everything else, jq missing, longer or
 * unprovable page sets, `fallback_local` answers, and answers whose gh output is not modelled
 * (an error body gh cannot decode, a jq result gh would print differently) run the native CLI
 * with the original arguments. Resolves the exit code.
 *
 * @throws CliError for failures that end the command (mapped once by the command runner)
 */
export async function runNativeApi(
  deps: CliDependencies,
  output: ApiOutput,
  args: readonly string[],
): Promise<number> {
  if (isLoginProbe(args)) return runLoginProbe(deps, output);
  const context = await planContext(deps, args);
  const argv = nativeArgv(deps.env, args, context.fields);
  const plan = planApiInvocation(args, context);
  if (plan.kind === 'delegate') return runNativeCli(deps, argv);
  if (plan.kind === 'fail') {
    output.stderr.write(plan.stderr);
    return 1;
  }
  let jqPath: string | undefined;
  if (plan.jq !== undefined) {
    if (!checkJqExpression(plan.jq).ok) return runNativeCli(deps, argv);
    jqPath = await deps.findExecutable('jq', deps.env);
    if (jqPath === undefined) return runNativeCli(deps, argv);
  }
  const session = await loadCallerSession(deps);
  const pages = await readPages(deps, session.auth, plan);
  if (pages.kind === 'delegate') return runNativeCli(deps, argv);

  const envelopes = pages.envelopes;
  const outputs: PageOutput[] = [];
  for (const [index, envelope] of envelopes.entries()) {
    const page = pageOutput(envelope, pages.jsonTexts[index]);
    if (page === undefined) return runNativeCli(deps, argv);
    outputs.push(page);
  }
  const last = outputs[outputs.length - 1];
  if (last === undefined) return 1;
  const bodies = outputs.map((page) => page.body);

  let stdout: Buffer;
  if (jqPath !== undefined && plan.jq !== undefined) {
    const filtered = await filterPages(deps, jqPath, plan.jq, outputs);
    if (filtered === undefined) return runNativeCli(deps, argv);
    stdout = filtered;
  } else if (plan.slurp) {
    stdout = slurpPages(bodies);
  } else if (plan.paginate) {
    stdout = splicePaginatedPages(
      bodies,
      outputs.map((page) => page.json),
    );
  } else {
    stdout = Buffer.concat(bodies);
  }
  output.stdout.write(stdout);
  if (last.error !== undefined) {
    const status = envelopes[envelopes.length - 1]?.status ?? 0;
    output.stderr.write(formatGhHttpError(status, last.error));
    return 1;
  }
  if (isBareRateLimit(plan)) output.stderr.write(QUOTA_NOTICE);
  return 0;
}
