import {
  ERROR_CATALOGUE,
  FALLBACK_REASONS,
  statusOf,
  type ErrorCode,
  type FallbackReason,
} from '@relay/protocol';
import { z } from 'zod';
import { SERVER_VERSION } from '../version.js';
import {
  OPENAPI_COMPOSITE_SCHEMAS,
  OPENAPI_OPERATIONS,
  OPENAPI_SCHEMAS,
  RELAY_FALLBACK_REASONS,
  type OpenApiSchemaName,
  type OperationSecurity,
  type OperationSpec,
  type SuccessSpec,
} from './openapi-operations.js';

/** A JSON object of the document. */
export type JsonObject = Record<string, unknown>;

/** The OpenAPI 3.1 document of the relay's HTTP API. */
export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: JsonObject;
  readonly tags: readonly JsonObject[];
  /** Path (OpenAPI form, `{pool}`) → method (lowercase) → operation. */
  readonly paths: Record<string, Record<string, JsonObject>>;
  readonly components: {
    readonly schemas: Record<string, JsonObject>;
    readonly headers: Record<string, JsonObject>;
    readonly securitySchemes: Record<string, JsonObject>;
  };
}

/** The OpenAPI version of the document. */
export const OPENAPI_VERSION = '3.1.1';

const SCHEMA_REF = '#/components/schemas/';

const SECURITY_SCHEMES = {
  callerToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A caller token (`rly_` and 43 base64url characters) from POST /v1/login/forge-cli or POST /v1/admin/callers, with a grant on the pool.',
  },
  adminToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The admin token of the deployment (RELAY_ADMIN_TOKEN); with none configured every admin request answers 401.',
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The metrics scrape token of the deployment (RELAY_METRICS_TOKEN).',
  },
} as const;

const SECURITY: Record<OperationSecurity, readonly Record<string, readonly string[]>[]> = {
  none: [],
  caller: [{ callerToken: [] }],
  admin: [{ adminToken: [] }],
  metrics: [{ metricsToken: [] }],
};

const HEADERS = {
  RequestId: {
    description: 'The request id; an error body’s `request_id` carries the same value.',
    required: true,
    schema: { type: 'string', minLength: 1 },
  },
  WwwAuthenticate: {
    description: 'On every 401 `unauthorized`.',
    required: true,
    schema: { type: 'string', const: 'Bearer' },
  },
  CacheControlNoStore: {
    description: 'The answer must not be stored.',
    required: true,
    schema: { type: 'string', const: 'no-store' },
  },
} as const;

const TAGS = [
  { name: 'discovery', description: 'What a client reads first; no authentication.' },
  { name: 'callers', description: 'Caller tokens by login exchange.' },
  { name: 'admin', description: 'Provisioning, identities and the string-rewrite policy.' },
  { name: 'pools', description: 'What a caller may read about a pool it holds a grant on.' },
  { name: 'relay', description: 'The read relay.' },
  { name: 'operations', description: 'Operating the relay.' },
] as const;

/**
 * Converts a zod schema to a Schema Object with zod's own JSON Schema generator (draft 2020-12,
 * the dialect of OpenAPI 3.1). Sub-schemas zod puts in `$defs` (recursive ones, such as a JSON
 * value) become components of their own, named after their owner, so that every `$ref` resolves
 * within the document.
 */
function toSchemaObject(
  schema: z.ZodType,
  io: 'input' | 'output',
  owner: string,
  components: Record<string, JsonObject>,
): JsonObject {
  const generated = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    reused: 'inline',
    unrepresentable: 'throw',
  }) as JsonObject;
  const { $schema: _dialect, $defs, ...rest } = generated;
  const defs = ($defs ?? {}) as Record<string, JsonObject>;
  const renamed = new Map(
    Object.keys(defs).map((key) => [`#/$defs/${key}`, `${owner}_${key.replace(/^_+/, '')}`]),
  );
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value !== 'object' || value === null) return value;
    const out: JsonObject = {};
    for (const [key, inner] of Object.entries(value)) {
      const target = key === '$ref' && typeof inner === 'string' ? renamed.get(inner) : undefined;
      out[key] = target === undefined ? rewrite(inner) : `${SCHEMA_REF}${target}`;
    }
    return out;
  };
  for (const [key, def] of Object.entries(defs)) {
    const name = renamed.get(`#/$defs/${key}`);
    if (name !== undefined) components[name] = rewrite(def) as JsonObject;
  }
  return rewrite(rest) as JsonObject;
}

const ref = (name: OpenApiSchemaName): JsonObject => ({ $ref: `${SCHEMA_REF}${name}` });

const headerRef = (name: keyof typeof HEADERS): JsonObject => ({
  $ref: `#/components/headers/${name}`,
});

/** `/v1/pools/:pool/health` → `/v1/pools/{pool}/health`. */
export function toOpenApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

function responseHeaders(
  operation: OperationSpec,
  status: number,
  codes: readonly ErrorCode[] = [],
): JsonObject {
  const noStore =
    operation.noStore === 'every-answer' || (operation.noStore === 'success-only' && status < 300);
  return {
    'x-relay-request-id': headerRef('RequestId'),
    ...(codes.length > 0 && codes.every((code) => code === 'unauthorized')
      ? { 'WWW-Authenticate': headerRef('WwwAuthenticate') }
      : {}),
    ...(noStore ? { 'Cache-Control': headerRef('CacheControlNoStore') } : {}),
  };
}

function successResponse(operation: OperationSpec, success: SuccessSpec): JsonObject {
  const content =
    'schemaName' in success.body
      ? { 'application/json': { schema: ref(success.body.schemaName) } }
      : { [success.body.mediaType]: { schema: success.body.schema } };
  return {
    description: success.description,
    headers: responseHeaders(operation, success.status),
    content,
  };
}

/**
 * The error answer of one status: the catalogue's error body, narrowed to the codes this
 * operation answers with at that status (and, for 424, to its fallback reasons).
 */
function errorResponse(
  operation: OperationSpec,
  status: number,
  codes: readonly ErrorCode[],
  reasons: readonly FallbackReason[],
  components: Record<string, JsonObject>,
): JsonObject {
  const fallback = codes.includes('fallback_local');
  const narrowing = z.object({
    error: z.object({
      code: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
      reason: fallback
        ? z.enum(reasons as [FallbackReason, ...FallbackReason[]])
        : z.never().optional(),
    }),
  });
  const lines = codes.map((code) => `- \`${code}\`: ${ERROR_CATALOGUE[code].summary}`);
  if (fallback) lines.push(`  Reasons: ${reasons.map((reason) => `\`${reason}\``).join(', ')}.`);
  return {
    description: lines.join('\n'),
    headers: responseHeaders(operation, status, codes),
    content: {
      'application/json': {
        schema: {
          allOf: [
            ref('ErrorBody'),
            toSchemaObject(narrowing, 'input', 'ErrorNarrowing', components),
          ],
        },
      },
    },
  };
}

function toOperation(operation: OperationSpec, components: Record<string, JsonObject>): JsonObject {
  const responses: Record<string, JsonObject> = {};
  for (const success of operation.responses) {
    responses[String(success.status)] = successResponse(operation, success);
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of operation.errors) {
    const status = statusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = errorResponse(
      operation,
      status,
      codes,
      RELAY_FALLBACK_REASONS,
      components,
    );
  }
  const parameters = (operation.parameters ?? []).map((parameter) => ({
    name: parameter.name,
    in: parameter.in,
    required: parameter.in === 'path',
    description: parameter.description,
    schema: toSchemaObject(parameter.schema, 'input', `Parameter_${parameter.name}`, components),
  }));
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: operation.description,
    security: SECURITY[operation.security],
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(operation.requestBody === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref(operation.requestBody) } },
          },
        }),
    responses,
  };
}

/**
 * Builds the OpenAPI 3.1 document of the relay's HTTP API from {@link OPENAPI_OPERATIONS} and the
 * `@relay/protocol` zod schemas. It is the same for every deployment: no server URL, token,
 * organization or other configured value.
 *
 * @returns the document, a plain JSON value
 * @example
 * ```ts
 * const document = createOpenApiDocument();
 * document.paths['/v1/pools/{pool}/health']?.get;
 * ```
 */
export function createOpenApiDocument(): OpenApiDocument {
  const schemas: Record<string, JsonObject> = {};
  for (const [name, spec] of Object.entries(OPENAPI_SCHEMAS)) {
    schemas[name] = {
      ...toSchemaObject(spec.schema, spec.io, name, schemas),
      description: spec.description,
    };
  }
  for (const [name, spec] of Object.entries(OPENAPI_COMPOSITE_SCHEMAS)) {
    schemas[name] = { allOf: spec.allOf.map(ref), description: spec.description };
  }
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const operation of OPENAPI_OPERATIONS) {
    const path = toOpenApiPath(operation.path);
    paths[path] = { ...paths[path], [operation.method]: toOperation(operation, schemas) };
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Relay HTTP API',
      version: SERVER_VERSION,
      summary: 'A shared, cached, read-only relay for the forge’s REST API.',
      description: [
        'Every response carries `x-relay-request-id`. Every relay-produced error is the `ErrorBody`',
        '`{"error": {"code", "message", "reason" (424 only), "request_id"}}` with the HTTP status',
        'of its code; request bodies are `application/json` (415 otherwise, 413 past their bound).',
        'Fallback reasons of 424 `fallback_local`: ' +
          FALLBACK_REASONS.map((reason) => `\`${reason}\``).join(', ') +
          '.',
      ].join(' '),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    tags: TAGS,
    paths,
    components: { schemas, headers: HEADERS, securitySchemes: SECURITY_SCHEMES },
  };
}
