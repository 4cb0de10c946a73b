import { createErrorBody, statusOf, type ErrorCode } from '@relay/protocol';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './app-env.js';
import { createRequestId } from './request-id.js';
import { createDiscoveryRoute, type DiscoveryOptions } from './routes/discovery-route.js';

/** Everything the app is built from; no module-level singletons. */
export interface AppDependencies {
  readonly discovery: DiscoveryOptions;
  /** Makes request ids; defaults to {@link createRequestId}. */
  readonly createRequestId?: () => string;
  /** Reports an unexpected failure (never sent to the client). */
  readonly onUnexpectedError?: (error: unknown, requestId: string) => void;
}

/** A relay error raised inside a route, mapped to its error body once, in `onError`. */
export class RelayHttpError extends Error {
  override readonly name = 'RelayHttpError';
  constructor(
    readonly code: Exclude<ErrorCode, 'fallback_local'>,
    message?: string,
  ) {
    super(message ?? code);
  }
}

/**
 * Builds the relay's Hono app. Every response carries `x-relay-request-id`; errors use the
 * DESIGN.md §3 body.
 */
export function createApp(deps: AppDependencies): Hono<AppEnv> {
  const makeId = deps.createRequestId ?? createRequestId;
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    const requestId = makeId();
    c.set('requestId', requestId);
    await next();
    c.res.headers.set('x-relay-request-id', requestId);
  });

  app.route('/', createDiscoveryRoute(deps.discovery));

  app.notFound((c) =>
    c.json(createErrorBody('not_found', { requestId: c.get('requestId') }), statusOf('not_found')),
  );

  app.onError((error, c) => {
    const requestId = c.get('requestId');
    if (error instanceof RelayHttpError) {
      const status = statusOf(error.code) as ContentfulStatusCode;
      return c.json(createErrorBody(error.code, { requestId }), status, {
        'x-relay-request-id': requestId,
      });
    }
    deps.onUnexpectedError?.(error, requestId);
    return c.json(createErrorBody('internal_error', { requestId }), 500, {
      'x-relay-request-id': requestId,
    });
  });

  return app;
}
