import { createClient, type RedisClientType } from '@redis/client';

/** The default prefix of every Redis key of a relay (RELAY_REDIS_PREFIX). */
export const DEFAULT_REDIS_PREFIX = 'relay:';

/** Options of {@link openRedisConnection}. */
export interface RedisConnectionOptions {
  /** RELAY_REDIS_PREFIX: prepended to every key {@link RedisConnection.key} builds. */
  readonly prefix?: string;
  /** How long one connection attempt may take, ms. Default 2,000. */
  readonly connectTimeoutMs?: number;
  /**
   * Called when the connection drops or an attempt to reconnect fails (at most once per change
   * from ready to not ready). Carries no URL or password.
   */
  readonly onProblem?: (problem: { readonly code: 'redis_unavailable' }) => void;
}

/**
 * One relay process's link to Redis: a command client that fails fast while Redis is away (no
 * offline queue: a command sent while disconnected rejects at once instead of waiting) and
 * reconnects in the background, plus subscriber connections for pub/sub.
 */
export interface RedisConnection {
  /** The command client. Commands reject while Redis is unreachable. */
  readonly client: RedisClientType;
  /** The key `prefix + parts.join(':')`. */
  key(...parts: readonly string[]): string;
  /** Whether the command client is connected now. */
  isReady(): boolean;
  /**
   * A dedicated connection for SUBSCRIBE (a subscribed connection cannot send other commands);
   * closed with the connection.
   */
  subscriber(): Promise<RedisClientType>;
  /** Closes every connection (pending commands are answered first). */
  close(): Promise<void>;
}

/** Thrown when Redis cannot be reached at start-up. Carries no URL or password. */
export class RedisUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('redis unavailable', options);
    this.name = 'RedisUnavailableError';
  }
}

/**
 * Connects to Redis at `url` (RELAY_REDIS_URL). Rejects with {@link RedisUnavailableError} when
 * the first connection fails; after that, a lost connection is retried in the background (every
 * 100 ms growing to 2 s) and commands reject until it is back.
 *
 * @param url - a `redis://` or `rediss://` URL (never logged)
 * @param options - key prefix, timeouts and the problem sink
 */
export async function openRedisConnection(
  url: string,
  options: RedisConnectionOptions = {},
): Promise<RedisConnection> {
  const prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
  const connectTimeout = options.connectTimeoutMs ?? 2000;
  const opened: RedisClientType[] = [];
  let reported = false;

  function newClient(): RedisClientType {
    // The first connection is tried once (start-up fails fast, typed); once it has been ready, a
    // lost connection is retried in the background.
    let everReady = false;
    const client = createClient({
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout,
        reconnectStrategy: (retries: number, cause: Error) =>
          everReady ? Math.min(100 * (retries + 1), 2000) : cause,
      },
    }) as RedisClientType;
    // Without a listener an 'error' event would end the process; the error may quote the URL, so
    // only its fact is reported.
    client.on('error', () => {
      if (!reported) {
        reported = true;
        options.onProblem?.({ code: 'redis_unavailable' });
      }
    });
    client.on('ready', () => {
      everReady = true;
      reported = false;
    });
    opened.push(client);
    return client;
  }

  async function connect(client: RedisClientType): Promise<RedisClientType> {
    try {
      await client.connect();
      return client;
    } catch (error) {
      client.destroy();
      throw new RedisUnavailableError({ cause: error });
    }
  }

  const client = await connect(newClient());
  return {
    client,
    key: (...parts) => prefix + parts.join(':'),
    isReady: () => client.isReady,
    subscriber: () => connect(newClient()),
    async close() {
      await Promise.allSettled(
        opened.map(async (c) => {
          if (c.isOpen) await c.close();
        }),
      );
    },
  };
}
