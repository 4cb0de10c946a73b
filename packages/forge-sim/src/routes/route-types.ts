import type { Principal } from '../auth/credential-registry.js';
import type { RateResource } from '../http/rate-limiter.js';
import type { EntityRenderer } from '../render/entity-renderer.js';
import type { ExampleTemplates } from '../render/example-templates.js';
import type { SimUrls } from '../render/sim-urls.js';
import type { ForgeWorld } from '../world/forge-world.js';
import type { RepoRecord } from '../world/world-records.js';

/** What a route handler answers; the API host turns it into an HTTP response. */
export type RouteOutcome =
  /** A JSON body. */
  | {
      readonly kind: 'json';
      readonly status?: number;
      readonly body: unknown;
      readonly lastModified?: number;
    }
  /** A list, paginated by the host (`wrap` builds `{total_count, items}`-style bodies). */
  | {
      readonly kind: 'list';
      readonly items: readonly unknown[];
      readonly wrap?: (page: readonly unknown[], total: number) => unknown;
      readonly lastModified?: number;
    }
  /** A non-JSON body (diff, patch, raw). */
  | {
      readonly kind: 'text';
      readonly status?: number;
      readonly body: string;
      readonly contentType: string;
    }
  /** A bodiless answer (204, 202, 302 with headers). */
  | { readonly kind: 'empty'; readonly status: number; readonly headers?: Record<string, string> }
  /** A GitHub error body `{message, documentation_url, status}`. */
  | { readonly kind: 'error'; readonly status: number; readonly message: string };

/** Everything a handler may read. */
export interface RouteContext {
  readonly params: Record<string, string>;
  readonly url: URL;
  readonly accept: string;
  readonly principal: Principal;
  readonly world: ForgeWorld;
  readonly render: EntityRenderer;
  readonly templates: ExampleTemplates;
  readonly urls: SimUrls;
  readonly now: number;
  /** The repository of a repository route (already checked visible to the caller). */
  readonly repo: RepoRecord;
  /** A signed, expiring URL on the log host for a job's log. */
  readonly signLogUrl: (repo: RepoRecord, jobId: number) => string;
  /** How long stats take to compute after the first request (ms). */
  readonly statsDelayMs: number;
}

/** One API route. */
export interface RouteDef {
  /** GitHub path template (`{x}` one segment, `{x+}` several). */
  readonly template: string;
  /** Rate-limit bucket charged; `none` for /rate_limit. Default: core. */
  readonly resource?: RateResource | 'none';
  /** Requests without credentials get 401 "Requires authentication". */
  readonly requiresAuth?: boolean;
  readonly handler: (ctx: RouteContext) => RouteOutcome;
}

/** Shorthand for a 404 outcome. */
export const NOT_FOUND: RouteOutcome = { kind: 'error', status: 404, message: 'Not Found' };

/** Shorthand for a JSON outcome. */
export function json(body: unknown, lastModified?: number): RouteOutcome {
  return lastModified === undefined ? { kind: 'json', body } : { kind: 'json', body, lastModified };
}

/** Shorthand for a list outcome. */
export function list(
  items: readonly unknown[],
  wrap?: (page: readonly unknown[], total: number) => unknown,
): RouteOutcome {
  return wrap === undefined ? { kind: 'list', items } : { kind: 'list', items, wrap };
}

/** Parses a positive integer path parameter (`undefined` when not one). */
export function intParam(ctx: RouteContext, name: string): number | undefined {
  const raw = ctx.params[name] ?? '';
  return /^\d+$/.test(raw) ? Number(raw) : undefined;
}

/** A wrapper for `{total_count, <key>: [...]}` list bodies. */
export function wrapAs(key: string): (page: readonly unknown[], total: number) => unknown {
  return (page, total) => ({ total_count: total, [key]: page });
}
