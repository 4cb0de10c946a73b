import type { RelayEnvelope } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import { formatGhHttpErrorText } from './gh-http-error.js';

const URL = 'https://api.github.com/repos/acme/widgets/pulls/9';
type Answer = Pick<RelayEnvelope, 'status' | 'headers' | 'body' | 'body_encoding'>;
const json = (status: number, body: unknown): Answer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body,
  body_encoding: 'json',
});

describe('formatGhHttpErrorText (go-gh HandleHTTPError + HTTPError.Error)', () => {
  it.each<[string, Answer, string]>([
    ['message', json(404, { message: 'Not Found' }), `HTTP 404: Not Found (${URL})`],
    [
      'message and coded errors',
      json(406, {
        message: 'Sorry, the diff exceeded the maximum number of lines (20000)',
        errors: [{ resource: 'PullRequest', field: 'diff', code: 'too_large' }],
      }),
      `HTTP 406: Sorry, the diff exceeded the maximum number of lines (20000) (${URL})\nPullRequest.diff too_large`,
    ],
    [
      'string, custom and worded errors',
      json(422, {
        message: 'Validation Failed',
        errors: [
          'one',
          { code: 'custom', message: 'two' },
          { resource: 'R', field: 'f', code: 'missing' },
        ],
      }),
      `HTTP 422: Validation Failed (${URL})\none\ntwo\nR.f is missing`,
    ],
    ['keys in another case', json(404, { Message: 'Not Found' }), `HTTP 404: Not Found (${URL})`],
    ['no message', json(500, {}), `HTTP 500 (${URL})`],
    ['a message that is not a string', json(404, { message: 3 }), `HTTP 404 (${URL})`],
    ['an array body', json(404, []), `HTTP 404 (${URL})`],
    [
      'a non-JSON answer: Go status line',
      {
        status: 404,
        headers: { 'content-type': 'text/plain' },
        body: 'nope',
        body_encoding: 'text',
      },
      `HTTP 404: 404 Not Found (${URL})`,
    ],
    [
      'a JSON answer relayed as text (a diff read)',
      {
        status: 404,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: '{"message":"Not Found","documentation_url":"https://docs"}',
        body_encoding: 'text',
      },
      `HTTP 404: Not Found (${URL})`,
    ],
    [
      'a JSON content type that did not parse',
      {
        status: 502,
        headers: { 'content-type': 'application/json' },
        body: '{',
        body_encoding: 'text',
      },
      `HTTP 502 (${URL})`,
    ],
  ])('%s', (_name, envelope, expected) => {
    expect(formatGhHttpErrorText(envelope, URL)).toBe(expected);
  });
});
