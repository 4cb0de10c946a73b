import { createHash, randomUUID } from 'node:crypto';
import { canRead } from '../auth/access-policy.js';
import type { CredentialRegistry, Principal } from '../auth/credential-registry.js';
import type { FaultAction } from '../http/fault-injector.js';
import { paginate } from '../http/pagination.js';
import { PathRouter } from '../http/path-router.js';
import {
  RATE_RESOURCES,
  rateHeaders,
  type RateLimiter,
  type RateResource,
} from '../http/rate-limiter.js';
import { EntityRenderer } from '../render/entity-renderer.js';
import type { ExampleTemplates } from '../render/example-templates.js';
import type { SimUrls } from '../render/sim-urls.js';
import { ACCOUNT_ROUTES } from '../routes/account-routes.js';
import { ACTIONS_RELEASE_ROUTES } from '../routes/actions-release-routes.js';
import { COMMIT_ROUTES } from '../routes/commit-routes.js';
import { META_ROUTES } from '../routes/meta-routes.js';
import { PULL_ISSUE_ROUTES } from '../routes/pull-issue-routes.js';
import { REPO_ROUTES } from '../routes/repo-routes.js';
import type { RouteContext, RouteDef, RouteOutcome } from '../routes/route-types.js';
import { SEARCH_ROUTES } from '../routes/search-routes.js';
import type { ForgeWorld } from '../world/forge-world.js';
import { toHttpDate, toIsoSeconds, type SimClock } from '../world/sim-clock.js';
import type { RepoRecord } from '../world/world-records.js';
import {
  githubError,
  jsonResponse,
  type HostAnswer,
  type SimHostHandler,
  type SimRequest,
  type SimResponse,
} from './host-types.js';
import type { LogSigner } from './log-signer.js';

/** Every API route the simulator serves, in match order. */
export const API_ROUTES: readonly RouteDef[] = [
  ...META_ROUTES,
  ...ACCOUNT_ROUTES,
  ...SEARCH_ROUTES,
  ...PULL_ISSUE_ROUTES,
  ...ACTIONS_RELEASE_ROUTES,
  ...COMMIT_ROUTES,
  ...REPO_ROUTES,
];

/** What the API host is built from. */
export interface ApiHostDeps {
  readonly world: ForgeWorld;
  readonly credentials: CredentialRegistry;
  readonly rateLimiter: RateLimiter;
  readonly urls: SimUrls;
  readonly templates: ExampleTemplates;
  readonly clock: SimClock;
  readonly logSigner: LogSigner;
  readonly statsDelayMs: number;
}

const API_VERSION = '2022-11-28';

function etagOf(principal: Principal, body: string | Uint8Array): string {
  const salt = principal.kind === 'anonymous' ? '' : principal.id;
  return `W/"${createHash('sha256').update(salt).update('\0').update(body).digest('hex').slice(0, 64)}"`;
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v.replace(/^W\//, '') === bare;
  });
}

/**
 * The API host (api.github.com): credentials, visibility, primary rate limits,
 * pagination, ETag / Last-Modified with 304 answers, the app token exchange, `/user`,
 * org memberships and every route of {@link API_ROUTES}.
 */
export function createApiHost(deps: ApiHostDeps): SimHostHandler {
  const router = new PathRouter<RouteDef>();
  for (const route of API_ROUTES) router.add(route.template, route);

  const baseHeaders = (principal: Principal | undefined): Record<string, string> => ({
    server: 'github.com',
    date: toHttpDate(deps.clock.now()),
    'x-github-api-version-selected': API_VERSION,
    'x-github-media-type': 'github.v3; format=json',
    'x-github-request-id': randomUUID().toUpperCase().slice(0, 23),
    vary: 'Accept, Authorization, Cookie, X-GitHub-OTP',
    'cache-control':
      principal === undefined || principal.kind === 'anonymous'
        ? 'public, max-age=60, s-maxage=60'
        : 'private, max-age=60, s-maxage=60',
    ...(principal?.kind === 'pat'
      ? { 'x-oauth-scopes': principal.scopes.join(', '), 'x-accepted-oauth-scopes': 'repo' }
      : {}),
  });

  async function appTokenExchange(
    request: SimRequest,
    installationId: number,
  ): Promise<SimResponse> {
    const auth = request.headers.authorization ?? '';
    const jwt = /^bearer\s+(\S+)$/i.exec(auth)?.[1];
    if (jwt === undefined) return githubError(401, 'A JSON web token could not be decoded');
    const verified = await deps.credentials.verifyAppJwt(jwt);
    if (!verified.ok) {
      const message =
        verified.problem === 'expired'
          ? "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires"
          : verified.problem === 'too_long'
            ? "'Expiration time' claim ('exp') is too far in the future"
            : 'A JSON web token could not be decoded';
      return githubError(401, message, baseHeaders(undefined));
    }
    const installation = deps.credentials.getInstallation(installationId);
    if (installation?.appId !== verified.app.id)
      return githubError(404, 'Not Found', baseHeaders(undefined));
    if (installation.suspended)
      return githubError(403, 'This installation has been suspended', baseHeaders(undefined));
    const issued = deps.credentials.issueInstallationToken(installationId);
    return jsonResponse(
      201,
      {
        token: issued.token,
        expires_at: toIsoSeconds(issued.expiresAt),
        permissions: {
          metadata: 'read',
          contents: 'read',
          pull_requests: 'read',
          issues: 'read',
          actions: 'read',
          checks: 'read',
          statuses: 'read',
        },
        repository_selection: installation.repositories === 'all' ? 'all' : 'selected',
      },
      baseHeaders(undefined),
    );
  }

  function rateLimitBody(principal: Principal): unknown {
    const resources = Object.fromEntries(
      RATE_RESOURCES.map((r) => {
        const s = deps.rateLimiter.peek(principal, r);
        return [r, { limit: s.limit, used: s.used, remaining: s.remaining, reset: s.reset }];
      }),
    );
    const core = deps.rateLimiter.peek(principal, 'core');
    return {
      resources,
      rate: { limit: core.limit, used: core.used, remaining: core.remaining, reset: core.reset },
    };
  }

  /** Special routes answered before the route table (they need the principal itself). */
  function special(
    path: string,
    principal: Principal,
    render: EntityRenderer,
  ): RouteOutcome | undefined {
    if (path === '/user') {
      if (principal.kind === 'anonymous')
        return { kind: 'error', status: 401, message: 'Requires authentication' };
      if (principal.kind !== 'pat')
        return { kind: 'error', status: 403, message: 'Resource not accessible by integration' };
      const account = deps.world.getUser(principal.login);
      return account
        ? { kind: 'json', body: render.authenticatedUser(account) }
        : { kind: 'error', status: 404, message: 'Not Found' };
    }
    const membership = /^\/user\/memberships\/orgs\/([^/]+)$/.exec(path);
    if (membership?.[1] !== undefined) {
      if (principal.kind === 'anonymous')
        return { kind: 'error', status: 401, message: 'Requires authentication' };
      if (principal.kind !== 'pat')
        return { kind: 'error', status: 403, message: 'Resource not accessible by integration' };
      const org = deps.world.getOrg(decodeURIComponent(membership[1]));
      const m = org?.members.get(principal.login.toLowerCase());
      if (!org || !m) return { kind: 'error', status: 404, message: 'Not Found' };
      return {
        kind: 'json',
        body: {
          url: `${deps.urls.api}/orgs/${org.login}/memberships/${principal.login}`,
          state: 'active',
          role: m.role,
          organization_url: `${deps.urls.api}/orgs/${org.login}`,
          organization: render.orgSummary(org),
          user: render.user(principal.login),
        },
      };
    }
    return undefined;
  }

  function toResponse(
    outcome: RouteOutcome,
    url: URL,
    principal: Principal,
  ): { response: SimResponse; lastModified?: number } {
    const headers = baseHeaders(principal);
    switch (outcome.kind) {
      case 'json': {
        const response = jsonResponse(outcome.status ?? 200, outcome.body, headers);
        return outcome.lastModified === undefined
          ? { response }
          : { response, lastModified: outcome.lastModified };
      }
      case 'list': {
        const page = paginate(outcome.items, url);
        const body = outcome.wrap ? outcome.wrap(page.items, page.total) : page.items;
        const response = jsonResponse(
          200,
          body,
          page.link === undefined ? headers : { ...headers, link: page.link },
        );
        return outcome.lastModified === undefined
          ? { response }
          : { response, lastModified: outcome.lastModified };
      }
      case 'text':
        return {
          response: {
            status: outcome.status ?? 200,
            headers: { ...headers, 'content-type': outcome.contentType },
            body: outcome.body,
          },
        };
      case 'empty':
        return {
          response: {
            status: outcome.status,
            headers: { ...headers, ...outcome.headers },
            body: '',
          },
        };
      case 'error':
        return { response: githubError(outcome.status, outcome.message, headers) };
    }
  }

  async function handle(request: SimRequest): Promise<HostAnswer> {
    const url = new URL(
      `${request.path}${request.query === '' ? '' : `?${request.query}`}`,
      `${deps.urls.api}/`,
    );
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;

    const exchange = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path);
    if (exchange?.[1] !== undefined) {
      if (request.method !== 'POST') return { response: githubError(404, 'Not Found') };
      return { response: await appTokenExchange(request, Number(exchange[1])) };
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return { response: githubError(404, 'Not Found', baseHeaders(undefined)) };
    }

    const resolved = deps.credentials.resolve(request.headers.authorization, request.remoteAddress);
    if (!resolved.ok)
      return { response: githubError(401, 'Bad credentials', baseHeaders(undefined)) };
    const principal = resolved.principal;
    const render = new EntityRenderer(deps.world, deps.urls, deps.templates, principal);

    if (path === '/rate_limit') {
      const core = deps.rateLimiter.peek(principal, 'core');
      return {
        response: jsonResponse(200, rateLimitBody(principal), {
          ...baseHeaders(principal),
          ...rateHeaders(core),
        }),
      };
    }

    const match = router.match(path);
    const resource: RateResource =
      match?.value.resource === undefined || match.value.resource === 'none'
        ? 'core'
        : match.value.resource;

    const before = deps.rateLimiter.peek(principal, resource);
    if (before.remaining === 0) {
      const who =
        principal.kind === 'anonymous'
          ? `API rate limit exceeded for ${principal.client}.`
          : `API rate limit exceeded for ${principal.kind === 'pat' ? 'user' : 'installation'} ID ${principal.kind === 'pat' ? String(deps.world.getUser(principal.login)?.id ?? 0) : principal.kind === 'installation' ? String(principal.installationId) : '0'}.`;
      return {
        response: githubError(403, who, { ...baseHeaders(principal), ...rateHeaders(before) }),
        rateResource: resource,
      };
    }

    let outcome = special(path, principal, render);
    let repo: RepoRecord | undefined;
    if (outcome === undefined) {
      if (!match) {
        outcome = { kind: 'error', status: 404, message: 'Not Found' };
      } else if (match.value.requiresAuth === true && principal.kind === 'anonymous') {
        outcome = { kind: 'error', status: 401, message: 'Requires authentication' };
      } else {
        const owner = match.params.owner;
        const name = match.params.repo;
        if (owner !== undefined && name !== undefined) {
          repo = deps.world.getRepo(owner, name);
          if (!repo || !canRead(deps.world, principal, repo))
            outcome = { kind: 'error', status: 404, message: 'Not Found' };
        }
        if (outcome === undefined) {
          const ctx: RouteContext = {
            params: match.params,
            url,
            accept: request.headers.accept ?? 'application/vnd.github+json',
            principal,
            world: deps.world,
            render,
            templates: deps.templates,
            urls: deps.urls,
            now: deps.clock.now(),
            repo: repo ?? (undefined as unknown as RepoRecord),
            signLogUrl: (r, jobId) =>
              `${deps.urls.log}${deps.logSigner.sign(`/logs/${r.owner}/${r.name}/jobs/${jobId}`)}`,
            statsDelayMs: deps.statsDelayMs,
          };
          outcome = match.value.handler(ctx);
        }
      }
    }

    const built = toResponse(outcome, url, principal);
    let response = built.response;
    if (response.status === 200) {
      const etag = etagOf(principal, response.body);
      const headers: Record<string, string> = { ...response.headers, etag };
      if (built.lastModified !== undefined)
        headers['last-modified'] = toHttpDate(built.lastModified);
      const ims = request.headers['if-modified-since'];
      const notModified =
        request.headers['if-none-match'] !== undefined
          ? matchesEtag(request.headers['if-none-match'], etag)
          : ims !== undefined &&
            built.lastModified !== undefined &&
            Math.floor(built.lastModified / 1000) <= Math.floor(Date.parse(ims) / 1000);
      if (notModified) {
        const { 'content-type': _ct, ...rest } = headers;
        response = { status: 304, headers: rest, body: '' };
      } else {
        response = { ...response, headers };
      }
    }
    const free =
      match?.value.resource === 'none' ||
      (response.status === 304 && principal.kind !== 'anonymous');
    const after = free
      ? deps.rateLimiter.peek(principal, resource)
      : deps.rateLimiter.charge(principal, resource);
    response = { ...response, headers: { ...response.headers, ...rateHeaders(after) } };
    if (request.method === 'HEAD') response = { ...response, body: '' };
    return { response, rateResource: resource };
  }

  function injected(
    request: SimRequest,
    action: Extract<FaultAction, { kind: 'status' | 'secondary_limit' }>,
  ): HostAnswer {
    const resolved = deps.credentials.resolve(request.headers.authorization, request.remoteAddress);
    const principal = resolved.ok ? resolved.principal : undefined;
    const state = principal ? deps.rateLimiter.peek(principal, 'core') : undefined;
    const rate = state ? rateHeaders(state) : {};
    if (action.kind === 'secondary_limit') {
      const status = action.status ?? 403;
      return {
        response: githubError(
          status,
          'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
          { ...baseHeaders(principal), ...rate, 'retry-after': String(action.retryAfterS ?? 60) },
        ),
        rateResource: 'core',
      };
    }
    const body =
      action.body === undefined
        ? {
            message: `Simulated ${action.status}`,
            documentation_url: 'https://docs.github.com/rest',
          }
        : action.body;
    const response = jsonResponse(action.status, body, {
      ...baseHeaders(principal),
      ...rate,
      ...action.headers,
    });
    return {
      response: action.bodyText === undefined ? response : { ...response, body: action.bodyText },
    };
  }

  return { handle, injected };
}
