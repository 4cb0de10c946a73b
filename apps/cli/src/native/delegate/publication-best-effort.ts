import { err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';
import type { RuleSet } from '@relay/rewrite-engine';
import { CONTENT_BUDGET_BYTES } from './publication-content.js';
import type { ContentRefusal } from './publication-content.js';
import { contentFileViews } from './outbound-decoded-views.js';
import { containsActiveRuleJson } from './publication-rule-json.js';

/**
 * A file an unmodeled command names for gh to read content from: the token at `index` of the
 * argv is `prefix` + `path` (`--body-file=` + path, `body=@` + path, or the path alone after
 * its flag). `path` `-` is standard input.
 */
export interface FileArgument {
  readonly index: number;
  readonly prefix: string;
  readonly path: string;
  /**
   * Set when gh also uses the file's name (a `gist create` file, `gist edit --add`): the
   * argument then stays as it is; any other file gh reads only for its content, so relay hands
   * gh the private snapshot of the text it checked instead.
   */
  readonly named?: true;
}

/** Flags whose value is a content file, for commands other than `api` and `workflow run`. */
const CONTENT_FILE_FLAGS = new Set(['--body-file', '--notes-file']);
/** Commands whose `-F`/`--field` is gh's typed field (`key=@file` reads a file). */
const FIELD_COMMANDS = new Set(['api', 'workflow run']);

/** The value of a flag token: `{ index, prefix, value }` of where the value stands. */
function valueOf(
  argv: readonly string[],
  index: number,
  long: string,
  short: string,
): { index: number; prefix: string; value: string } | undefined {
  const token = argv[index] ?? '';
  if (token === long || token === short) {
    const value = argv[index + 1];
    return value === undefined ? undefined : { index: index + 1, prefix: '', value };
  }
  if (token.startsWith(`${long}=`))
    return { index, prefix: `${long}=`, value: token.slice(long.length + 1) };
  if (short !== '' && token.startsWith(short) && token.length > 2) {
    const prefix = token.charAt(2) === '=' ? `${short}=` : short;
    return { index, prefix, value: token.slice(prefix.length) };
  }
  return undefined;
}

/**
 * Finds the content files of an unmodeled gh argv, best effort (SPEC.md client rule 16): for
 * `api` and `workflow run`, the `-F`/`--field` values `key=@path` and `api`'s `--input path`;
 * for every other command, the values of `--body-file`, `--notes-file` and `-F` (their
 * shorthand in gh's issue, pr and release commands). Tokens after `--` are positional.
 * For `gist create`, its file arguments (a gist is public content), except `-`: gh names a gist
 * file read from standard input itself, so that input is checked and handed to gh as its
 * standard input instead ({@link gistStandardInput}). For `gist edit`, its source file (`-`:
 * standard input), else the file of `--add`. Anything gh reads by other means (templates,
 * editors, recovery files, a file of an unknown flag) is not found: that is what "best
 * effort" leaves out.
 *
 * @param argv - gh's argv
 */
export function locateFileArguments(argv: readonly string[]): FileArgument[] {
  const command = `${argv[0] ?? ''} ${argv[1] ?? ''}`;
  if (command === 'gist create') return locateGistFiles(argv);
  if (command === 'gist edit') return locateGistEditFiles(argv);
  if (command === 'variable set') {
    return flagOccurrences(argv, '--env-file', '-f')
      .filter(({ value }) => value !== '')
      .map(({ index, prefix, value }) => ({ index, prefix, path: value }));
  }
  const fieldCommand = argv[0] === 'api' || FIELD_COMMANDS.has(command);
  const found: FileArgument[] = [];
  for (let index = 0; index < argv.length; index++) {
    const token = argv[index] ?? '';
    if (token === '--') break;
    if (!token.startsWith('-')) continue;
    if (fieldCommand) {
      const field = valueOf(argv, index, '--field', '-F');
      if (field !== undefined) {
        const at = field.value.indexOf('=@');
        if (at > 0) {
          found.push({
            index: field.index,
            prefix: `${field.prefix}${field.value.slice(0, at + 2)}`,
            path: field.value.slice(at + 2),
          });
        }
        index = field.index;
        continue;
      }
      const input = argv[0] === 'api' ? valueOf(argv, index, '--input', '') : undefined;
      if (input !== undefined) {
        found.push({ index: input.index, prefix: input.prefix, path: input.value });
        index = input.index;
      }
      continue;
    }
    const value =
      [...CONTENT_FILE_FLAGS].map((long) => valueOf(argv, index, long, '')).find(Boolean) ??
      (token.startsWith('-F') ? valueOf(argv, index, '-F', '-F') : undefined);
    if (value !== undefined) {
      found.push({ index: value.index, prefix: value.prefix, path: value.value });
      index = value.index;
    }
  }
  return found.filter((file) => file.path !== '');
}

/** `gist create`'s value flags (gh v2.60.0: `--desc/-d`, `--filename/-f`). */
const GIST_VALUE_FLAGS = new Set(['--desc', '-d', '--filename', '-f']);
/** `gist edit`'s value flags (gh v2.60.0: `--add/-a`, `--desc/-d`, `--filename/-f`, `--remove/-r`). */
const GIST_EDIT_VALUE_FLAGS = new Set([...GIST_VALUE_FLAGS, '--add', '-a', '--remove', '-r']);

/** The positionals of a `gist` command with their argv index (flags and their values skipped). */
function gistPositionals(
  argv: readonly string[],
  valueFlags: ReadonlySet<string>,
): { index: number; value: string }[] {
  const found: { index: number; value: string }[] = [];
  let positional = false;
  for (let index = 2; index < argv.length; index++) {
    const token = argv[index] ?? '';
    if (!positional && token === '--') {
      positional = true;
      continue;
    }
    if (!positional && token.startsWith('-') && token !== '-') {
      if (valueFlags.has(token)) index += 1;
      continue;
    }
    found.push({ index, value: token });
  }
  return found;
}

/** The named files of `gist create` (positionals; `-` is left to gh). */
function locateGistFiles(argv: readonly string[]): FileArgument[] {
  return gistPositionals(argv, GIST_VALUE_FLAGS)
    .filter(({ value }) => value !== '-' && value !== '')
    .map(({ index, value }) => ({ index, prefix: '', path: value, named: true }));
}

/**
 * The content file of `gist edit <gist> [<source>]`: the source (`-` is standard input), else
 * the file `--add` names (gh reads it when no source is given).
 */
function locateGistEditFiles(argv: readonly string[]): FileArgument[] {
  const source = gistPositionals(argv, GIST_EDIT_VALUE_FLAGS)[1];
  if (source !== undefined) {
    return source.value === '' ? [] : [{ index: source.index, prefix: '', path: source.value }];
  }
  for (let index = 2; index < argv.length; index++) {
    const token = argv[index] ?? '';
    if (token === '--') break;
    if (!token.startsWith('-')) continue;
    const add = valueOf(argv, index, '--add', '-a');
    if (add !== undefined) {
      if (add.value === '') return [];
      return [{ index: add.index, prefix: add.prefix, path: add.value, named: true }];
    }
    if (GIST_EDIT_VALUE_FLAGS.has(token)) index += 1;
  }
  return [];
}

/** Every occurrence of a value flag before `--`, in any of pflag's spellings. */
function flagOccurrences(
  argv: readonly string[],
  long: string,
  short: string,
): { index: number; prefix: string; value: string }[] {
  const found: { index: number; prefix: string; value: string }[] = [];
  for (let index = 2; index < argv.length; index++) {
    const token = argv[index] ?? '';
    if (token === '--') break;
    if (!token.startsWith('-')) continue;
    const value = valueOf(argv, index, long, short);
    if (value !== undefined) {
      found.push(value);
      index = value.index;
    }
  }
  return found;
}

/** How an unmodeled command reads content from standard input (see {@link standardInputContent}). */
export type StandardInputUse = 'always' | 'when_piped' | 'never';

/**
 * Whether an unmodeled command publishes what it reads from standard input, and not through a
 * named `-` (that one is swapped for a snapshot): `gist create` ({@link gistStandardInput});
 * `workflow run --json` (the workflow's inputs, read when standard input is not a terminal);
 * `variable set` without a nonempty `--body` and without `--env-file` (the variable's value,
 * read when standard input is not a terminal; gh prompts on a terminal). Relay reads that
 * input, checks it, and hands it to gh as its standard input.
 *
 * @param argv - gh's argv
 */
export function standardInputContent(argv: readonly string[]): StandardInputUse {
  const command = `${argv[0] ?? ''} ${argv[1] ?? ''}`;
  if (command === 'gist create') return gistStandardInput(argv);
  if (command === 'workflow run') {
    const end = argv.indexOf('--');
    const flags = end < 0 ? argv : argv.slice(0, end);
    return flags.some(
      (token) => token === '--json' || /^--json=(?:1|t|T|true|TRUE|True)$/.test(token),
    )
      ? 'when_piped'
      : 'never';
  }
  if (command === 'variable set') {
    const body = flagOccurrences(argv, '--body', '-b').some(({ value }) => value !== '');
    const envFile = flagOccurrences(argv, '--env-file', '-f').length > 0;
    return body || envFile ? 'never' : 'when_piped';
  }
  return 'never';
}

/**
 * Whether `gist create` reads a gist file from standard input: `always` when `-` is one of its
 * files, `when_piped` when it names no file (gh reads standard input unless it is a terminal),
 * else `never`. gh names that file itself (`gistfile<N>.txt`, or `--filename`), so relay checks
 * the text and hands it to gh as its standard input rather than as a named snapshot.
 *
 * @param argv - gh's argv
 */
export function gistStandardInput(argv: readonly string[]): StandardInputUse {
  if (argv[0] !== 'gist' || argv[1] !== 'create') return 'never';
  const files = gistPositionals(argv, GIST_VALUE_FLAGS);
  if (files.length === 0) return 'when_piped';
  return files.some(({ value }) => value === '-') ? 'always' : 'never';
}

/**
 * Checks the texts read from an unmodeled command's content files: together at most 1 MiB
 * (a larger file is refused, never half-checked), no active rule JSON, and no active pattern
 * (`check`: an unmodeled command is never rewritten, a match refuses) in the text or in any of
 * its escaped JSON and GraphQL strings decoded ({@link contentFileViews}: `gh api --input` sends
 * a JSON body the forge decodes, so `"\u0041"` is checked as `A`; a GraphQL query likewise).
 *
 * @param ruleSet - the merged guard of this dispatch
 * @param texts - the decoded texts, in argv order
 */
export function checkFileContents(
  ruleSet: RuleSet,
  texts: readonly string[],
): Result<void, ContentRefusal> {
  const encoder = new TextEncoder();
  let total = 0;
  for (const text of texts) total += encoder.encode(text).byteLength;
  if (total > CONTENT_BUDGET_BYTES) return err({ code: 'content_budget', field: 'content file' });
  const patterns = ruleSet.rules.map((rule) => rule.pattern);
  for (const text of texts) {
    if (containsActiveRuleJson(text, patterns)) {
      return err({ code: 'active_rule_json', field: 'content file' });
    }
    for (const view of [text, ...contentFileViews(text)]) {
      const checked = ruleSet.check(view);
      if (!checked.ok) return err({ code: 'file_blocked', failure: checked.error });
    }
  }
  return ok(undefined);
}
