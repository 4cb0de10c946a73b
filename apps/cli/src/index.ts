/** The `relay` CLI as a library, for tests and embedding. The bin is `main.ts`. */

// The command line
export { createCli } from './create-cli.js';
export { RelayCommand } from './relay-command.js';
export type { RelayContext } from './relay-command.js';
export { CLI_VERSION } from './version.js';

// Effects
export { createNodeDependencies } from './node-dependencies.js';
export type { NodeDependenciesOptions } from './node-dependencies.js';
export type {
  CliDependencies,
  CliEnv,
  ProcessOutput,
  RunProcessOptions,
} from './cli-dependencies.js';

// Errors
export { CliError, exitCodeOf, formatCliError } from './cli-error.js';
export type { CliErrorCode, CliErrorDetails } from './cli-error.js';

// Saved login and caller auth
export {
  AUTH_FILE_NAME,
  isSavedLogin,
  readSavedLogin,
  resolveConfigDir,
  writeSavedLogin,
} from './auth-store.js';
export type { AuthStoreError, SavedLogin } from './auth-store.js';
export { canonicalUrl, resolveCallerAuth } from './caller-auth.js';
export type { CallerAuth, CallerAuthOptions } from './caller-auth.js';
export { checkLoginUrl, isLoopbackHost, performLogin } from './login-flow.js';
export type { LoginOptions } from './login-flow.js';
export { PUBLIC_FORGE_HOST, readNativeToken } from './native-token-reader.js';
export type { NativeTokenSource } from './native-token-reader.js';

// Relay transport, retries and fallback
export { joinUrl, sendRelayRequest, toReplyError } from './relay-http.js';
export type { RedirectMode, RelayHttpRequest, RelayReply } from './relay-http.js';
export {
  RELAY_RETRIES_MAX,
  classifyReply,
  parseRetries,
  retryDelayMs,
  sendWithRetries,
} from './relay-retry-policy.js';
export type { ReplyClass, RetryOptions, RetryOutcome } from './relay-retry-policy.js';
export {
  NATIVE_CLI_NAME,
  RELAY_SECRET_VARIABLES,
  locateNativeCli,
  nativeEnv,
  runNativeCli,
} from './native-cli.js';

// native api
export { API_HEADER_ALLOWLIST, isLoginProbe, planApiInvocation } from './native-api-invocation.js';
export type { ApiInvocation, DelegationReason, RelayableApiRead } from './native-api-invocation.js';
export { QUOTA_NOTICE, runNativeApi } from './native-api-runner.js';
export type { ApiOutput } from './native-api-runner.js';
export {
  envelopeBodyBytes,
  findNextLink,
  formatGhHttpError,
  isJsonEnvelope,
  slurpPages,
  splicePaginatedPages,
} from './gh-api-output.js';
export { runJqFilter, toJqFilterArgument } from './jq-filter.js';
export type { JqResult } from './jq-filter.js';
export { isSecretQueryKey } from '@relay/route-classifier';

// Reports and output
export { buildDebugRequest } from './debug-request.js';
export type { DebugRequestOptions } from './debug-request.js';
export {
  formatPoolHealth,
  formatPoolStats,
  formatTable,
  parsePoolHealth,
  parsePoolStats,
} from './pool-report.js';
export { colorDepthFor, createTerminalStyle } from './terminal-style.js';
export type { TerminalStyle } from './terminal-style.js';
