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

// native <gh argv>: the planner, the dispatcher, delegation
export { isFlagOn, lastFlagValue, parseGhArgv } from './native/argv/gh-argv-parser.js';
export type { GhArgvError, ParsedGhArgv } from './native/argv/gh-argv-parser.js';
export {
  GH_COMMAND_GROUPS,
  GH_HELP_TOKENS,
  GH_TOP_LEVEL_COMMANDS,
  SERVED_COMMAND_FLAGS,
} from './native/argv/gh-command-table.js';
export type {
  GhCommandSpec,
  GhFlagSpec,
  GhGroupSpec,
  ServedCommandName,
} from './native/argv/gh-command-table.js';
export { parseGitRemoteConfig } from './native/argv/git-remote-config.js';
export {
  DELEGATE_REASONS,
  needsGitRemotes,
  planNativeInvocation,
} from './native/argv/native-plan.js';
export type {
  DelegatePlan,
  DelegateReason,
  NativePlan,
  NativePlanContext,
  ServePlan,
} from './native/argv/native-plan.js';
export {
  GITHUB_HOST,
  parseGitUrl,
  parseRepoSelector,
  selectRemoteRepository,
  selectRepository,
} from './native/argv/repo-selector.js';
export type {
  GhRepository,
  GitRemote,
  RepoSelection,
  RepoSelectionError,
  RepoSource,
} from './native/argv/repo-selector.js';
export { dispatchNative, planFromEnvironment, readGitRemotes } from './native/native-dispatcher.js';
export type { NativeOutput, ServedCommand } from './native/commands/served-command.js';
export {
  QUIET_FALLBACK_VARIABLE,
  delegateToNative,
  formatDelegationNotice,
} from './native/delegate/native-delegation.js';

// install-shim: the gh shim (plan, installer, block, verification)
export { SHIM_INVOCATION_NAME, toRelayArgv } from './native/delegate/shim-argv.js';
export { createNodeShimFileSystem } from './native/delegate/shim-file-system.js';
export type { ShimFileSystem } from './native/delegate/shim-file-system.js';
export {
  SHIM_NAME,
  SHIM_RECORD_NAME,
  SHIM_STARTUP_FILES,
  describeShimAction,
  planShimInstall,
  planShimRemoval,
  resolveShimPaths,
} from './native/delegate/shim-install-plan.js';
export type {
  ShimAction,
  ShimFacts,
  ShimLinkState,
  ShimPaths,
  ShimPlan,
  ShimPlanError,
  ShimRecord,
  ShimRecordFile,
} from './native/delegate/shim-install-plan.js';
export {
  formatInstallShimError,
  formatInstallShimReport,
} from './native/delegate/shim-install-report.js';
export {
  INSTALL_SHIM_ERRORS,
  SUPPORTED_SHIM_SHELL,
  applyShimPlan,
  runShimInstaller,
} from './native/delegate/shim-installer.js';
export type {
  InstallShimError,
  InstallShimErrorCode,
  InstallShimOptions,
  InstallShimReport,
  ShimInstallerHost,
} from './native/delegate/shim-installer.js';
export {
  SHIM_BLOCK_VERSION,
  locateShimBlock,
  quoteForZsh,
  renderShimBlock,
} from './native/delegate/shim-startup-block.js';
export type {
  ByteString,
  ShimBlockDamage,
  ShimBlockLocation,
  ShimBlockOptions,
} from './native/delegate/shim-startup-block.js';
export {
  SHIM_VERIFICATION_SCRIPT,
  SHIM_VERIFICATION_SHELLS,
  parseShimVerification,
  verifyShim,
} from './native/delegate/shim-verification.js';
export type { ShimVerification } from './native/delegate/shim-verification.js';

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
