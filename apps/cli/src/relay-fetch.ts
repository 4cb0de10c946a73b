import type * as Http from 'node:http';
import type { Agent as HttpAgent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';

/**
 * The part of a WHATWG fetch request the CLI sends: a method, plain header records, an optional
 * string body, a redirect mode and an optional abort signal.
 */
export interface RelayFetchInit {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly redirect: 'follow' | 'manual';
  readonly signal?: AbortSignal;
}

/** One read of a {@link RelayFetchBody} (a WHATWG stream reader's result). */
export type RelayFetchChunk =
  | { readonly done: false; readonly value: Uint8Array }
  | { readonly done: true; readonly value?: Uint8Array | undefined };

/** The part of a WHATWG response body stream the CLI reads. */
export interface RelayFetchBody {
  getReader(): {
    read(): Promise<RelayFetchChunk>;
    cancel(): Promise<void>;
  };
  cancel(): Promise<void>;
}

/** The part of a WHATWG `Response` the CLI reads. */
export interface RelayFetchResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body: RelayFetchBody | null;
  text(): Promise<string>;
}

/**
 * The HTTP client the CLI talks to the relay with: the subset of WHATWG fetch it uses, so that
 * `globalThis.fetch` and test doubles built on `Response` fit it, and so does
 * {@link createNodeRelayFetch}.
 */
export type RelayFetch = (url: string | URL, init: RelayFetchInit) => Promise<RelayFetchResponse>;

/** undici's connect timeout, kept for the node:http client (a connection attempt's deadline). */
const CONNECT_TIMEOUT_MS = 10_000;
/** undici's headers and body timeouts (idle time between reads of one response). */
const IDLE_TIMEOUT_MS = 300_000;
/** Statuses whose response has no body (fetch's null body statuses). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** What `globalThis.fetch` rejects with when the network fails: a TypeError with a cause. */
function networkError(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** The abort reason, as fetch rejects with it. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** Decodes the body as `Response.text()` does: UTF-8, replacement characters, no leading BOM. */
function decodeUtf8(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A content coding fetch decodes (RFC 9110 names; `x-gzip` as gzip). */
type Coding = 'gzip' | 'deflate' | 'br';

function contentCodings(response: IncomingMessage): Coding[] | undefined {
  const header = response.headers['content-encoding'];
  if (header === undefined) return [];
  const codings: Coding[] = [];
  for (const raw of header.split(',')) {
    const name = raw.trim().toLowerCase();
    if (name === '' || name === 'identity') continue;
    if (name === 'gzip' || name === 'x-gzip') codings.push('gzip');
    else if (name === 'deflate' || name === 'br') codings.push(name);
    else return undefined;
  }
  return codings;
}

/** The body stream, decoded as fetch decodes it (zlib only when a response is encoded). */
function decodedStream(response: IncomingMessage, method: string): NodeJS.ReadableStream {
  const codings = contentCodings(response);
  const status = response.statusCode ?? 0;
  if (
    codings === undefined ||
    codings.length === 0 ||
    method === 'HEAD' ||
    (status >= 300 && status <= 399)
  ) {
    return response;
  }
  const zlib = process.getBuiltinModule('node:zlib');
  let stream: NodeJS.ReadableStream = response;
  // Codings apply in order, so they are undone from the last.
  for (const coding of [...codings].reverse()) {
    const decoder =
      coding === 'gzip'
        ? zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH })
        : coding === 'deflate'
          ? zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH })
          : zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH });
    const source = stream;
    source.on('error', (error) => decoder.destroy(error as Error));
    stream = source.pipe(decoder);
  }
  return stream;
}

class NodeBody implements RelayFetchBody {
  #iterator: AsyncIterator<Buffer> | undefined;

  constructor(
    private readonly source: NodeJS.ReadableStream,
    private readonly response: IncomingMessage,
  ) {}

  async #next(): Promise<RelayFetchChunk> {
    this.#iterator ??= this.source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    for (;;) {
      const step = await this.#iterator.next();
      if (step.done === true) return { done: true };
      const chunk = typeof step.value === 'string' ? Buffer.from(step.value) : step.value;
      if (chunk.byteLength > 0) return { done: false, value: chunk };
    }
  }

  getReader(): { read(): Promise<RelayFetchChunk>; cancel(): Promise<void> } {
    return { read: () => this.#next(), cancel: () => this.cancel() };
  }

  cancel(): Promise<void> {
    this.response.destroy();
    return Promise.resolve();
  }

  async bytes(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for (;;) {
      const step = await this.#next();
      if (step.done) break;
      chunks.push(step.value as Buffer);
    }
    return Buffer.concat(chunks);
  }
}

class NodeResponse implements RelayFetchResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body: NodeBody | null;

  constructor(response: IncomingMessage, method: string) {
    this.status = response.statusCode ?? 0;
    const raw = response.headers;
    this.headers = {
      get(name) {
        const value = raw[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    };
    if (method === 'HEAD' || NULL_BODY_STATUSES.has(this.status)) {
      response.resume();
      this.body = null;
    } else {
      this.body = new NodeBody(decodedStream(response, method), response);
    }
  }

  async text(): Promise<string> {
    return this.body === null ? '' : decodeUtf8(await this.body.bytes());
  }
}

/** Options of {@link createNodeRelayFetch}. */
export interface NodeRelayFetchOptions {
  /** Used for what the node:http client does not do itself (followed redirects, proxies). */
  readonly fallback: () => RelayFetch;
  /** Whether the environment asks for the proxy variables to be honoured (NODE_USE_ENV_PROXY). */
  readonly useEnvProxy: boolean;
}

/**
 * A {@link RelayFetch} on node:http and node:https with one keep-alive agent per scheme: the
 * policy fetch and the relay request of a `relay native` read share one connection, and nothing
 * loads undici (the global fetch's first use costs more than the rest of a cache hit). It sends
 * what the CLI asks and fetch's `user-agent: node`; it follows no redirects (mode `manual`:
 * the 3xx is the answer). A redirect mode of `follow`, a URL that is neither http nor https, or
 * NODE_USE_ENV_PROXY go to `options.fallback()` (the global fetch), so their behaviour is
 * fetch's own. Network failures reject as fetch does (`TypeError` with the socket error as
 * `cause`), an abort with the signal's reason; bodies of a `content-encoding` fetch decodes are
 * decoded.
 */
export function createNodeRelayFetch(options: NodeRelayFetchOptions): RelayFetch {
  const agents = new Map<string, { request: typeof Http.request; agent: HttpAgent }>();
  const transport = (protocol: 'http:' | 'https:') => {
    let loaded = agents.get(protocol);
    if (loaded === undefined) {
      // process.getBuiltinModule, not import(): the ESM facade of node:http reads every export,
      // and its lazy WebSocket export loads undici (the cost this client exists to avoid).
      const module =
        protocol === 'http:'
          ? process.getBuiltinModule('node:http')
          : process.getBuiltinModule('node:https');
      loaded = {
        request: module.request,
        agent: new module.Agent({ keepAlive: true, keepAliveMsecs: 1_000 }),
      };
      agents.set(protocol, loaded);
    }
    return loaded;
  };

  return async (input, init) => {
    const url = typeof input === 'string' ? new URL(input) : input;
    if (
      init.redirect !== 'manual' ||
      options.useEnvProxy ||
      (url.protocol !== 'http:' && url.protocol !== 'https:')
    ) {
      return options.fallback()(input, init);
    }
    const { signal } = init;
    if (signal?.aborted === true) throw abortReason(signal);
    const { request, agent } = transport(url.protocol);
    const headers: Record<string, string> = { 'user-agent': 'node', ...lowerCased(init.headers) };
    if (init.body !== undefined) {
      headers['content-type'] ??= 'text/plain;charset=UTF-8';
      headers['content-length'] = String(Buffer.byteLength(init.body));
    }
    const requestOptions: RequestOptions = {
      agent,
      method: init.method,
      headers,
      timeout: IDLE_TIMEOUT_MS,
    };
    return new Promise<RelayFetchResponse>((resolve, reject) => {
      let settled = false;
      let req: ClientRequest;
      try {
        // Invalid header names or values throw a TypeError here, as fetch rejects with one.
        req = request(url, requestOptions);
      } catch (error) {
        reject(
          error instanceof TypeError ? error : new TypeError('invalid request', { cause: error }),
        );
        return;
      }
      let connectTimer: NodeJS.Timeout | undefined;
      const onAbort = () => {
        if (signal === undefined) return;
        const reason = abortReason(signal);
        req.destroy(reason instanceof Error ? reason : new Error('aborted'));
        if (!settled) {
          settled = true;
          // fetch rejects with the signal's reason, whatever it is (the policy fetch uses symbols).
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
          reject(reason);
        }
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.once('socket', (socket) => {
        if (!socket.connecting) return;
        connectTimer = setTimeout(() => {
          req.destroy(
            Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }),
          );
        }, CONNECT_TIMEOUT_MS);
        connectTimer.unref();
        socket.once('connect', () => {
          clearTimeout(connectTimer);
        });
      });
      req.once('timeout', () => {
        req.destroy(Object.assign(new Error('Timeout Error'), { code: 'UND_ERR_TIMEOUT' }));
      });
      req.once('error', (error) => {
        clearTimeout(connectTimer);
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        reject(signal?.aborted === true ? abortReason(signal) : networkError(error));
      });
      req.once('response', (response) => {
        clearTimeout(connectTimer);
        if (settled) {
          response.destroy();
          return;
        }
        settled = true;
        response.once('close', () => signal?.removeEventListener('abort', onAbort));
        resolve(new NodeResponse(response, init.method.toUpperCase()));
      });
      req.end(init.body);
    });
  };
}

function lowerCased(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}
