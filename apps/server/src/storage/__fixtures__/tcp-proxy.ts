import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * A TCP proxy in front of the test PostgreSQL that a test can break without touching the shared
 * server: `cut` resets every connection and refuses new ones (a server gone); `freeze` stops
 * carrying bytes in either direction, holding them, on every connection old and new (a network
 * partition: nothing is closed); `restore` undoes either.
 */
export interface TestTcpProxy {
  readonly port: number;
  cut(): void;
  freeze(): void;
  restore(): void;
  close(): Promise<void>;
}

/**
 * Starts a {@link TestTcpProxy} on an ephemeral loopback port.
 *
 * @param target - where the proxy forwards
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TestTcpProxy> {
  let state: 'open' | 'cut' | 'frozen' = 'open';
  const pairs = new Set<readonly [Socket, Socket]>();
  const link = ([client, upstream]: readonly [Socket, Socket]) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const server = createServer((client) => {
    if (state === 'cut') {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    const pair = [client, upstream] as const;
    pairs.add(pair);
    for (const socket of pair) {
      socket.on('error', () => undefined);
      socket.on('close', () => {
        pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      });
    }
    if (state === 'open') link(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      state = 'cut';
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
    },
    freeze() {
      state = 'frozen';
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    restore() {
      const wasFrozen = state === 'frozen';
      state = 'open';
      if (wasFrozen) for (const pair of pairs) link(pair);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const [client, upstream] of pairs) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => {
          resolve();
        });
      }),
  };
}
