import { err, ok, type Result } from '@relay/protocol';
import {
  PooledCredential,
  type CredentialError,
  type CredentialProvider,
  type SecretResolver,
} from './credential.js';
import type { PoolIdentity } from './pool-identity.js';

/** Options of {@link createPatCredentialProvider}. */
export interface PatCredentialProviderOptions {
  /** Reads a secret binding by name, at request time. */
  readonly resolveSecret: SecretResolver;
}

/** A token usable in an Authorization header: visible ASCII, no spaces, at most 1 KiB. */
const TOKEN_PATTERN = /^[\x21-\x7e]{1,1024}$/;

/**
 * Reads a secret binding and checks that it holds a usable token (surrounding whitespace, such as
 * a trailing newline of a secret file, is trimmed).
 *
 * @returns the token, or `secret_unavailable` / `secret_invalid`
 */
export async function readTokenSecret(
  resolveSecret: SecretResolver,
  secretRef: string,
): Promise<Result<string, CredentialError>> {
  let value: string | undefined;
  try {
    value = await resolveSecret(secretRef);
  } catch {
    return err({ code: 'secret_unavailable' });
  }
  if (value === undefined) return err({ code: 'secret_unavailable' });
  const token = value.trim();
  return TOKEN_PATTERN.test(token) ? ok(token) : err({ code: 'secret_invalid' });
}

/**
 * The `pat` credential provider: reads the PAT from the secret binding named by `secret_ref` at
 * every request (nothing is cached, so a rotated binding takes effect on the next request).
 *
 * @example
 * ```ts
 * const pat = createPatCredentialProvider({ resolveSecret: (name) => secrets.read(name) });
 * const credential = await pat.resolve(identity);
 * ```
 */
export function createPatCredentialProvider(
  options: PatCredentialProviderOptions,
): CredentialProvider {
  return {
    async resolve(identity: PoolIdentity): Promise<Result<PooledCredential, CredentialError>> {
      const token = await readTokenSecret(options.resolveSecret, identity.secretRef);
      return token.ok ? ok(new PooledCredential('pat', token.value)) : token;
    },
    invalidate(): void {
      // Nothing cached.
    },
  };
}
