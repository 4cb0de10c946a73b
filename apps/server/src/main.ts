#!/usr/bin/env -S node --max-semi-space-size=8
import { setFlagsFromString } from 'node:v8';
import { createBufferedLineWriter } from './http/access-log.js';
import { formatConfigError, loadServerConfig, runtimeV8Flags } from './server-config.js';
import { checkSecretsDir, createSecretReader } from './secret-resolver.js';
import { startServer } from './start-server.js';

/** relay-server: reads the environment, listens, and shuts down cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  // Heap sizing (server-config.ts): the young generation is bounded by the node flags of the
  // line above (SERVER_NODE_FLAGS); the old generation's growth is set here.
  for (const flag of runtimeV8Flags(process.execArgv)) setFlagsFromString(flag);
  const config = loadServerConfig(process.env);
  if (!config.ok) {
    console.error(`relay-server: ${formatConfigError(config.error)}`);
    process.exitCode = 1;
    return;
  }
  // One stderr line when RELAY_SECRETS_DIR is open to the group or others (names no secret).
  const secretsDirWarning = await checkSecretsDir(config.value.secretsDir);
  if (secretsDirWarning !== undefined) console.error(JSON.stringify(secretsDirWarning));
  // One JSON line per request, batched into one stdout write per tick (not console.log).
  const accessLog = createBufferedLineWriter((chunk) => process.stdout.write(chunk));
  process.once('exit', () => {
    accessLog.flush();
  });
  const server = await startServer(config.value, {
    onUnexpectedError: (error, requestId) => {
      const name = error instanceof Error ? error.name : 'unknown';
      console.error(
        JSON.stringify({ level: 'error', msg: 'unexpected', error: name, request_id: requestId }),
      );
    },
    onLog: (entry) => {
      accessLog.writeLine(JSON.stringify(entry));
    },
    onBackgroundProblem: (problem) => {
      console.error(JSON.stringify({ level: 'error', msg: problem.code }));
    },
    readSecret: createSecretReader({ secretsDir: config.value.secretsDir, env: process.env }),
  });
  console.log(`relay-server listening on ${server.url}`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    accessLog.flush();
    console.log(`relay-server: ${signal} received, shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close().then(
      () => {
        accessLog.flush();
        console.log('relay-server stopped');
      },
      (error: unknown) => {
        console.error(
          `relay-server: shutdown failed (${error instanceof Error ? error.name : 'unknown'})`,
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
  console.error(`relay-server: could not start: ${message}`);
  process.exitCode = 1;
});
