import { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { createOpenApiDocument } from './openapi-document.js';
import { OPENAPI_PATH } from './openapi-operations.js';

/**
 * GET /openapi.json: the OpenAPI 3.1 document of the relay's HTTP API, without authentication
 * (it holds no secret and no deployment-specific value). Built on the first request and kept.
 */
export function createOpenApiRoute(): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  let json: string | undefined;
  route.get(OPENAPI_PATH, (c) => {
    json ??= JSON.stringify(createOpenApiDocument());
    return c.body(json, 200, { 'content-type': 'application/json' });
  });
  return route;
}
