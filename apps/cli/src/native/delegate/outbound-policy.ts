import { REWRITE_DOCUMENT_MAX_BYTES, err, getStringRewritePolicySchema, ok } from '@relay/protocol';
import type { PolicyFailureClass, Result, StringRewriteRule } from '@relay/protocol';
import { compileRulesLazily, mergeRules, parsePolicyDocument } from '@relay/rewrite-engine';
import type { PolicyErrorCode, RuleSet } from '@relay/rewrite-engine';
import { parseCfRay } from './outbound-policy-failure.js';
import type { PolicyFailure, PolicyFailureHint } from './outbound-policy-failure.js';
import type { LocalRulesFailure } from './local-rules-file.js';
import type { RelayFetch, RelayFetchResponse } from '../../relay-fetch.js';

/** The policy fetch's deadline (SPEC.md Limits, "Policy fetch"): connection, answer and body. */
export const POLICY_FETCH_DEADLINE_MS = 5_000;

/** The most bytes the policy endpoint's body may have (SPEC.md Limits, GET envelope included). */
export const POLICY_RESPONSE_MAX_BYTES = REWRITE_DOCUMENT_MAX_BYTES;

/** Where and as whom the policy is fetched: one caller auth snapshot (client rule 2). */
export interface PolicyEndpoint {
  /** The relay base URL. */
  readonly url: string;
  /** The pool whose string-rewrites endpoint is read. */
  readonly pool: string;
  /** The caller token (sent only to `url`). */
  readonly token: string;
}

/** Options of {@link fetchServerPolicy}. */
export interface PolicyFetchOptions {
  /** WHATWG fetch (the subset the CLI uses). */
  readonly fetch: RelayFetch;
  /** Epoch milliseconds (elapsed time of the attempt). */
  readonly now: () => number;
  /** The deadline of the whole fetch, body included. Default {@link POLICY_FETCH_DEADLINE_MS}. */
  readonly deadlineMs?: number;
  /** Aborting it cancels the fetch: class `canceled`. */
  readonly signal?: AbortSignal;
}

/** The server's policy, validated. */
export interface ServerPolicy {
  readonly revision: number;
  readonly rules: readonly StringRewriteRule[];
  /** The compiled server rules (reused when there are no local rules). */
  readonly ruleSet: RuleSet;
}

/** A failure of one stage, before the attempt's timing is added. */
interface StageFailure {
  readonly class: PolicyFailureClass;
  readonly httpStatus?: number;
  readonly cfRay?: string;
  readonly hint?: PolicyFailureHint;
}

const TIMEOUT = Symbol('policy fetch deadline');
const CANCELED = Symbol('policy fetch canceled');

/** Error codes of `parsePolicyDocument` that mean "not strict JSON" (checked before fields). */
const SYNTAX_ERRORS: ReadonlySet<PolicyErrorCode> = new Set<PolicyErrorCode>([
  'document_too_large',
  'invalid_encoding',
  'invalid_json',
  'duplicate_key',
  'invalid_unicode',
]);

/** The policy endpoint of `endpoint`'s pool: GET {url}/v1/pools/{pool}/string-rewrites. */
export function policyEndpointUrl(endpoint: PolicyEndpoint): string {
  return `${endpoint.url.replace(/\/+$/, '')}/v1/pools/${encodeURIComponent(endpoint.pool)}/string-rewrites`;
}

function abortClass(signal: AbortSignal): PolicyFailureClass {
  return signal.reason === TIMEOUT ? 'timeout' : 'canceled';
}

/** Reads the body, stopping one chunk past the limit. */
async function readBoundedBody(
  response: RelayFetchResponse,
  signal: AbortSignal,
  limit: number,
): Promise<Result<Uint8Array, PolicyFailureClass>> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    return err('response_size');
  }
  if (response.body === null) return ok(new Uint8Array());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        return err('response_size');
      }
      chunks.push(value);
    }
  } catch {
    return err(signal.aborted ? abortClass(signal) : 'response_read');
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return ok(bytes);
}

/**
 * Validates the endpoint's body: strict JSON (no duplicate keys, well-formed UTF-8 and Unicode:
 * the syntax layer of `parsePolicyDocument`, which checks syntax before fields), exactly
 * `schema_version` 1, `revision`, `updated_at`, `rules`, and rules the rule language accepts.
 * The rules compile with `compileRulesLazily`: an empty policy loads no regex engine.
 */
export async function validateServerPolicy(
  bytes: Uint8Array,
): Promise<Result<ServerPolicy, 'server_validation'>> {
  const syntax = parsePolicyDocument(bytes);
  if (!syntax.ok && SYNTAX_ERRORS.has(syntax.error.code)) return err('server_validation');
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return err('server_validation');
  }
  const policy = getStringRewritePolicySchema().safeParse(json, { jitless: true });
  if (!policy.success) return err('server_validation');
  const ruleSet = await compileRulesLazily(policy.data.rules);
  if (!ruleSet.ok) return err('server_validation');
  return ok({ revision: policy.data.revision, rules: policy.data.rules, ruleSet: ruleSet.value });
}

/**
 * Fetches the pool's string-rewrite policy once, fresh (no cache, no offline copy): GET with the
 * caller token, redirects refused (a 3xx is an `http_status` failure), a deadline over the whole
 * exchange, the body streamed and abandoned past 65,536 bytes, then validated.
 *
 * @returns the validated policy, or a stage failure (class, status and ray id when an answer
 *   arrived)
 */
async function fetchPolicyStage(
  endpoint: PolicyEndpoint,
  options: PolicyFetchOptions,
): Promise<Result<ServerPolicy, StageFailure>> {
  let url: string;
  try {
    url = new URL(policyEndpointUrl(endpoint)).href;
  } catch {
    return err({ class: 'setup' });
  }
  const controller = new AbortController();
  const cancel = () => {
    controller.abort(CANCELED);
  };
  if (options.signal?.aborted === true) return err({ class: 'canceled' });
  options.signal?.addEventListener('abort', cancel, { once: true });
  const timer = setTimeout(() => {
    controller.abort(TIMEOUT);
  }, options.deadlineMs ?? POLICY_FETCH_DEADLINE_MS);
  try {
    let response: RelayFetchResponse;
    try {
      response = await options.fetch(url, {
        method: 'GET',
        headers: { accept: 'application/json', authorization: `Bearer ${endpoint.token}` },
        redirect: 'manual',
        signal: controller.signal,
      });
    } catch (error) {
      if (controller.signal.aborted) return err({ class: abortClass(controller.signal) });
      // undici rejects a request it cannot build (a bad header value) with a bare TypeError,
      // and a network failure with a TypeError whose `cause` is the socket error.
      const local = error instanceof TypeError && error.cause === undefined;
      return err({ class: local ? 'request' : 'transport' });
    }
    const cfRay = parseCfRay(response.headers.get('cf-ray'));
    const seen = { httpStatus: response.status, ...(cfRay === undefined ? {} : { cfRay }) };
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      return err({ class: 'http_status', ...seen });
    }
    const body = await readBoundedBody(response, controller.signal, POLICY_RESPONSE_MAX_BYTES);
    if (!body.ok) return err({ class: body.error, ...seen });
    const policy = await validateServerPolicy(body.value);
    if (!policy.ok) return err({ class: policy.error, ...seen });
    return ok(policy.value);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', cancel);
  }
}

/**
 * The guard of one protected operation: the server's rules first, then the local ones;
 * identical entries deduplicate, a pattern with two replacements fails, the combined list must
 * keep every policy limit (`mergeRules`).
 */
export async function mergeOutboundRules(
  server: ServerPolicy,
  localRules: readonly StringRewriteRule[],
): Promise<Result<RuleSet, 'merge'>> {
  if (localRules.length === 0) return ok(server.ruleSet);
  const merged = mergeRules(server.rules, localRules);
  if (!merged.ok) return err('merge');
  const ruleSet = await compileRulesLazily(merged.value);
  return ruleSet.ok ? ok(ruleSet.value) : err('merge');
}

/** Options of {@link loadOutboundPolicy}. */
export interface OutboundPolicyOptions extends PolicyFetchOptions {
  /** The caller auth snapshot, or the hint of why there is none (class `setup`). */
  readonly endpoint: Result<PolicyEndpoint, PolicyFailureHint>;
  /** Loads the local rules (read before the network, so a broken file costs no request). */
  readonly loadLocalRules: () => Promise<Result<readonly StringRewriteRule[], LocalRulesFailure>>;
}

/**
 * One policy attempt of SPEC.md client rule 15, from scratch every time: the local rules, then
 * a fresh fetch of the server's, then the merge.
 *
 * @returns the compiled guard, or a {@link PolicyFailure} with the attempt's start and elapsed
 *   time
 * @example
 * ```ts
 * const guard = await loadOutboundPolicy({ fetch, now: Date.now, endpoint: ok(auth), loadLocalRules });
 * if (!guard.ok) throw toPolicyFailureError(guard.error);
 * ```
 */
export async function loadOutboundPolicy(
  options: OutboundPolicyOptions,
): Promise<Result<RuleSet, PolicyFailure>> {
  const attemptStartMs = options.now();
  const fail = (stage: StageFailure): Result<RuleSet, PolicyFailure> =>
    err({ ...stage, attemptStartMs, elapsedMs: options.now() - attemptStartMs });
  if (!options.endpoint.ok) return fail({ class: 'setup', hint: options.endpoint.error });
  let local: Result<readonly StringRewriteRule[], LocalRulesFailure>;
  try {
    local = await options.loadLocalRules();
  } catch {
    local = err('local_read');
  }
  if (!local.ok) return fail({ class: local.error });
  const server = await fetchPolicyStage(options.endpoint.value, options);
  if (!server.ok) return fail(server.error);
  const merged = await mergeOutboundRules(server.value, local.value);
  if (!merged.ok) return fail({ class: merged.error });
  return ok(merged.value);
}
