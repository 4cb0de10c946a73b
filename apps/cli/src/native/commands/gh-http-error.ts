import type { RelayEnvelope } from '@relay/protocol';
import { envelopeBodyBytes } from '../../gh-api-output.js';

/**
 * Go's `http.StatusText` for the statuses a forge read can answer with: gh (over HTTP/2) builds
 * `resp.Status` as `<code> <text>`, and prints it as the message of a non-JSON error.
 */
const GO_STATUS_TEXT: Readonly<Record<number, string>> = {
  201: 'Created',
  202: 'Accepted',
  203: 'Non-Authoritative Information',
  204: 'No Content',
  205: 'Reset Content',
  206: 'Partial Content',
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Request Entity Too Large',
  414: 'Request URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Requested Range Not Satisfiable',
  417: 'Expectation Failed',
  418: "I'm a teapot",
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  506: 'Variant Also Negotiates',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  510: 'Not Extended',
  511: 'Network Authentication Required',
};

/** go-gh's `errorCodeToMessage`: REST validation codes in words. */
function errorCodeToMessage(code: string): string {
  switch (code) {
    case 'missing':
    case 'missing_field':
      return 'is missing';
    case 'invalid':
    case 'unprocessable':
      return 'is invalid';
    case 'already_exists':
      return 'already exists';
    default:
      return code;
  }
}

/** A JSON object's field as Go's `encoding/json` finds it: the exact key, else any case. */
function goField(record: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(record, name)) return record[name];
  let found: unknown;
  for (const [key, value] of Object.entries(record)) {
    if (key.toLowerCase() === name.toLowerCase()) found = value;
  }
  return found;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field of an error item (a mismatched type is skipped, as Go's decoder does). */
function itemString(item: Record<string, unknown>, name: string): string {
  const value = goField(item, name);
  return typeof value === 'string' ? value : '';
}

/**
 * The message go-gh's `HandleHTTPError` reads from a JSON error body: `message`, then each
 * `errors[]` item (a string, an item's `message`, or `Resource.Field <code>` for a code other
 * than `custom`), joined by newlines; empty when the body does not decode into that shape.
 */
function jsonErrorMessage(body: unknown): string {
  if (!isRecord(body)) return '';
  const message = goField(body, 'message');
  const errors = goField(body, 'errors');
  if (message !== undefined && message !== null && typeof message !== 'string') return '';
  if (errors !== undefined && errors !== null && !Array.isArray(errors)) return '';
  const messages: string[] = [];
  if (typeof message === 'string' && message !== '') messages.push(message);
  for (const raw of Array.isArray(errors) ? (errors as unknown[]) : []) {
    if (typeof raw === 'string') {
      messages.push(raw);
    } else if (isRecord(raw)) {
      const code = itemString(raw, 'code');
      const text =
        code !== '' && code !== 'custom'
          ? `${itemString(raw, 'resource')}.${itemString(raw, 'field')} ${errorCodeToMessage(code)}`
          : itemString(raw, 'message');
      if (text !== '') messages.push(text);
    }
  }
  return messages.join('\n');
}

/** Whether gh decides a response is JSON (go-gh's `[/+]json($|;)` on the content type). */
function isJsonContentType(envelope: Pick<RelayEnvelope, 'headers' | 'body_encoding'>): boolean {
  if (envelope.body_encoding === 'json') return true;
  return /[/+]json($|;)/.test(envelope.headers['content-type'] ?? '');
}

/**
 * The JSON value gh decodes from a JSON error answer: the relay's parsed body, or the bytes of
 * an opaque one (an answer to a diff or patch read is relayed as text) parsed here; `undefined`
 * when they are not JSON (gh then has no message).
 */
function decodeJsonBody(envelope: Pick<RelayEnvelope, 'body' | 'body_encoding'>): unknown {
  if (envelope.body_encoding === 'json') return envelope.body;
  try {
    return JSON.parse(envelopeBodyBytes(envelope).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The text of gh's `api.HTTPError` for a REST answer that is not 200 (go-gh v2.11
 * `HandleHTTPError` + `Error()`): `HTTP <code>: <message> (<url>)`, a multi-line message's
 * later lines after the URL, `HTTP <code> (<url>)` without a message. The message of a non-JSON
 * answer is Go's status line (`404 Not Found`).
 *
 * @param envelope - the relayed answer (status, headers, body)
 * @param requestUrl - the API URL gh would have requested
 * @returns the text, without a trailing newline
 *
 * @example
 * ```ts
 * formatGhHttpErrorText({ status: 404, headers: {}, body: { message: 'Not Found' }, body_encoding: 'json' }, 'https://api.github.com/repos/o/r/pulls/9');
 * // 'HTTP 404: Not Found (https://api.github.com/repos/o/r/pulls/9)'
 * ```
 */
export function formatGhHttpErrorText(
  envelope: Pick<RelayEnvelope, 'status' | 'headers' | 'body' | 'body_encoding'>,
  requestUrl: string,
): string {
  const status = envelope.status;
  let message: string;
  if (!isJsonContentType(envelope)) {
    message = `${status} ${GO_STATUS_TEXT[status] ?? ''}`;
  } else {
    message = jsonErrorMessage(decodeJsonBody(envelope));
  }
  const newline = message.indexOf('\n');
  if (newline >= 0) {
    return `HTTP ${status}: ${message.slice(0, newline)} (${requestUrl})\n${message.slice(newline + 1)}`;
  }
  if (message !== '') return `HTTP ${status}: ${message} (${requestUrl})`;
  return `HTTP ${status} (${requestUrl})`;
}
