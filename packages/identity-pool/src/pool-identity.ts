import type { IdentityKind } from '@relay/protocol';

/** A scope of an identity: an owner (or `'*'` for a broad PAT) and an optional repository. */
export interface PoolIdentityScope {
  /** The owner login, or `'*'`. Compared case-insensitively. */
  readonly owner: string;
  /** The repository name; absent for an owner-wide scope. Compared case-insensitively. */
  readonly repo?: string | undefined;
}

/**
 * An active identity of a pool, as selection and the credential providers need it. Structurally
 * compatible with `IdentityRecord` of `@relay/protocol` after renaming `secret_ref` and
 * `installation_id` (see {@link toPoolIdentity}).
 */
export interface PoolIdentity {
  /** The identity id. */
  readonly id: string;
  /** `pat` or `forge_app`. */
  readonly kind: IdentityKind;
  /** Name of the secret binding holding the PAT, or the app's private key. */
  readonly secretRef: string;
  /** The app installation id (forge_app only). */
  readonly installationId: number | null;
  /**
   * The account login of the identity, when known: the relay never reads an account's own
   * collections with that account's token (compared case-insensitively).
   */
  readonly login?: string | undefined;
  /** What the identity may serve. */
  readonly scopes: readonly PoolIdentityScope[];
  /** Selection weight, added to the remaining budget (default 100). */
  readonly weight: number;
}

/** The fields of a stored identity that {@link toPoolIdentity} reads. */
export interface StoredIdentityFields {
  readonly id: string;
  readonly kind: IdentityKind;
  readonly secret_ref: string;
  readonly installation_id: number | null;
  readonly scopes: readonly PoolIdentityScope[];
  readonly weight: number;
  readonly login?: string | undefined;
}

/**
 * Converts a stored identity (the wire shape of `@relay/protocol`) to a {@link PoolIdentity}.
 *
 * @param stored - an identity record or registration
 */
export function toPoolIdentity(stored: StoredIdentityFields): PoolIdentity {
  return {
    id: stored.id,
    kind: stored.kind,
    secretRef: stored.secret_ref,
    installationId: stored.installation_id,
    ...(stored.login === undefined ? {} : { login: stored.login }),
    scopes: stored.scopes.map(({ owner, repo }) => ({ owner, repo })),
    weight: stored.weight,
  };
}
