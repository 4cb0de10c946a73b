import { importPKCS8, SignJWT } from 'jose';
import { err, ok, type Result } from '@relay/protocol';

/** The app JWT's issued-at is set this far back, against clock drift: 60 s. */
export const APP_JWT_BACKDATE_S = 60;
/** The app JWT's lifetime from its (backdated) issued-at: 10 minutes, the forge's maximum. */
export const APP_JWT_LIFETIME_S = 600;

/** A forge app id (RELAY_FORGE_APP_ID): a numeric app id, or a client id such as `Iv23li…`. */
const APP_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const PKCS8_HEADER = '-----BEGIN PRIVATE KEY-----';

/** Whether `value` is a well-formed forge app id. */
export function isForgeAppId(value: string | undefined): value is string {
  return value !== undefined && APP_ID_PATTERN.test(value);
}

/** Input of {@link signAppJwt}. */
export interface AppJwtInput {
  /** The app id, the JWT's issuer. */
  readonly appId: string;
  /** The app's private key: an RSA key in PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`). */
  readonly privateKeyPem: string;
  /** The current time, epoch milliseconds. */
  readonly now: number;
}

/**
 * Signs the RS256 JWT that authenticates a forge app: issuer the app id, issued-at 60 s in the
 * past, expiry 10 minutes after that (9 minutes from now).
 *
 * @returns the compact JWT, or `forge_app_key_format` when the key is PKCS#1
 *   (`-----BEGIN RSA PRIVATE KEY-----`), encrypted, not RSA, or not PEM at all. The key never
 *   appears in the error.
 */
export async function signAppJwt(
  input: AppJwtInput,
): Promise<Result<string, { code: 'forge_app_key_format' }>> {
  const pem = input.privateKeyPem.trim();
  if (!pem.startsWith(PKCS8_HEADER)) return err({ code: 'forge_app_key_format' });
  let key: Awaited<ReturnType<typeof importPKCS8>>;
  try {
    key = await importPKCS8(pem, 'RS256');
  } catch {
    return err({ code: 'forge_app_key_format' });
  }
  const issuedAt = Math.floor(input.now / 1000) - APP_JWT_BACKDATE_S;
  const jwt = await new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(input.appId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + APP_JWT_LIFETIME_S)
    .sign(key);
  return ok(jwt);
}
