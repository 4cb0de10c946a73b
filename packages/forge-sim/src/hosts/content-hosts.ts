import { toPatchCommit } from '../routes/commit-routes.js';
import type { ForgeWorld } from '../world/forge-world.js';
import { renderDiff, renderPatch } from '../world/git-objects.js';
import { toHttpDate, type SimClock } from '../world/sim-clock.js';
import type { RepoRecord } from '../world/world-records.js';
import { EntityRenderer } from '../render/entity-renderer.js';
import type { ExampleTemplates } from '../render/example-templates.js';
import type { SimUrls } from '../render/sim-urls.js';
import type { FaultAction } from '../http/fault-injector.js';
import type { HostAnswer, SimHostHandler, SimRequest, SimResponse } from './host-types.js';
import type { LogSigner } from './log-signer.js';

/** What the web, raw and log hosts are built from. */
export interface ContentHostDeps {
  readonly world: ForgeWorld;
  readonly urls: SimUrls;
  readonly templates: ExampleTemplates;
  readonly clock: SimClock;
  readonly logSigner: LogSigner;
}

function text(status: number, body: string, contentType: string, clock: SimClock): SimResponse {
  return {
    status,
    headers: { 'content-type': contentType, date: toHttpDate(clock.now()), server: 'GitHub.com' },
    body,
  };
}

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c,
  );
}

function segments(path: string): string[] {
  return path
    .split('/')
    .slice(1)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

function injectedText(
  action: Extract<FaultAction, { kind: 'status' | 'secondary_limit' }>,
  clock: SimClock,
): HostAnswer {
  const status = action.kind === 'status' ? action.status : (action.status ?? 429);
  const response = text(status, `Simulated ${status}\n`, 'text/plain; charset=utf-8', clock);
  if (action.kind === 'secondary_limit')
    response.headers['retry-after'] = String(action.retryAfterS ?? 60);
  return { response };
}

/** Public repositories only: the web and raw hosts have no credentials. */
function publicRepo(
  world: ForgeWorld,
  owner: string | undefined,
  name: string | undefined,
): RepoRecord | undefined {
  if (owner === undefined || name === undefined) return undefined;
  const repo = world.getRepo(owner, name);
  return repo && !repo.private ? repo : undefined;
}

/**
 * The web host (github.com): HTML pages of accounts, repositories, pull requests and
 * issues, and the `.patch` / `.diff` pages of pull requests, commits and compares.
 * Private repositories are 404 (no cookies here).
 */
export function createWebHost(deps: ContentHostDeps): SimHostHandler {
  const page = (title: string, body: string): SimResponse =>
    text(
      200,
      `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>\n`,
      'text/html; charset=utf-8',
      deps.clock,
    );
  const notFound = (): SimResponse =>
    text(404, 'Not Found', 'text/plain; charset=utf-8', deps.clock);

  function handle(request: SimRequest): Promise<HostAnswer> {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return Promise.resolve({ response: notFound() });
    const [owner, name, kind, rest, ...more] = segments(request.path);
    if (owner !== undefined && name === undefined) {
      const account = deps.world.getAccount(owner);
      return Promise.resolve({
        response: account
          ? page(account.login, `<h1>${escapeHtml(account.login)}</h1>`)
          : notFound(),
      });
    }
    const repo = publicRepo(deps.world, owner, name);
    if (!repo) return Promise.resolve({ response: notFound() });
    const render = new EntityRenderer(deps.world, deps.urls, deps.templates, {
      kind: 'anonymous',
      client: request.remoteAddress,
    });
    const diffOrPatch = (
      ref: string,
      build: (format: 'diff' | 'patch', id: string) => string | undefined,
    ): SimResponse => {
      const m = /^(.*)\.(diff|patch)$/.exec(ref);
      if (m?.[1] === undefined || m[2] === undefined) return notFound();
      const format = m[2] as 'diff' | 'patch';
      const body = build(format, m[1]);
      return body === undefined
        ? notFound()
        : text(200, body, 'text/plain; charset=utf-8', deps.clock);
    };
    let response: SimResponse;
    if (kind === undefined) {
      response = page(
        `${repo.owner}/${repo.name}`,
        `<h1>${escapeHtml(`${repo.owner}/${repo.name}`)}</h1><p>${escapeHtml(repo.description ?? '')}</p>`,
      );
    } else if (kind === 'pull' && rest !== undefined && more.length === 0) {
      if (/^\d+$/.test(rest)) {
        const issue = repo.issues.get(Number(rest));
        response =
          issue && repo.pulls.has(issue.number)
            ? page(issue.title, `<h1>${escapeHtml(issue.title)}</h1>`)
            : notFound();
      } else {
        response = diffOrPatch(rest, (format, id) => {
          const pull = repo.pulls.get(Number(id));
          if (!pull) return undefined;
          if (format === 'diff') return renderDiff(render.pullFiles(repo, pull));
          return renderPatch(deps.world.pullCommits(repo, pull).map((c) => toPatchCommit(deps, c)));
        });
      }
    } else if (kind === 'commit' && rest !== undefined && more.length === 0) {
      if (/\.(diff|patch)$/.test(rest)) {
        response = diffOrPatch(rest, (format, id) => {
          const commit = repo.commits.get(deps.world.resolveRef(repo, id) ?? '');
          if (!commit) return undefined;
          return format === 'diff'
            ? renderDiff(commit.changes)
            : renderPatch([toPatchCommit(deps, commit)]);
        });
      } else {
        const commit = repo.commits.get(deps.world.resolveRef(repo, rest) ?? '');
        response = commit
          ? page(commit.message, `<pre>${escapeHtml(commit.message)}</pre>`)
          : notFound();
      }
    } else if (kind === 'issues' && rest !== undefined && /^\d+$/.test(rest)) {
      const issue = repo.issues.get(Number(rest));
      response = issue ? page(issue.title, `<h1>${escapeHtml(issue.title)}</h1>`) : notFound();
    } else {
      response = notFound();
    }
    if (request.method === 'HEAD') response = { ...response, body: '' };
    return Promise.resolve({ response });
  }

  return { handle, injected: (_req, action) => injectedText(action, deps.clock) };
}

/** The raw-content host (raw.githubusercontent.com): `/{owner}/{repo}/{ref}/{path}`. */
export function createRawHost(deps: ContentHostDeps): SimHostHandler {
  const notFound = (): SimResponse =>
    text(404, '404: Not Found', 'text/plain; charset=utf-8', deps.clock);
  function handle(request: SimRequest): Promise<HostAnswer> {
    const [owner, name, ...rest] = segments(request.path);
    const repo = publicRepo(deps.world, owner, name);
    if (!repo || request.method !== 'GET') return Promise.resolve({ response: notFound() });
    const refParts = rest[0] === 'refs' ? 3 : 1;
    for (let n = refParts; n < rest.length; n++) {
      const ref = rest.slice(0, n).join('/');
      const sha = deps.world.resolveRef(repo, ref);
      const commit = sha === undefined ? undefined : repo.commits.get(sha);
      const content = commit?.files.get(rest.slice(n).join('/'));
      if (content !== undefined) {
        const response = text(200, content, 'text/plain; charset=utf-8', deps.clock);
        response.headers.etag = `"${sha ?? ''}"`;
        response.headers['cache-control'] = 'max-age=300';
        return Promise.resolve({ response });
      }
    }
    return Promise.resolve({ response: notFound() });
  }
  return { handle, injected: (_req, action) => injectedText(action, deps.clock) };
}

/**
 * The log host: serves a job's plain-text log at the signed, expiring URL the API's
 * job-logs route redirects to. A missing, altered or expired signature is 403.
 */
export function createLogHost(deps: ContentHostDeps): SimHostHandler {
  function handle(request: SimRequest): Promise<HostAnswer> {
    const query = new URLSearchParams(request.query);
    const verified = deps.logSigner.verify(request.path, query);
    if (!verified.ok) {
      const reason =
        verified.problem === 'expired' ? 'Signature has expired' : 'Signature not valid';
      const body = `<?xml version="1.0" encoding="utf-8"?><Error><Code>AuthenticationFailed</Code><Message>${reason}</Message></Error>`;
      return Promise.resolve({ response: text(403, body, 'application/xml', deps.clock) });
    }
    const [, owner, name, , jobId] = segments(request.path);
    const repo =
      owner === undefined || name === undefined ? undefined : deps.world.getRepo(owner, name);
    const job = repo?.jobs.get(Number(jobId));
    if (!job)
      return Promise.resolve({
        response: text(404, 'BlobNotFound', 'application/xml', deps.clock),
      });
    return Promise.resolve({
      response: text(200, job.log, 'text/plain; charset=utf-8', deps.clock),
    });
  }
  return { handle, injected: (_req, action) => injectedText(action, deps.clock) };
}
