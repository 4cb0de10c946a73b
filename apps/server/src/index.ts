/**
 * relay-server as a library: the app factory, configuration and start-up, for tests and for
 * embedding. The `relay-server` bin is `main.ts`.
 */
export { createApp, RelayHttpError } from './create-app.js';
export type { AppDependencies } from './create-app.js';
export type { AppEnv } from './app-env.js';
export { createDiscoveryDocument } from './routes/discovery-route.js';
export type { DiscoveryOptions } from './routes/discovery-route.js';
export {
  DEFAULT_FORGE_LOG_HOSTS,
  formatConfigError,
  isLoopbackUrl,
  loadServerConfig,
} from './server-config.js';
export type { ConfigError, ServerConfig } from './server-config.js';
export { startServer } from './start-server.js';
export type { RunningServer, StartServerOptions } from './start-server.js';
export { DatabaseOpenError, openSqliteDatabase } from './storage/sqlite-database.js';
export type { RelayDatabase } from './storage/sqlite-database.js';
export { MIN_CLI_VERSION, SERVER_VERSION } from './version.js';
