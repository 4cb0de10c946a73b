import { randomUUID } from 'node:crypto';

/** Makes a request id: `req_` and a random UUID. */
export function createRequestId(): string {
  return `req_${randomUUID()}`;
}
