import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { limitConnectionsPerPeer, toHttpServerOptions } from './http-server-limits.js';

describe('toHttpServerOptions', () => {
  it.each([
    [10_000, 30_000, 5_000, 1_000],
    [300, 400, 300, 75],
    [100, 100, 100, 25],
  ])(
    'headers %i ms, whole request %i ms, keep-alive %i ms: deadlines checked every %i ms',
    (headers, body, keepAlive, interval) => {
      expect(
        toHttpServerOptions({
          headersTimeoutMs: headers,
          requestBodyTimeoutMs: body,
          keepAliveTimeoutMs: keepAlive,
        }),
      ).toEqual({
        headersTimeout: headers,
        requestTimeout: body,
        keepAliveTimeout: keepAlive,
        connectionsCheckingInterval: interval,
      });
    },
  );

  it('gives options Node accepts as they are', () => {
    const server = createServer(
      toHttpServerOptions({
        headersTimeoutMs: 2_000,
        requestBodyTimeoutMs: 3_000,
        keepAliveTimeoutMs: 1_000,
      }),
    );
    expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]).toEqual([
      2_000, 3_000, 1_000,
    ]);
  });
});

describe('limitConnectionsPerPeer', () => {
  it("leaves the server's connection handling alone with no bound", () => {
    const server = createServer();
    const before = server.listeners('connection');
    limitConnectionsPerPeer(server, { maxPerPeer: 0, createRequestId: () => 'req_1' });
    expect(server.listeners('connection')).toEqual(before);
  });
});
