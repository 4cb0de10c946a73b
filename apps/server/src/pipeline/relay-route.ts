import { createErrorBody } from '@relay/protocol';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { readJsonBody, requestBodyCap } from '../http/json-body-reader.js';
import { RelayHttpError } from '../relay-http-error.js';
import { serializeEnvelope } from './envelope-builder.js';
import type { PipelineCaller, RelayPipeline, RelayPipelineDeps } from './relay-pipeline.js';

/** The path of the relay endpoint. */
export const RELAY_REQUEST_PATH = '/v1/forge/request';

/** Options of {@link createRelayRoute}. */
export interface RelayRouteOptions {
  /**
   * Authenticates the bearer token before the body is read (the pipeline's own `authenticate`):
   * a request without a valid caller token answers 401 `unauthorized` at once, its body never
   * read nor waited for. Without it, the pipeline authenticates after parsing the body.
   */
  readonly authenticate?: RelayPipelineDeps['authenticate'];
  /** The largest body read, bytes. Default: the app's cap (RELAY_MAX_REQUEST_BYTES, 16 KiB). */
  readonly maxBodyBytes?: number;
}

/**
 * The Hono route of POST /v1/forge/request: authenticates the caller (with
 * `options.authenticate`), reads the JSON body, runs the pipeline and translates its outcome.
 * An envelope is HTTP 200 (the upstream status is inside it); a 424 carries its `reason`; every
 * other failure is raised as a {@link RelayHttpError}, mapped once by the app's `onError`. Every
 * response is `Cache-Control: no-store`.
 *
 * @param pipeline - the relay pipeline
 * @param options - early authentication, body cap
 */
export function createRelayRoute(
  pipeline: RelayPipeline,
  options: RelayRouteOptions = {},
): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  route.post(RELAY_REQUEST_PATH, async (c) => {
    c.header('cache-control', 'no-store');
    const authorization = c.req.header('authorization');
    let caller: PipelineCaller | undefined;
    if (options.authenticate !== undefined) {
      caller = await options.authenticate(authorization);
      if (caller === undefined) throw new RelayHttpError('unauthorized');
    }
    const trace = c.get('trace');
    if (trace !== undefined && caller !== undefined) trace.callerId = caller.callerId;
    const body = await readJsonBody(c, options.maxBodyBytes ?? requestBodyCap(c));
    const requestId = c.get('requestId');
    const outcome = await pipeline({
      requestId,
      authorization,
      ...(caller === undefined ? {} : { caller }),
      body,
    });
    if (outcome.kind === 'envelope') {
      return c.body(
        serializeEnvelope(outcome.envelope, outcome.answerSource, outcome.bodySource),
        200,
        {
          'content-type': 'application/json',
        },
      );
    }
    const { failure } = outcome;
    if (failure.kind === 'fallback') {
      if (trace !== undefined) {
        trace.errorCode = failure.code;
        trace.reason = failure.reason;
      }
      return c.json(createErrorBody('fallback_local', { requestId, reason: failure.reason }), 424);
    }
    throw new RelayHttpError(failure.code, failure.message);
  });
  return route;
}
