import { err, ok, type Result } from '@relay/protocol';
import type {
  ForgeResponse,
  ForgeTransport,
  ForgeTransportError,
  RewriteCheck,
} from '@relay/forge-transport';
import type { UpstreamOutcome } from '@relay/identity-pool';
import { isGovernorRefusal } from '../governor/governed-transport.js';
import { isAnonymousQuotaExhausted } from '../pipeline/token-free-lanes.js';

/** A forge account: its immutable id and current login. */
export interface ForgeAccount {
  readonly id: number;
  readonly login: string;
}

/** An account's own view of its membership in an organization. */
export type MembershipState = 'active' | 'pending' | 'none';

/**
 * Why a forge account call failed.
 *
 * - `forge_token_invalid`: the forge rejected the presented token (401).
 * - `forge_unreachable`: the forge could not be reached or answered something unusable.
 * - `forge_timeout`: the forge did not answer in time.
 * - `string_rewrite_denied`: the outgoing URL matched an active rewrite pattern.
 * - `relay_overloaded`: the upstream governor refused the read (its sender had no headroom
 *   within the wait); nothing was sent.
 */
export type ForgeAccountErrorCode =
  | 'forge_token_invalid'
  | 'forge_unreachable'
  | 'forge_timeout'
  | 'string_rewrite_denied'
  | 'relay_overloaded';

/** A failed forge account call; carries no URL, token or body. */
export interface ForgeAccountError {
  readonly code: ForgeAccountErrorCode;
}

/**
 * A forge call and what the forge showed of it: the `outcome` a pooled identity's health
 * feedback reads (the status and headers of an answer, or a timeout or unreachable forge), or
 * undefined when the forge was not reached or its answer says nothing of the identity (a
 * rewrite denial, a refused redirect, a body over the cap).
 */
export interface ObservedForgeCall<T> {
  readonly result: Result<T, ForgeAccountError>;
  readonly outcome: UpstreamOutcome | undefined;
}

/** The forge calls of login and provisioning. Every call runs the given rewrite check. */
export interface ForgeAccountClient {
  /** GET /user with the account's own token. */
  getAuthenticatedUser(
    token: string,
    rewriteCheck: RewriteCheck,
  ): Promise<Result<ForgeAccount, ForgeAccountError>>;
  /** GET /user/memberships/orgs/{org} with the account's own token. */
  getOwnMembership(
    token: string,
    org: string,
    rewriteCheck: RewriteCheck,
  ): Promise<Result<MembershipState, ForgeAccountError>>;
  /**
   * GET /users/{login} (anonymous, or with a pooled identity's `authorization`); undefined when
   * there is no such account. A 401 is `forge_unreachable`: the identity's credential, not the
   * account, was refused.
   */
  getUser(
    login: string,
    rewriteCheck: RewriteCheck,
    authorization?: string,
  ): Promise<ObservedForgeCall<ForgeAccount | undefined>>;
  /**
   * Whether `login` is a member of `org`: GET /orgs/{org}/members/{login} with an
   * `authorization` of an identity, else the anonymous GET /orgs/{org}/public_members/{login}.
   */
  isOrgMember(
    org: string,
    login: string,
    rewriteCheck: RewriteCheck,
    authorization?: string,
  ): Promise<ObservedForgeCall<boolean>>;
}

const ACCEPT = { accept: 'application/vnd.github+json' };

function mapTransportError(error: ForgeTransportError): ForgeAccountError {
  if (isGovernorRefusal(error)) return { code: 'relay_overloaded' };
  switch (error.code) {
    case 'forge_timeout':
      return { code: 'forge_timeout' };
    case 'string_rewrite_denied':
      return { code: 'string_rewrite_denied' };
    case 'aborted':
    case 'forge_redirect_denied':
    case 'forge_response_too_large':
    case 'forge_unreachable':
    case 'invalid_header':
    case 'invalid_path':
      return { code: 'forge_unreachable' };
  }
}

const TRANSIENT_TRANSPORT_ERRORS: readonly ForgeTransportError['code'][] = [
  'forge_timeout',
  'forge_unreachable',
];

/**
 * What a transport result tells the identity pool: the answer's status and headers, a
 * transport failure (timeout, unreachable), or nothing (the forge was not reached, or the
 * failure is the relay's own: rewrite denial, refused redirect, size cap).
 */
function toUpstreamOutcome(
  result: Result<ForgeResponse, ForgeTransportError>,
): UpstreamOutcome | undefined {
  if (result.ok) {
    return { kind: 'response', status: result.value.status, headers: result.value.headers };
  }
  return TRANSIENT_TRANSPORT_ERRORS.includes(result.error.code)
    ? { kind: 'transport_error' }
    : undefined;
}

/**
 * Whether the forge throttled the read instead of answering it: a 429, or a 403 with
 * `x-ratelimit-remaining: 0` or a `Retry-After` (the test the anonymous lane applies). SPEC.md:
 * a 403 alone establishes nothing, so a plain 403 stays an answer.
 */
function isThrottled(response: ForgeResponse): boolean {
  return isAnonymousQuotaExhausted(response);
}

function readAccount(response: ForgeResponse): ForgeAccount | undefined {
  if (response.body.encoding !== 'json') return undefined;
  const body = response.body.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { id, login } = body as { id?: unknown; login?: unknown };
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return undefined;
  if (typeof login !== 'string' || login.length === 0) return undefined;
  return { id, login };
}

function readUserAnswer(
  result: Result<ForgeResponse, ForgeTransportError>,
): Result<ForgeAccount | undefined, ForgeAccountError> {
  if (!result.ok) return err(mapTransportError(result.error));
  if (result.value.status === 404) return ok(undefined);
  const account = result.value.status === 200 ? readAccount(result.value) : undefined;
  return account === undefined ? err({ code: 'forge_unreachable' }) : ok(account);
}

function readMembershipAnswer(
  result: Result<ForgeResponse, ForgeTransportError>,
): Result<boolean, ForgeAccountError> {
  if (!result.ok) {
    // 302: the identity cannot see the organization's private members.
    if (result.error.code === 'forge_redirect_denied') return ok(false);
    return err(mapTransportError(result.error));
  }
  if (result.value.status === 204) return ok(true);
  // A throttled 403 (a secondary rate limit, or no budget left) is the forge failing, not a
  // verdict on membership: only a plain 403 says the reader may not see it.
  if (isThrottled(result.value)) return err({ code: 'forge_unreachable' });
  if ([302, 403, 404].includes(result.value.status)) return ok(false);
  return err({ code: 'forge_unreachable' });
}

/**
 * Creates the forge account client on @relay/forge-transport, the only door to the forge: the
 * calls get its host allowlist, deadline, size cap and rewrite check.
 *
 * @param transport - the forge transport
 */
export function createForgeAccountClient(transport: ForgeTransport): ForgeAccountClient {
  const get = (path: string, rewriteCheck: RewriteCheck, authorization?: string) =>
    transport.request({
      host: 'api',
      path,
      headers: ACCEPT,
      rewriteCheck,
      ...(authorization === undefined ? {} : { authorization }),
    });

  return {
    async getAuthenticatedUser(token, rewriteCheck) {
      const result = await get('/user', rewriteCheck, `Bearer ${token}`);
      if (!result.ok) return err(mapTransportError(result.error));
      if (result.value.status === 401) return err({ code: 'forge_token_invalid' });
      const account = result.value.status === 200 ? readAccount(result.value) : undefined;
      return account === undefined ? err({ code: 'forge_unreachable' }) : ok(account);
    },

    async getOwnMembership(token, org, rewriteCheck) {
      const path = `/user/memberships/orgs/${encodeURIComponent(org)}`;
      const result = await get(path, rewriteCheck, `Bearer ${token}`);
      if (!result.ok) return err(mapTransportError(result.error));
      const { status, body } = result.value;
      if (status === 401) return err({ code: 'forge_token_invalid' });
      if (isThrottled(result.value)) return err({ code: 'forge_unreachable' });
      if (status === 403 || status === 404) return ok('none');
      if (status !== 200 || body.encoding !== 'json') return err({ code: 'forge_unreachable' });
      const state =
        typeof body.body === 'object' && body.body !== null && !Array.isArray(body.body)
          ? (body.body as { state?: unknown }).state
          : undefined;
      return ok(state === 'active' ? 'active' : state === 'pending' ? 'pending' : 'none');
    },

    async getUser(login, rewriteCheck, authorization) {
      const result = await get(`/users/${encodeURIComponent(login)}`, rewriteCheck, authorization);
      return { result: readUserAnswer(result), outcome: toUpstreamOutcome(result) };
    },

    async isOrgMember(org, login, rewriteCheck, authorization) {
      const segment = authorization === undefined ? 'public_members' : 'members';
      const path = `/orgs/${encodeURIComponent(org)}/${segment}/${encodeURIComponent(login)}`;
      const result = await get(path, rewriteCheck, authorization);
      return { result: readMembershipAnswer(result), outcome: toUpstreamOutcome(result) };
    },
  };
}
