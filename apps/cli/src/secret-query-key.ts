/**
 * Whether a query key looks secret-bearing. The same rule as the relay's
 * (`@relay/route-classifier` `isSecretQueryKey`): normalized (percent-decoded, lowercased, only
 * a-z and 0-9 kept) it is a short secret name, starts with `auth` (not `author`), or contains a
 * secret fragment. A key with broken percent-encoding counts as secret-bearing.
 */
export function isSecretQueryKey(key: string): boolean {
  let current = key;
  for (let round = 0; round < 4 && current.includes('%'); round += 1) {
    try {
      const next = decodeURIComponent(current);
      if (next === current) break;
      current = next;
    } catch {
      return true;
    }
  }
  const normalized = current.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (SECRET_NAMES.has(normalized)) return true;
  if (normalized.startsWith('auth') && !normalized.startsWith('author')) return true;
  return SECRET_FRAGMENTS.some((fragment) => normalized.includes(fragment));
}

const SECRET_NAMES: ReadonlySet<string> = new Set(['auth', 'sig', 'pass', 'pwd', 'otp', 'sid']);

const SECRET_FRAGMENTS: readonly string[] = [
  'token',
  'secret',
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'apikey',
  'accesskey',
  'privatekey',
  'authkey',
  'authorization',
  'authentication',
  'credential',
  'signature',
  'hmac',
  'oauth',
  'bearer',
  'jwt',
  'cookie',
  'session',
];
