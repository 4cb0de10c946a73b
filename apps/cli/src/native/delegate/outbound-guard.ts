import { open, stat } from 'node:fs/promises';
import { err, ok } from '@relay/protocol';
import type { RelayRequestInput, Result } from '@relay/protocol';
import type { RuleSet } from '@relay/rewrite-engine';
import { resolveConfigDir } from '../../auth-store.js';
import type { CallerAuth } from '../../caller-auth.js';
import { loadCallerSession } from '../../caller-session.js';
import type { CliDependencies } from '../../cli-dependencies.js';
import { CliError } from '../../cli-error.js';
import { loadLocalRules, resolveLocalRulesSource } from './local-rules-file.js';
import type { BoundedFileReader } from './local-rules-file.js';
import { checkNativeArgv, checkRelayRequest, formatRefusal } from './outbound-content-check.js';
import type { OutboundVerdict } from './outbound-content-check.js';
import { loadOutboundPolicy } from './outbound-policy.js';
import type { PolicyEndpoint } from './outbound-policy.js';
import { toPolicyFailureError } from './outbound-policy-failure.js';
import type { PolicyFailureHint } from './outbound-policy-failure.js';
import { classifyNativeInvocation } from './protected-invocation.js';

/** Reads at most `maxBytes` bytes of a file with node:fs (rejects with its `code`). */
export const readBoundedFile: BoundedFileReader = async (path, maxBytes) => {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(maxBytes);
    let length = 0;
    while (length < maxBytes) {
      const { bytesRead } = await handle.read(buffer, length, maxBytes - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
};

/**
 * Reads the local rules file: a regular file only. A FIFO, a socket or a device would block the
 * open (or read) with no deadline, where every other part of the policy has one (SPEC.md client
 * rule 15: five seconds); such a path is refused at once (`ENOTREG`: the policy fails closed,
 * `local_read`). A missing path keeps its `ENOENT`.
 */
export const readRulesFile: BoundedFileReader = async (path, maxBytes) => {
  const info = await stat(path);
  if (!info.isFile()) {
    throw Object.assign(new Error('the local rules file is not a regular file'), {
      code: 'ENOTREG',
    });
  }
  return readBoundedFile(path, maxBytes);
};

/**
 * One fresh policy attempt for `endpoint` (SPEC.md client rule 15): the local rules file, the
 * pool's string-rewrites endpoint, the merge.
 *
 * @throws CliError `string_rewrite_policy_failure` (exit 1) with the policy-failure line
 */
export async function loadGuard(
  deps: CliDependencies,
  endpoint: Result<PolicyEndpoint, PolicyFailureHint>,
): Promise<RuleSet> {
  const source = resolveLocalRulesSource(
    deps.env,
    resolveConfigDir(deps.env, deps.homeDir),
    process.cwd(),
  );
  const guard = await loadOutboundPolicy({
    fetch: deps.fetch,
    now: deps.now,
    endpoint,
    loadLocalRules: () => loadLocalRules(source, readRulesFile),
  });
  if (!guard.ok) throw toPolicyFailureError(guard.error);
  return guard.value;
}

function refuseUnlessPass(verdict: OutboundVerdict): void {
  if (verdict.kind === 'refuse') {
    throw new CliError('string_rewrite_blocked', { message: formatRefusal(verdict) });
  }
}

/** The caller auth of this dispatch, or the hint of why there is none. */
export async function resolveEndpoint(
  deps: CliDependencies,
): Promise<Result<PolicyEndpoint, PolicyFailureHint>> {
  try {
    const { auth } = await loadCallerSession(deps);
    return ok(auth);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    return err(error.code === 'not_logged_in' ? 'not_logged_in' : 'invalid_login');
  }
}

/**
 * The guard of the final native dispatch: a protected invocation
 * ({@link classifyNativeInvocation}) needs a relay login and a fresh policy, and no argv element
 * may match it. Exempt invocations pass without any of this.
 *
 * @param deps - the effects
 * @param argv - gh's argv, about to be run
 * @throws CliError `string_rewrite_policy_failure` (no login, no policy), `string_rewrite_blocked`
 *   (an argument matches); gh must not run then
 */
export async function guardNativeDispatch(
  deps: CliDependencies,
  argv: readonly string[],
): Promise<void> {
  if (classifyNativeInvocation(argv).kind === 'exempt') return;
  const guard = await loadGuard(deps, await resolveEndpoint(deps));
  refuseUnlessPass(checkNativeArgv(guard, argv));
}

/**
 * The guard of one relay request of a protected command: a fresh policy for the request's
 * auth snapshot, then its path, query and header values are checked before anything is sent.
 *
 * @throws CliError `string_rewrite_policy_failure`, `string_rewrite_blocked`
 */
export async function guardRelayRequest(
  deps: CliDependencies,
  auth: CallerAuth,
  request: RelayRequestInput,
): Promise<void> {
  const guard = await loadGuard(deps, ok(auth));
  refuseUnlessPass(checkRelayRequest(guard, request));
}
