import { Validator } from '@seriousme/openapi-schema-validator';
import { ERROR_CODES, FALLBACK_REASONS } from '@relay/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/create-app.js';
import { createRelayMetrics } from '../src/metrics/relay-metrics.js';
import {
  createOpenApiDocument,
  toOpenApiPath,
  type OpenApiDocument,
} from '../src/openapi/openapi-document.js';
import { OPENAPI_OPERATIONS, OPENAPI_PATH } from '../src/openapi/openapi-operations.js';
import { createTestHarness, type TestHarness } from '../src/__fixtures__/test-harness.js';
import { createAjv, createResponseChecker } from './openapi-response-checker.js';

/**
 * The OpenAPI document of the relay's HTTP API: valid OpenAPI 3.1 for a maintained validator,
 * every schema valid JSON Schema 2020-12, every route of a fully configured app documented (and
 * nothing else), served at GET /openapi.json, and free of any configured value.
 */
const METRICS_TOKEN = 'metrics-token-for-openapi-tests-0123';
let harness: TestHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/**
 * An app with every surface: services, the relay endpoint (a stub pipeline), /metrics and the
 * dashboard.
 */
async function createFullApp() {
  harness = await createTestHarness();
  return createApp({
    discovery: {
      publicUrl: () => 'https://relay.deployment.example',
      defaultPool: 'deployment-pool',
      allowedOrg: 'deployment-org',
      minCliVersion: '0.1.0',
    },
    services: harness.services,
    relay: () =>
      Promise.resolve({
        kind: 'failure',
        failure: { kind: 'fallback', code: 'fallback_local', reason: 'route_denied' },
      }),
    metrics: createRelayMetrics(),
    metricsToken: METRICS_TOKEN,
    dashboard: new Map([
      [
        'index.html',
        {
          body: new TextEncoder().encode('<!doctype html>'),
          contentType: 'text/html',
          immutable: false,
        },
      ],
    ]),
  });
}

/**
 * Routes of the app that are not the HTTP API and so not in the document: the stats dashboard's
 * browser files (a redirect to `/dashboard/` and the static assets under it).
 */
const NOT_API_ROUTES = ['get /dashboard', 'get /dashboard/*'];

/** Every schema object in the document: components and the inline ones of operations. */
function collectSchemas(document: OpenApiDocument): [string, unknown][] {
  const found: [string, unknown][] = Object.entries(document.components.schemas).map(
    ([name, schema]) => [`#/components/schemas/${name}`, schema],
  );
  const walk = (value: unknown, at: string) => {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      const pointer = `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      if (key === 'schema') found.push([pointer, inner]);
      else walk(inner, pointer);
    }
  };
  walk(document.paths, '#/paths');
  walk(document.components.headers, '#/components/headers');
  return found;
}

describe('the OpenAPI document', () => {
  const document = createOpenApiDocument();

  it('is a valid OpenAPI 3.1 document for @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(
      structuredClone(document) as unknown as Record<string, unknown>,
    );
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('holds schemas that are valid JSON Schema 2020-12, every $ref resolving', () => {
    const ajv = createAjv();
    ajv.addSchema(document, 'document.json');
    const schemas = collectSchemas(document);
    expect(schemas.length).toBeGreaterThan(40);
    for (const [pointer, schema] of schemas) {
      expect(ajv.validateSchema(schema as Record<string, unknown>), pointer).toBe(true);
      // Strict compilation: unknown keywords, formats and unresolvable references throw.
      expect(() => ajv.compile({ $ref: `document.json${pointer}` }), pointer).not.toThrow();
    }
  });

  it('documents every route of a fully configured app, and no other', async () => {
    const app = await createFullApp();
    const all = app.routes.map((route) => `${route.method.toLowerCase()} ${route.path}`);
    expect(all).toEqual(expect.arrayContaining(NOT_API_ROUTES));
    const routes = new Set(
      app.routes
        .filter((route) => route.method !== 'ALL')
        .filter((route) => !NOT_API_ROUTES.includes(`${route.method.toLowerCase()} ${route.path}`))
        .map((route) => `${route.method.toLowerCase()} ${toOpenApiPath(route.path)}`),
    );
    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method} ${path}`),
      ),
    );
    expect([...routes].filter((route) => !documented.has(route))).toEqual([]);
    expect([...documented].filter((route) => !routes.has(route))).toEqual([]);
  });

  it('gives every operation an id, its request-id header and the 500 body', () => {
    const ids = OPENAPI_OPERATIONS.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const responses = operation.responses as Record<string, { headers: object }>;
        expect(Object.keys(responses), `${method} ${path}`).toContain('500');
        for (const response of Object.values(responses)) {
          expect(response.headers).toHaveProperty('x-relay-request-id');
        }
      }
    }
  });

  it('documents every code of the error catalogue that the server answers, and every fallback reason', () => {
    const text = JSON.stringify(document);
    const documented = ERROR_CODES.filter((code) =>
      OPENAPI_OPERATIONS.some((operation) => operation.errors.includes(code)),
    );
    // method_not_allowed is catalogued, but no route answers it (an unknown method is 404).
    expect(ERROR_CODES.filter((code) => !documented.includes(code))).toEqual([
      'method_not_allowed',
    ]);
    for (const reason of FALLBACK_REASONS) expect(text).toContain(`"${reason}"`);
  });

  it('is served at GET /openapi.json without authentication, and holds no configured value', async () => {
    const app = await createFullApp();
    const response = await app.request(OPENAPI_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-relay-request-id')).not.toBeNull();
    const text = await response.text();
    expect(JSON.parse(text)).toEqual(document);
    for (const configured of [
      'relay.deployment.example',
      'deployment-pool',
      'deployment-org',
      METRICS_TOKEN,
      'admin-token-for-tests',
      'octo-org',
    ]) {
      expect(text).not.toContain(configured);
    }
    expect(text).not.toMatch(/rly_[A-Za-z0-9_-]{43}/);
    expect(text).not.toMatch(/"servers"/);
  });

  it('gives the contract checker teeth: it refuses what departs from the document', () => {
    const checker = createResponseChecker(document);
    const json = (status: number, body: unknown, extra: Record<string, string> = {}) => ({
      status,
      headers: new Headers({
        'content-type': 'application/json',
        'x-relay-request-id': 'req-1',
        ...extra,
      }),
      text: JSON.stringify(body),
    });
    const error = (code: string, reason?: string) => ({
      error: {
        code,
        message: 'm',
        request_id: 'req-1',
        ...(reason === undefined ? {} : { reason }),
      },
    });
    const health = '/v1/pools/{pool}/health';
    const ok = {
      pool: 'team',
      identities_total: 1,
      identities_healthy: 1,
      identities_cooling_down: 0,
      string_rewrite_revision: 1,
      pool_policy: null,
    };
    expect(checker.check({ method: 'GET', path: health, ...json(200, ok) })).toEqual([]);
    expect(
      checker.check({ method: 'GET', path: health, ...json(200, { ...ok, secret: 'x' }) }),
    ).toHaveLength(1);
    expect(
      checker.check({ method: 'GET', path: health, ...json(409, error('identity_conflict')) }),
    ).toEqual([`GET ${health} 409: status not documented`]);
    // A code the operation does not answer at that status.
    expect(
      checker.check({ method: 'GET', path: health, ...json(403, error('method_denied')) }),
    ).toHaveLength(1);
    // 401 without WWW-Authenticate.
    expect(
      checker.check({ method: 'GET', path: health, ...json(401, error('unauthorized')) }),
    ).toEqual([`GET ${health} 401: header WWW-Authenticate missing`]);
    // A reason outside 424, and a 424 without one.
    const relay = '/v1/forge/request';
    const noStore = { 'cache-control': 'no-store' };
    expect(
      checker.check({
        method: 'POST',
        path: relay,
        ...json(400, error('invalid_path', 'route_denied'), noStore),
      }),
    ).toHaveLength(1);
    expect(
      checker.check({
        method: 'POST',
        path: relay,
        ...json(424, error('fallback_local'), noStore),
      }),
    ).toHaveLength(1);
    expect(
      checker.check({
        method: 'POST',
        path: relay,
        ...json(424, error('fallback_local', 'route_denied'), noStore),
      }),
    ).toEqual([]);
    // An envelope whose body does not match its encoding.
    const envelope = {
      status: 200,
      headers: {},
      body: 'not base64!',
      body_encoding: 'base64',
      identity: null,
      relay: {
        pool: 'team',
        request_id: 'req-1',
        cacheable: true,
        cache: 'miss',
        stale_ok: false,
        route_kind: 'repo_view',
      },
    };
    expect(
      checker.check({ method: 'POST', path: relay, ...json(200, envelope, noStore) }),
    ).toHaveLength(1);
    expect(
      checker.check({
        method: 'POST',
        path: relay,
        ...json(200, { ...envelope, body: 'AAE=' }, noStore),
      }),
    ).toEqual([]);
    expect(checker.check({ method: 'DELETE', path: health, ...json(200, ok) })).toEqual([
      `DELETE ${health} 200: operation not documented`,
    ]);
  });
});
