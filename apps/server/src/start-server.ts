import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { createApp } from './create-app.js';
import type { ServerConfig } from './server-config.js';
import { openSqliteDatabase, type RelayDatabase } from './storage/sqlite-database.js';
import { MIN_CLI_VERSION } from './version.js';

/** A running relay server. */
export interface RunningServer {
  /** The URL it listens on (`http://host:port`). */
  readonly url: string;
  /** The public base URL of discovery. */
  readonly publicUrl: string;
  readonly database: RelayDatabase;
  /** Stops accepting connections, ends idle ones, closes the database; idempotent. */
  close(): Promise<void>;
}

/** What {@link startServer} needs besides the configuration. */
export interface StartServerOptions {
  /** Reports unexpected failures; defaults to nothing. */
  readonly onUnexpectedError?: (error: unknown, requestId: string) => void;
}

/**
 * Opens the database, builds the app and listens on the configured host and port (0 picks an
 * ephemeral port).
 */
export async function startServer(
  config: ServerConfig,
  options: StartServerOptions = {},
): Promise<RunningServer> {
  const database = await openSqliteDatabase(config.database);
  let publicUrl = config.publicUrl ?? '';
  const app = createApp({
    discovery: {
      publicUrl: () => publicUrl,
      defaultPool: config.defaultLoginPool,
      allowedOrg: config.allowedForgeOrg,
      minCliVersion: MIN_CLI_VERSION,
    },
    ...(options.onUnexpectedError === undefined
      ? {}
      : { onUnexpectedError: options.onUnexpectedError }),
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  if (publicUrl === '') publicUrl = url;

  let closing: Promise<void> | undefined;
  return {
    url,
    publicUrl,
    database,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => {
            resolve();
          });
          server.closeIdleConnections();
        });
        await database.close();
      })();
      return closing;
    },
  };
}
