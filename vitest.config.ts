import { createConnection } from 'node:net';
import { defineConfig } from 'vitest/config';
import { SummaryReporter } from './scripts/summary-reporter.ts';
import { createProjectConfig } from './vitest.shared.ts';

/** Whether a TCP connection to `url`'s host opens within a second. */
function answers(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || defaultPort) });
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
 * Whether a service of the tests is there, as the server's fixtures decide
 * (`POSTGRES_AVAILABLE`, `REDIS_AVAILABLE`): always when its RELAY_TEST_*_URL is set (`.ci/run`
 * sets both: an unreachable server then fails the suite), else when the machine's own answers.
 */
async function available(variable: string, fallbackUrl: string, port: number): Promise<boolean> {
  const url = process.env[variable]?.trim();
  return url !== undefined && url !== '' ? true : answers(fallbackUrl, port);
}

const scaledBackend =
  (await available('RELAY_TEST_POSTGRES_URL', 'postgres://127.0.0.1:5432', 5432)) &&
  (await available('RELAY_TEST_REDIS_URL', 'redis://127.0.0.1:6379', 6379));
if (!scaledBackend) {
  process.stderr.write(
    '@relay/server (PostgreSQL+Redis) skipped: PostgreSQL or Redis does not answer and RELAY_TEST_POSTGRES_URL/RELAY_TEST_REDIS_URL are not set\n',
  );
}

export default defineConfig({
  test: {
    // One project per package and app (each has its own vitest.config.ts): tests run from
    // source through the `@relay/source` export condition, with no build.
    projects: [
      'packages/*',
      'apps/*',
      // Issue 25 item 3: the server's pipeline suite once more, on PostgreSQL and Redis wired as
      // relay-server wires them with RELAY_REDIS_URL (test/pipeline/relay-harness.ts reads
      // RELAY_TEST_BACKEND); the same files, not copies.
      ...(scaledBackend
        ? [
            // The server project's own settings (vitest.shared.ts); `extends` of its config file
            // would concatenate `include` with the server's whole suite instead of replacing it.
            createProjectConfig('@relay/server (PostgreSQL+Redis)', {
              root: './apps/server',
              test: {
                include: ['test/pipeline/**/*.test.ts'],
                env: { RELAY_TEST_BACKEND: 'postgres-redis' },
              },
            }),
          ]
        : []),
    ],
    reporters: ['default', new SummaryReporter()],
    passWithNoTests: false,
  },
});
