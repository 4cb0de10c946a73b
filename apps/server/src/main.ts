#!/usr/bin/env -S node --max-semi-space-size=8
import { setFlagsFromString } from 'node:v8';
import { createServerLogger, toLogSinks } from './logging/server-logger.js';
import {
  DEFAULT_LOG_LEVEL,
  formatConfigError,
  loadServerConfig,
  parseLogLevel,
  runtimeV8Flags,
} from './server-config.js';
import { checkSecretsDir, createSecretReader } from './secret-resolver.js';
import { startServer } from './start-server.js';

// Every line relay-server writes is one JSON object on stdout, through one logger (pino). Until
// the configuration is read, RELAY_LOG_LEVEL is taken as it is (an invalid value: `info`, and
// the configuration error says so).
const logger = createServerLogger({
  level: parseLogLevel(process.env.RELAY_LOG_LEVEL) ?? DEFAULT_LOG_LEVEL,
});

/** relay-server: reads the environment, listens, and shuts down cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  // Heap sizing (server-config.ts): the young generation is bounded by the node flags of the
  // line above (SERVER_NODE_FLAGS); the old generation's growth is set here.
  for (const flag of runtimeV8Flags(process.execArgv)) setFlagsFromString(flag);
  const config = loadServerConfig(process.env);
  if (!config.ok) {
    logger.fatal(
      { code: config.error.code, variable: config.error.variable },
      `relay-server: ${formatConfigError(config.error)}`,
    );
    process.exitCode = 1;
    return;
  }
  // One line when RELAY_SECRETS_DIR is open to the group or others (names no secret).
  const secretsDirWarning = await checkSecretsDir(config.value.secretsDir);
  if (secretsDirWarning !== undefined) {
    logger.warn({ mode: secretsDirWarning.mode }, secretsDirWarning.msg);
  }
  const server = await startServer(config.value, {
    // One JSON line per request: pino's asynchronous stdout destination joins the lines of one
    // event-loop turn into one write; the response never waits for it.
    ...toLogSinks(logger),
    logger,
    readSecret: createSecretReader({ secretsDir: config.value.secretsDir, env: process.env }),
  });
  logger.info({ url: server.url }, `relay-server listening on ${server.url}`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `relay-server: ${signal} received, shutting down`);
    const force = setTimeout(() => {
      logger.flush();
      process.exit(1);
    }, 10_000);
    force.unref();
    server.close().then(
      () => {
        logger.info('relay-server stopped');
      },
      (error: unknown) => {
        logger.error(
          { error: error instanceof Error ? error.name : 'unknown' },
          'relay-server: shutdown failed',
        );
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : 'unknown failure';
  logger.fatal(`relay-server: could not start: ${message}`);
  process.exitCode = 1;
});
