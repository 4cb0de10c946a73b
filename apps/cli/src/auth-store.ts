import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { err, getHttpUrlSchema, getPoolIdSchema, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';
import type { CliEnv } from './cli-dependencies.js';

/** The name of the saved-login file in the config directory. */
export const AUTH_FILE_NAME = 'auth.json';

/** The saved login of SPEC.md "Client saved login": URL, pool, token, login, client, timestamp. */
export interface SavedLogin {
  /** The relay's api_base the token belongs to (the token is sent nowhere else). */
  readonly url: string;
  readonly pool: string;
  /** The caller token. */
  readonly token: string;
  /** The forge login the caller is bound to. */
  readonly login: string;
  /** The client name the token was issued to. */
  readonly client: string;
  /** When the login was saved (ISO 8601 UTC). */
  readonly timestamp: string;
}

const SAVED_LOGIN_KEYS = ['url', 'pool', 'token', 'login', 'client', 'timestamp'] as const;

/** Whether `value` is a well-formed saved login (exactly the six string fields). */
export function isSavedLogin(value: unknown): value is SavedLogin {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length !== SAVED_LOGIN_KEYS.length) return false;
  for (const key of SAVED_LOGIN_KEYS) {
    const field = record[key];
    if (typeof field !== 'string' || field.length === 0) return false;
  }
  return (
    getHttpUrlSchema().safeParse(record.url).success &&
    getPoolIdSchema().safeParse(record.pool).success &&
    !Number.isNaN(Date.parse(record.timestamp as string))
  );
}

/** Why the saved login could not be read. */
export interface AuthStoreError {
  readonly code: 'invalid_config';
  /** `unreadable`: the file exists but cannot be read; `malformed`: not a saved login. */
  readonly cause: 'unreadable' | 'malformed';
}

/**
 * The config directory of DESIGN.md §3: RELAY_CONFIG_DIR, else `$XDG_CONFIG_HOME/relay`, else
 * `~/.config/relay`. Blank variables count as unset, and so does a relative XDG_CONFIG_HOME, as
 * the XDG Base Directory specification says (it would put the token file under whatever
 * directory the command runs in — a repository checkout — and lose it from any other).
 */
export function resolveConfigDir(env: CliEnv, homeDir: string): string {
  const explicit = env.RELAY_CONFIG_DIR?.trim();
  if (explicit !== undefined && explicit !== '') return explicit;
  const xdg = env.XDG_CONFIG_HOME?.trim();
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'relay');
  return join(homeDir, '.config', 'relay');
}

/**
 * Reads `auth.json` from `configDir`. A missing file is `ok(undefined)` (not logged in).
 */
export async function readSavedLogin(
  configDir: string,
): Promise<Result<SavedLogin | undefined, AuthStoreError>> {
  let text: string;
  try {
    text = await readFile(join(configDir, AUTH_FILE_NAME), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ok(undefined);
    return err({ code: 'invalid_config', cause: 'unreadable' });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return err({ code: 'invalid_config', cause: 'malformed' });
  }
  return isSavedLogin(json) ? ok(json) : err({ code: 'invalid_config', cause: 'malformed' });
}

/**
 * Writes `auth.json` with mode 0600 (the directory 0700 when it is created): written to a
 * private temporary file, then renamed over the old one, so that no reader sees half a file
 * and the token is never readable by others, even for a moment.
 */
export async function writeSavedLogin(
  configDir: string,
  login: SavedLogin,
  now: () => number,
): Promise<void> {
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  const target = join(configDir, AUTH_FILE_NAME);
  const temporary = join(configDir, `.${AUTH_FILE_NAME}.${process.pid}.${now()}.tmp`);
  await writeFile(temporary, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(temporary, 0o600);
  await rename(temporary, target);
}
