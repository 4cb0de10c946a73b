import examples from '../data/forge-examples.json' with { type: 'json' };
import { GITHUB_URLS, type SimUrls } from './sim-urls.js';

/** A JSON object body. */
export type JsonObject = Record<string, unknown>;

const EXAMPLES = examples as Record<string, unknown>;

/** The operation ids with an example body. */
export const EXAMPLE_OPERATIONS: readonly string[] = Object.keys(EXAMPLES);

function rebase(value: unknown, urls: SimUrls): unknown {
  if (typeof value === 'string') {
    return value
      .replaceAll(GITHUB_URLS.api, urls.api)
      .replaceAll(GITHUB_URLS.raw, urls.raw)
      .replaceAll(GITHUB_URLS.web, urls.web);
  }
  if (Array.isArray(value)) return value.map((v) => rebase(v, urls));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rebase(v, urls)]));
  }
  return value;
}

/**
 * GitHub's example response bodies (from its REST description), with GitHub's hosts
 * replaced by the simulator's. Bodies of the world's entities start from these shapes so
 * that every field a client may read exists.
 */
export class ExampleTemplates {
  readonly #urls: SimUrls;
  readonly #cache = new Map<string, unknown>();

  constructor(urls: SimUrls) {
    this.#urls = urls;
  }

  /** The example body of an operation, rebased (a fresh copy). */
  body(operationId: string): unknown {
    let cached = this.#cache.get(operationId);
    if (cached === undefined) {
      if (!(operationId in EXAMPLES)) throw new Error(`no example for ${operationId}`);
      cached = rebase(EXAMPLES[operationId], this.#urls);
      this.#cache.set(operationId, cached);
    }
    return structuredClone(cached);
  }

  /** One element of a list example, or the object example, as an object (a fresh copy). */
  item(operationId: string, wrapKey?: string): JsonObject {
    let body = this.body(operationId);
    if (
      wrapKey !== undefined &&
      body !== null &&
      typeof body === 'object' &&
      !Array.isArray(body)
    ) {
      body = (body as JsonObject)[wrapKey];
    }
    if (Array.isArray(body)) body = body[0];
    if (body === null || typeof body !== 'object') return {};
    return body as JsonObject;
  }

  /** An example item overlaid with `fields` (shallow). */
  with(operationId: string, fields: JsonObject, wrapKey?: string): JsonObject {
    return { ...this.item(operationId, wrapKey), ...fields };
  }
}
