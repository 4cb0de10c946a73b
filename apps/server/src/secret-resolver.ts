import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SECRET_REF_PATTERN } from '@relay/protocol';

/** Resolves a secret binding name to its value, or undefined. Never logs either. */
export type SecretReader = (secretRef: string) => Promise<string | undefined>;

/** Where secret bindings live. */
export interface SecretReaderOptions {
  /** RELAY_SECRETS_DIR: binding `X` is the file `<dir>/X`. */
  readonly secretsDir: string | undefined;
  /** The environment: binding `X` is `RELAY_SECRET_X` when no file holds it. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * Creates the secret reader of DESIGN.md §3: binding `X` is the file RELAY_SECRETS_DIR/X, else
 * the variable RELAY_SECRET_X. Names outside `[A-Za-z0-9_.-]{1,128}` resolve to nothing.
 * Values are trimmed; a blank value counts as missing.
 *
 * @param options - the directory and the environment
 */
export function createSecretReader(options: SecretReaderOptions): SecretReader {
  return async (secretRef) => {
    if (!SECRET_REF_PATTERN.test(secretRef) || secretRef === '.' || secretRef === '..') {
      return undefined;
    }
    let value: string | undefined;
    if (options.secretsDir !== undefined) {
      try {
        value = await readFile(join(options.secretsDir, secretRef), 'utf8');
      } catch {
        value = undefined;
      }
    }
    value ??= options.env[`RELAY_SECRET_${secretRef}`];
    const trimmed = value?.trim();
    return trimmed === undefined || trimmed === '' ? undefined : trimmed;
  };
}

/**
 * Permission bits of RELAY_SECRETS_DIR that draw a start-up warning: read or write for the
 * group or for others (`0755`, `0750`, `0770` warn; `0700` and traverse-only `0711` do not).
 */
export const SECRETS_DIR_OPEN_BITS = 0o066;

/**
 * The start-up warning about RELAY_SECRETS_DIR, as one JSON line on stderr. It names neither
 * the directory's files nor any secret binding: only the directory's permission bits.
 */
export interface SecretsDirWarning {
  readonly level: 'warn';
  readonly msg: 'secrets_dir_open_to_others';
  /** The directory's permission bits, in octal (`0755`). */
  readonly mode: string;
}

/**
 * The warning a secrets directory with this mode draws, if any.
 *
 * @param mode - `stat().mode` of the directory
 * @returns the warning when the group or others may read or write it ({@link SECRETS_DIR_OPEN_BITS})
 */
export function toSecretsDirWarning(mode: number): SecretsDirWarning | undefined {
  if ((mode & SECRETS_DIR_OPEN_BITS) === 0) return undefined;
  return {
    level: 'warn',
    msg: 'secrets_dir_open_to_others',
    mode: `0${(mode & 0o777).toString(8).padStart(3, '0')}`,
  };
}

/** Options of {@link checkSecretsDir}. */
export interface CheckSecretsDirOptions {
  /** Reads the directory's mode. Default: `fs.promises.stat`. */
  readonly statMode?: (path: string) => Promise<number>;
  /** The platform; on `win32` mode bits mean nothing and nothing is checked. Default: the process's. */
  readonly platform?: NodeJS.Platform;
}

/**
 * Checks RELAY_SECRETS_DIR's mode at start. A directory that cannot be read is not reported here
 * (its bindings then resolve from the environment, as before).
 *
 * @param secretsDir - RELAY_SECRETS_DIR, or undefined when unset
 * @param options - the stat function and platform (tests)
 * @returns the warning to log, or undefined
 */
export async function checkSecretsDir(
  secretsDir: string | undefined,
  options: CheckSecretsDirOptions = {},
): Promise<SecretsDirWarning | undefined> {
  if (secretsDir === undefined || (options.platform ?? process.platform) === 'win32') {
    return undefined;
  }
  const statMode = options.statMode ?? (async (path: string) => (await stat(path)).mode);
  let mode: number;
  try {
    mode = await statMode(secretsDir);
  } catch {
    return undefined;
  }
  return toSecretsDirWarning(mode);
}
