import { STATUS_CODES } from 'node:http';

/** The REST API origin gh names in error texts for github.com. */
export const GITHUB_REST_ORIGIN = 'https://api.github.com';

const ERROR_CODE_MESSAGES: Readonly<Record<string, string>> = {
  missing: 'is missing',
  missing_field: 'is missing',
  invalid: 'is invalid',
  unprocessable: 'is invalid',
  already_exists: 'already exists',
};

/** go-gh's message of an error body: `message`, then each `errors[]` entry, joined by `\n`. */
function messageOf(body: unknown): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return '';
  const record = body as Record<string, unknown>;
  const messages: string[] = [];
  if (typeof record.message === 'string' && record.message !== '') messages.push(record.message);
  if (Array.isArray(record.errors)) {
    for (const item of record.errors as unknown[]) {
      if (typeof item === 'string') messages.push(item);
      else if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
        const info = item as Record<string, unknown>;
        const text = (key: string): string => (typeof info[key] === 'string' ? info[key] : '');
        const code = text('code');
        const message =
          code !== '' && code !== 'custom'
            ? `${text('resource')}.${text('field')} ${ERROR_CODE_MESSAGES[code] ?? code}`
            : text('message');
        if (message !== '') messages.push(message);
      }
    }
  }
  return messages.join('\n');
}

/**
 * gh's line for a REST error of a non-`api` command (go-gh `HTTPError.Error()`, printed by
 * gh's error path with `\n`): `HTTP 500: Message (https://api.github.com/…)`; a multi-line
 * message continues after the URL; no message: `HTTP 500 (url)`; a body that is not JSON:
 * the status line (`500 Internal Server Error`) as the message.
 *
 * @param path - the REST path read (`/repos/o/r/releases/latest`), query excluded
 * @param body - the decoded JSON body, or `undefined` for a body that is not JSON
 */
export function formatRestHttpError(status: number, path: string, body: unknown): string {
  const url = `${GITHUB_REST_ORIGIN}${path}`;
  const message =
    body === undefined ? `${status} ${STATUS_CODES[status] ?? ''}`.trimEnd() : messageOf(body);
  const [first, ...rest] = message.split('\n');
  if (rest.length > 0) return `HTTP ${status}: ${first ?? ''} (${url})\n${rest.join('\n')}\n`;
  if (message !== '') return `HTTP ${status}: ${message} (${url})\n`;
  return `HTTP ${status} (${url})\n`;
}
