import type { ErrorCode, IdentityKind, Result } from '@relay/protocol';
import type { PoolIdentity } from './pool-identity.js';

const REDACTED = '[redacted credential]';

/**
 * A resolved pooled credential. The token is reachable only through {@link
 * PooledCredential.reveal} and {@link PooledCredential.toAuthorizationHeader}: serializing or
 * inspecting the object shows no secret.
 */
export class PooledCredential {
  /** The kind of identity it belongs to. */
  readonly kind: IdentityKind;
  /** When an installation token was minted, epoch milliseconds (undefined for PATs). */
  readonly mintedAt: number | undefined;
  /** When an installation token expires, epoch milliseconds (undefined for PATs). */
  readonly expiresAt: number | undefined;
  readonly #token: string;

  /**
   * @param kind - the identity kind
   * @param token - the secret token
   * @param times - mint and expiry times of an installation token
   */
  constructor(
    kind: IdentityKind,
    token: string,
    times: { readonly mintedAt?: number; readonly expiresAt?: number } = {},
  ) {
    this.kind = kind;
    this.mintedAt = times.mintedAt;
    this.expiresAt = times.expiresAt;
    this.#token = token;
  }

  /** The secret token itself. Only the transport that sends it upstream should call this. */
  reveal(): string {
    return this.#token;
  }

  /** The `Authorization` header value for the forge: `Bearer <token>`. */
  toAuthorizationHeader(): string {
    return `Bearer ${this.#token}`;
  }

  /** JSON never carries the token. */
  toJSON(): { kind: IdentityKind; credential: string } {
    return { kind: this.kind, credential: REDACTED };
  }

  /** `util.inspect` never shows the token. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `PooledCredential { kind: '${this.kind}', ${REDACTED} }`;
  }

  /** String conversion never shows the token. */
  toString(): string {
    return REDACTED;
  }
}

/**
 * Why a credential could not be resolved. No variant carries a secret, a secret binding name or a
 * forge response body.
 *
 * - `secret_unavailable`: the secret binding is missing or unreadable (local).
 * - `secret_invalid`: the binding's value is empty or not a usable token (local).
 * - `forge_app_key_format`: the app private key is not an RS256 PKCS#8 PEM (local).
 * - `forge_app_id_missing`: RELAY_FORGE_APP_ID is unset or malformed (local).
 * - `installation_missing`: a forge_app identity without a positive installation id (local).
 * - `token_exchange_failed`: the forge refused the installation token exchange or could not be
 *   reached (upstream); `status` is the HTTP status when it answered, `retryAfterMs` its
 *   Retry-After.
 * - `token_exchange_refused`: the relay's own pacing (its upstream governor) refused to send the
 *   exchange: nothing reached the forge, so the identity is not at fault and does not cool down.
 */
export type CredentialError =
  | {
      readonly code:
        | 'secret_unavailable'
        | 'secret_invalid'
        | 'forge_app_key_format'
        | 'forge_app_id_missing'
        | 'installation_missing';
    }
  | {
      readonly code: 'token_exchange_failed';
      readonly status: number | undefined;
      readonly retryAfterMs: number | undefined;
    }
  | { readonly code: 'token_exchange_refused' };

/** A code of {@link CredentialError}. */
export type CredentialErrorCode = CredentialError['code'];

/** Whether a credential error is a local failure (the relay's own secret or configuration). */
export function isLocalCredentialError(error: CredentialError): boolean {
  return error.code !== 'token_exchange_failed' && error.code !== 'token_exchange_refused';
}

/**
 * The catalogue code the relay answers with when every selected credential failed and `error` was
 * the first failure: 503 `forge_app_key_format` for a PKCS#1 (or otherwise unusable) app key, 502
 * `forge_unreachable` for a failed token exchange, `relay_overloaded` for an exchange the relay's
 * own pacing refused, else the generic 503 `credentials_unavailable` (which never names a
 * binding).
 */
export function toCredentialErrorCode(
  error: CredentialError,
): Extract<
  ErrorCode,
  'forge_app_key_format' | 'credentials_unavailable' | 'forge_unreachable' | 'relay_overloaded'
> {
  switch (error.code) {
    case 'forge_app_key_format':
      return 'forge_app_key_format';
    case 'token_exchange_failed':
      return 'forge_unreachable';
    case 'token_exchange_refused':
      return 'relay_overloaded';
    case 'secret_unavailable':
    case 'secret_invalid':
    case 'forge_app_id_missing':
    case 'installation_missing':
      return 'credentials_unavailable';
  }
}

/**
 * Reads a secret binding by name at request time (DESIGN.md §3: the file
 * `RELAY_SECRETS_DIR/<name>`, else the variable `RELAY_SECRET_<name>`; the server supplies it).
 * Resolves `undefined` when the binding is missing; a rejection counts as unreadable.
 */
export type SecretResolver = (secretRef: string) => Promise<string | undefined>;

/** Resolves the credential of a selected identity. */
export interface CredentialProvider {
  /** The credential of `identity`, or why it is unavailable. */
  resolve(identity: PoolIdentity): Promise<Result<PooledCredential, CredentialError>>;
  /** Drops any cached credential of `identity` (after a 401). */
  invalidate(identity: PoolIdentity): void;
}

/**
 * One provider per identity kind, dispatched by `identity.kind`.
 *
 * @param providers - the pat and forge_app providers
 */
export function combineCredentialProviders(
  providers: Readonly<Record<IdentityKind, CredentialProvider>>,
): CredentialProvider {
  return {
    resolve: (identity) => providers[identity.kind].resolve(identity),
    invalidate: (identity) => {
      providers[identity.kind].invalidate(identity);
    },
  };
}
