import { GH_COMMAND_GROUPS, GH_TOP_LEVEL_COMMANDS } from '../argv/gh-command-table.js';
import { commandWordIndices } from './native-command-order.js';
import { argumentTexts } from './outbound-content-check.js';
import { GH_HELP_TOPICS } from './protected-invocation.js';

/**
 * gh's user aliases (`gh alias set`, `alias import`, or config.yml's `aliases:`) on the
 * best-effort path of SPEC.md client rule 16. gh v2.60 expands a plain alias itself
 * (pkg/cmd/root/alias.go: each `$N` replaced by the N-th argument, then the text split like a
 * shell line, then run as gh's own argv), so the command gh runs, and what it publishes, is not
 * in the argv relay checked: `gh alias set ic 'issue comment 1 --body SE\CRET'` then `gh ic`, or
 * `--body SEC$1` with the argument `RET`, publish SECRET. A shell alias (`!…`) runs `sh -c` with
 * the arguments. Relay reads the alias table from the native gh (`gh alias list`) when an argv's
 * command is not one of gh's own, and checks the expansion as gh will read it.
 */

/** gh v2.60's own top-level commands besides {@link GH_COMMAND_GROUPS} (pkg/cmd/root/root.go). */
const OTHER_BUILT_IN_COMMANDS: readonly string[] = ['help', 'version', 'actions', 'credits'];

/** Whether `word` is one of gh's own top-level commands (or a help topic). */
function isBuiltInCommand(word: string): boolean {
  return (
    Object.hasOwn(GH_COMMAND_GROUPS, word) ||
    Object.hasOwn(GH_TOP_LEVEL_COMMANDS, word) ||
    GH_HELP_TOPICS.includes(word) ||
    OTHER_BUILT_IN_COMMANDS.includes(word)
  );
}

/** A name an argv may invoke as an alias, and the argv indices of its words. */
export interface AliasCandidate {
  readonly name: string;
  readonly indices: readonly number[];
}

/**
 * The alias names an argv may invoke: its command word when that is not a gh command (an
 * alias, an extension or a typo), or `<group> <word>` when the command word is a gh command
 * group and the next word is none of its verbs (gh v2.60 nests aliases under groups:
 * `gh alias set 'issue mine' …`). Flags may stand before either word, as cobra allows
 * (`gh -R o/r co`, `gh pr -R o/r mine`): the words are found as cobra finds them
 * ({@link commandWordIndices}). Empty for gh's own commands: an alias cannot shadow one.
 *
 * @param argv - gh's argv
 */
export function aliasCandidates(argv: readonly string[]): AliasCandidate[] {
  const [first, second] = commandWordIndices(argv);
  if (first === undefined) return [];
  const word = argv[first] ?? '';
  if (!isBuiltInCommand(word)) return [{ name: word, indices: [first] }];
  const group = Object.hasOwn(GH_COMMAND_GROUPS, word) ? GH_COMMAND_GROUPS[word] : undefined;
  if (group === undefined || second === undefined) return [];
  const verb = argv[second] ?? '';
  if (group.reads.includes(verb) || group.writes.includes(verb)) return [];
  return [{ name: `${word} ${verb}`, indices: [first, second] }];
}

/** One alias as `gh alias list` prints it: its name and the readings of its expansion. */
export interface AliasEntry {
  /** The name as printed, and as unquoted when YAML quoted it. */
  readonly names: readonly string[];
  /** The expansion's text as printed, and as unquoted (YAML single or double quotes, a block). */
  readonly expansions: readonly string[];
}

function unquoteYaml(text: string): string[] {
  const views = [text];
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) {
    views.push(text.slice(1, -1).replaceAll("''", "'"));
  } else if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      views.push(JSON.parse(text) as string);
    } catch {
      views.push(text.slice(1, -1));
    }
  }
  return views;
}

/** Where a line's key ends (its `:`): after a quoted key's closing quote, else at `: `. */
function keyEnd(line: string): number {
  const quoted = /^'(?:[^']|'')*'|^"(?:[^"\\]|\\.)*"/.exec(line)?.[0];
  const from = quoted?.length ?? 0;
  const colon = line.slice(from).search(/:(?: |$)/);
  return colon < 0 ? -1 : from + colon;
}

/**
 * Reads the output of `gh alias list` (gh v2.23 through v2.60: one `name: expansion` line per
 * alias, YAML quoting, a multi-line expansion as an indented block under its name), leniently:
 * every reading of a line is kept, since each is checked and a match only refuses.
 *
 * @param text - gh's stdout
 */
export function parseAliasList(text: string): AliasEntry[] {
  const entries: { names: string[]; lines: string[] }[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line === '') continue;
    const last = entries.at(-1);
    if (/^\s/.test(line) && last !== undefined) {
      last.lines.push(line.trim());
      continue;
    }
    const separator = keyEnd(line);
    const rawName = separator < 0 ? line : line.slice(0, separator);
    const value = separator < 0 ? '' : line.slice(separator + 1).trim();
    entries.push({ names: unquoteYaml(rawName), lines: [value] });
  }
  return entries.map(({ names, lines }) => {
    const [head = '', ...rest] = lines;
    const block = /^[|>][-+]?$/.test(head) ? [rest.join('\n')] : [];
    // A long scalar YAML folds onto indented lines: a fold is a space; a block keeps its breaks.
    const folded = rest.length === 0 ? [] : unquoteYaml([head, ...rest].join(' '));
    const joined = [head, ...rest].join('\n');
    return { names, expansions: [...unquoteYaml(joined), ...folded, ...block] };
  });
}

/** gh's `$N` substitution (expandAlias): each `$<i+1>` replaced by the i-th argument. */
function substituteArguments(expansion: string, args: readonly string[]): string {
  let out = expansion;
  for (const [index, arg] of args.entries()) out = out.replaceAll(`$${String(index + 1)}`, arg);
  return out;
}

/** The text with shell quoting taken out: a backslash keeps the next character, quotes go. */
function unquoteShell(text: string): string {
  return text.replace(/\\(.)|['"]/gs, (_match, kept: string | undefined) => kept ?? '');
}

/**
 * The texts to check for an alias invocation: for each reading of the expansion, with the
 * arguments substituted as gh does (and as they are), the text and its shell-unquoted form,
 * and each word of that form with its flag value ({@link argumentTexts}), so that a value
 * gh's shell-like split reassembles (`SE\CRET`, `SE"CR"ET`, `SEC$1` + `RET`) is seen whole.
 *
 * @param entry - the alias
 * @param args - the argv after the alias name
 */
export function aliasExpansionTexts(entry: AliasEntry, args: readonly string[]): string[] {
  const texts = new Set<string>();
  for (const expansion of entry.expansions) {
    for (const text of new Set([expansion, substituteArguments(expansion, args)])) {
      const unquoted = unquoteShell(text);
      texts.add(text);
      texts.add(unquoted);
      for (const word of unquoted.split(/\s+/)) {
        if (word !== '') for (const view of argumentTexts(word)) texts.add(view);
      }
    }
  }
  return [...texts];
}

/**
 * The alias an argv invokes, if any, with the other arguments in order (cobra hands an alias
 * every argument but its own words).
 *
 * @param argv - gh's argv
 * @param entries - from {@link parseAliasList}
 */
export function findAlias(
  argv: readonly string[],
  entries: readonly AliasEntry[],
): { entry: AliasEntry; args: readonly string[] } | undefined {
  for (const candidate of aliasCandidates(argv)) {
    const entry = entries.find(({ names }) => names.includes(candidate.name));
    if (entry !== undefined) {
      return { entry, args: argv.filter((_, index) => !candidate.indices.includes(index)) };
    }
  }
  return undefined;
}
