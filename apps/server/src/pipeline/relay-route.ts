import { createErrorBody } from '@relay/protocol';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { readJsonBody } from '../http/json-body-reader.js';
import { RelayHttpError } from '../relay-http-error.js';
import { serializeEnvelope } from './envelope-builder.js';
import type { RelayPipeline } from './relay-pipeline.js';

/** The path of the relay endpoint. */
export const RELAY_REQUEST_PATH = '/v1/forge/request';

/** Largest relay request body read, bytes. */
export const RELAY_REQUEST_BODY_MAX_BYTES = 64 * 1024;

/**
 * The Hono route of POST /v1/forge/request: reads the JSON body, runs the pipeline and
 * translates its outcome. An envelope is HTTP 200 (the upstream status is inside it); a 424
 * carries its `reason`; every other failure is raised as a {@link RelayHttpError}, mapped once by
 * the app's `onError`. Every response is `Cache-Control: no-store`.
 *
 * @param pipeline - the relay pipeline
 */
export function createRelayRoute(pipeline: RelayPipeline): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  route.post(RELAY_REQUEST_PATH, async (c) => {
    c.header('cache-control', 'no-store');
    const body = await readJsonBody(c, RELAY_REQUEST_BODY_MAX_BYTES);
    const requestId = c.get('requestId');
    const outcome = await pipeline({
      requestId,
      authorization: c.req.header('authorization'),
      body,
    });
    if (outcome.kind === 'envelope') {
      return c.body(serializeEnvelope(outcome.envelope, outcome.answerSource), 200, {
        'content-type': 'application/json',
      });
    }
    const { failure } = outcome;
    if (failure.kind === 'fallback') {
      return c.json(createErrorBody('fallback_local', { requestId, reason: failure.reason }), 424);
    }
    throw new RelayHttpError(failure.code);
  });
  return route;
}
