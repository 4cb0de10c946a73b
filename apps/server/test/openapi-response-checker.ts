import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from '../src/openapi/openapi-document.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** The id the document is registered under in Ajv. */
const DOCUMENT_ID = 'relay-openapi.json';

/** One real exchange to check against the document. */
export interface ObservedExchange {
  /** The method, lowercase or not. */
  readonly method: string;
  /** The documented path template (`/v1/pools/{pool}/health`). */
  readonly path: string;
  /** The JSON request body sent, if any. */
  readonly requestBody?: unknown;
  readonly status: number;
  readonly headers: Headers;
  /** The raw response body. */
  readonly text: string;
}

/** Checks real requests and answers against the OpenAPI document with Ajv (JSON Schema 2020-12). */
export interface ResponseChecker {
  /**
   * Every way `exchange` departs from the document: an undocumented path, method or status, a
   * media type it does not list, a body its schema refuses, a required header missing or wrong,
   * or a request body its request schema refuses. Empty when it conforms.
   */
  check(exchange: ObservedExchange): string[];
  /** Each `METHOD path status` checked so far. */
  readonly covered: ReadonlySet<string>;
}

const escapePointer = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

/** An Ajv 2020-12 instance with the formats zod emits. */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
  addFormats(ajv);
  // zod writes `format: base64` beside its pattern and `contentEncoding`; the pattern checks it.
  ajv.addFormat('base64', true);
  // The top-level members of an OpenAPI document and of its objects, which are not JSON Schema
  // keywords: Ajv only compiles the schemas the checker points into.
  ajv.addVocabulary(['openapi', 'info', 'tags', 'paths', 'components']);
  return ajv;
}

/**
 * Builds a {@link ResponseChecker} for `document`.
 *
 * @param document - the OpenAPI document
 */
export function createResponseChecker(document: OpenApiDocument): ResponseChecker {
  const ajv = createAjv();
  ajv.addSchema(document, DOCUMENT_ID);
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string[]): ValidateFunction => {
    const key = pointer.map(escapePointer).join('/');
    let validate = compiled.get(key);
    if (validate === undefined) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/${key}` });
      compiled.set(key, validate);
    }
    return validate;
  };
  const covered = new Set<string>();

  return {
    covered,
    check(exchange) {
      const method = exchange.method.toLowerCase();
      const problems: string[] = [];
      const operation = document.paths[exchange.path]?.[method] as
        | {
            requestBody?: { content: Record<string, unknown> };
            responses: Record<
              string,
              {
                headers?: Record<string, { $ref: string }>;
                content?: Record<string, unknown>;
              }
            >;
          }
        | undefined;
      const where = `${method.toUpperCase()} ${exchange.path} ${String(exchange.status)}`;
      if (operation === undefined) return [`${where}: operation not documented`];
      const response = operation.responses[String(exchange.status)];
      if (response === undefined) return [`${where}: status not documented`];
      covered.add(where);

      if (exchange.requestBody !== undefined && exchange.status < 300) {
        const validate = validatorAt([
          'paths',
          exchange.path,
          method,
          'requestBody',
          'content',
          'application/json',
          'schema',
        ]);
        if (!validate(exchange.requestBody)) {
          problems.push(`${where}: request body refused: ${ajv.errorsText(validate.errors)}`);
        }
      }

      for (const [name, reference] of Object.entries(response.headers ?? {})) {
        const header = document.components.headers[reference.$ref.split('/').at(-1) ?? ''] as
          { required?: boolean; schema: Record<string, unknown> } | undefined;
        const value = exchange.headers.get(name);
        if (value === null) {
          if (header?.required === true) problems.push(`${where}: header ${name} missing`);
          continue;
        }
        const validate = validatorAt([
          'components',
          'headers',
          reference.$ref.split('/').at(-1) ?? '',
          'schema',
        ]);
        if (!validate(value))
          problems.push(`${where}: header ${name}: ${ajv.errorsText(validate.errors)}`);
      }

      const mediaType = (exchange.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
      if (response.content === undefined) {
        if (exchange.text !== '') problems.push(`${where}: a body where none is documented`);
        return problems;
      }
      if (!(mediaType in response.content)) {
        problems.push(`${where}: media type ${mediaType} not documented`);
        return problems;
      }
      let body: unknown = exchange.text;
      if (mediaType === 'application/json') {
        try {
          body = JSON.parse(exchange.text);
        } catch {
          problems.push(`${where}: body is not JSON`);
          return problems;
        }
      }
      const validate = validatorAt([
        'paths',
        exchange.path,
        method,
        'responses',
        String(exchange.status),
        'content',
        mediaType,
        'schema',
      ]);
      if (!validate(body))
        problems.push(`${where}: body refused: ${ajv.errorsText(validate.errors)}`);
      return problems;
    },
  };
}
