import { GH_COMMAND_GROUPS } from '../argv/gh-command-table.js';

/**
 * gh's argv with its command words first, as cobra reads it: gh's commands are cobra commands,
 * and cobra's `Find` skips flags before a command word (`stripFlags`), so `gh -R o/r issue
 * create …`, `gh -d notes gist create f.txt` and `gh -X POST api path --input f.json` run
 * `issue create`, `gist create` and `api` with those flags. Relay's publication models and its
 * best-effort file and stdin rules read the command from the argv's first words; they read
 * this order instead, so a flag moved before the command changes nothing.
 */
export interface CommandOrder {
  /** The argv with the command words first, then every other token in its order. */
  readonly argv: readonly string[];
  /** For each token of {@link argv}, its index in the original argv. */
  readonly original: readonly number[];
}

/** Flags cobra knows as booleans at the root (gh's `--help`, `--version`). */
const ROOT_BOOLEANS: ReadonlySet<string> = new Set(['--help', '-h', '--version']);
/** Flags cobra knows as booleans on a command group (`--help`; `-R/--repo` takes a value). */
const GROUP_BOOLEANS: ReadonlySet<string> = new Set(['--help', '-h']);

/**
 * The position (in `indices`) of the next command word, as cobra's stripFlags finds it: `--`
 * ends the search; `--x` without `=` and a two-letter `-x` take the next token as their value
 * unless cobra knows them as booleans (with fewer than two tokens after them the search ends);
 * any other token starting with `-` is skipped alone.
 */
function nextCommandWord(
  argv: readonly string[],
  indices: readonly number[],
  booleans: ReadonlySet<string>,
): number | undefined {
  let at = 0;
  while (at < indices.length) {
    const token = argv[indices[at] ?? -1] ?? '';
    if (token === '--') return undefined;
    const takesValue =
      !token.includes('=') &&
      !booleans.has(token) &&
      (token.startsWith('--') || (token.startsWith('-') && token.length === 2));
    if (takesValue) {
      if (indices.length - (at + 1) <= 1) return undefined;
      at += 2;
      continue;
    }
    if (token !== '' && !token.startsWith('-')) return at;
    at += 1;
  }
  return undefined;
}

/**
 * Puts the command words of a gh argv first (the command, and a group's verb), the other
 * tokens after them in their order. An argv that already starts with its command words, or
 * has none, is returned as it is.
 *
 * @param argv - gh's argv
 * @example
 * ```ts
 * commandOrder(['-R', 'o/r', 'issue', 'comment', '3']).argv;
 * // ['issue', 'comment', '-R', 'o/r', '3']
 * ```
 */
export function commandOrder(argv: readonly string[]): CommandOrder {
  const words = commandWordIndices(argv);
  const original = [...words, ...[...argv.keys()].filter((index) => !words.includes(index))];
  return { argv: original.map((index) => argv[index] ?? ''), original };
}

/**
 * The argv indices of gh's command words as cobra finds them: the command, and when it is a
 * command group, the next word (its verb, or a nested alias's name); none, one or two.
 *
 * @param argv - gh's argv
 */
export function commandWordIndices(argv: readonly string[]): number[] {
  const rest = [...argv.keys()];
  const words: number[] = [];
  const first = nextCommandWord(argv, rest, ROOT_BOOLEANS);
  if (first === undefined) return words;
  words.push(...rest.splice(first, 1));
  if (Object.hasOwn(GH_COMMAND_GROUPS, argv[words[0] ?? -1] ?? '')) {
    const second = nextCommandWord(argv, rest, GROUP_BOOLEANS);
    if (second !== undefined) words.push(...rest.splice(second, 1));
  }
  return words;
}
