import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';

/** The Redis server of the tests: RELAY_TEST_REDIS_URL, else the machine's own. */
export const TEST_REDIS_URL =
  process.env.RELAY_TEST_REDIS_URL?.trim() === undefined ||
  process.env.RELAY_TEST_REDIS_URL.trim() === ''
    ? 'redis://127.0.0.1:6379'
    : process.env.RELAY_TEST_REDIS_URL.trim();

/** Whether a TCP connection to the test Redis opens within a second. */
async function isReachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => {
      done(false);
    });
    socket.once('connect', () => {
      done(true);
    });
    socket.once('error', () => {
      done(false);
    });
  });
}

/**
 * Whether the Redis suites run: always when RELAY_TEST_REDIS_URL is set (an unreachable server
 * then fails them, as `.ci/run` wants), else when the machine's server answers.
 */
export const REDIS_AVAILABLE = process.env.RELAY_TEST_REDIS_URL?.trim()
  ? true
  : await isReachable(TEST_REDIS_URL);

if (!REDIS_AVAILABLE) {
  console.warn(
    `Redis suites skipped: ${TEST_REDIS_URL} does not answer and RELAY_TEST_REDIS_URL is not set`,
  );
}

/** A key prefix no other test (or parallel test process) uses. */
export function uniqueRedisPrefix(label = 't'): string {
  return `relaytest:${label}:${process.pid.toString(36)}:${randomBytes(4).toString('hex')}:`;
}
