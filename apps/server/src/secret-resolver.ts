import { readFile } from 'node:fs/promises';
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
