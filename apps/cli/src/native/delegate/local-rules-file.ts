import { isAbsolute, join, resolve } from 'node:path';
import { REWRITE_DOCUMENT_MAX_BYTES, err, ok } from '@relay/protocol';
import type { Result, StringRewriteRule } from '@relay/protocol';
import { parsePolicyDocument } from '@relay/rewrite-engine';
import type { CliEnv } from '../../cli-dependencies.js';

/** The variable naming an explicit local rules file. */
export const LOCAL_RULES_FILE_VARIABLE = 'RELAY_STRING_REWRITE_FILE';

/** The default local rules file's name, beside `auth.json` in the config directory. */
export const LOCAL_RULES_FILE_NAME = 'string-rewrites.json';

/**
 * Where the local rules come from: the explicit file of RELAY_STRING_REWRITE_FILE (must exist),
 * or the default file beside `auth.json` (optional: absent means no local rules).
 */
export interface LocalRulesSource {
  readonly path: string;
  readonly explicit: boolean;
}

/**
 * The local rules file (SPEC.md client rule 15): RELAY_STRING_REWRITE_FILE when it is set and
 * nonblank (a relative path is taken from `cwd`), else `string-rewrites.json` in the config
 * directory (DESIGN.md §3, where `auth.json` lives).
 *
 * @param env - the environment
 * @param configDir - the config directory (`resolveConfigDir`)
 * @param cwd - the working directory, for a relative explicit path
 */
export function resolveLocalRulesSource(
  env: CliEnv,
  configDir: string,
  cwd: string,
): LocalRulesSource {
  const explicit = env[LOCAL_RULES_FILE_VARIABLE]?.trim();
  if (explicit !== undefined && explicit !== '') {
    return { path: isAbsolute(explicit) ? explicit : resolve(cwd, explicit), explicit: true };
  }
  return { path: join(configDir, LOCAL_RULES_FILE_NAME), explicit: false };
}

/**
 * Reads at most `maxBytes` bytes of a file. Rejects with the file system's error (its `code`
 * is `ENOENT` for a missing file).
 */
export type BoundedFileReader = (path: string, maxBytes: number) => Promise<Uint8Array>;

/** Why the local rules cannot be used: the class of the policy-failure line. */
export type LocalRulesFailure = 'local_read' | 'local_validation';

function isMissing(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT'
  );
}

/**
 * Loads the local rules: an absent default file is no rules; an explicit file that is missing
 * or unreadable, or a default file that exists but cannot be read, is `local_read`; content
 * that is not a valid import document (`{"schema_version": 1, "rules": [...]}`, at most 65,536
 * bytes, every rule valid) is `local_validation`. The file is never uploaded.
 *
 * @param source - from {@link resolveLocalRulesSource}
 * @param readFile - the bounded reader (one byte past the limit is read, to tell "too large")
 */
export async function loadLocalRules(
  source: LocalRulesSource,
  readFile: BoundedFileReader,
): Promise<Result<readonly StringRewriteRule[], LocalRulesFailure>> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(source.path, REWRITE_DOCUMENT_MAX_BYTES + 1);
  } catch (error) {
    if (!source.explicit && isMissing(error)) return ok([]);
    return err('local_read');
  }
  const document = parsePolicyDocument(bytes);
  if (!document.ok) return err('local_validation');
  return ok(document.value.rules);
}
