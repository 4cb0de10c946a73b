/**
 * A strict reading of pflag's grammar for the modeled publications of client rule 16: every
 * flag of the command is declared, and any spelling outside the narrow subset read here makes
 * the invocation "not modeled" (it then takes the best-effort path, never a guess).
 *
 * Read: `--name value`, `--name=value`, `-x value`, `-xVALUE`, `-x=VALUE` for value flags;
 * `--name`, `--name=true|false`, `-x` for booleans; `--` (everything after it is positional).
 * Not read (→ not modeled): combined short booleans (`-dp`), other boolean spellings, `-h`,
 * `--help`, unknown flags, a value flag last on the line.
 */

/** How a flag takes its value. `slice` flags repeat and accumulate. */
export type PublicationFlagKind = 'bool' | 'string' | 'slice';

/** One flag of a modeled command. */
export interface PublicationFlagSpec {
  /** The long name, without dashes. */
  readonly long: string;
  /** The one-letter shorthand, if any. */
  readonly short?: string;
  readonly kind: PublicationFlagKind;
}

/** One flag occurrence: where it stands in the argv and what it said. */
export interface FlagOccurrence {
  readonly spec: PublicationFlagSpec;
  /** Index of the flag's first token in the argv. */
  readonly start: number;
  /** How many tokens it spans (1 or 2). */
  readonly tokens: 1 | 2;
  /** The value (`'true'` / `'false'` for a boolean). */
  readonly value: string;
}

/** A strictly parsed command line. */
export interface ParsedPublicationArgv {
  /** Positional arguments with their argv index. */
  readonly positionals: readonly { readonly index: number; readonly value: string }[];
  /** Every flag occurrence, in order. */
  readonly occurrences: readonly FlagOccurrence[];
}

/** The occurrences of one flag, by long name. */
export function occurrencesOf(
  parsed: ParsedPublicationArgv,
  long: string,
): readonly FlagOccurrence[] {
  return parsed.occurrences.filter((occurrence) => occurrence.spec.long === long);
}

/** The single value of a flag, `undefined` when absent, `null` when given more than once. */
export function singleValue(
  parsed: ParsedPublicationArgv,
  long: string,
): string | undefined | null {
  const found = occurrencesOf(parsed, long);
  if (found.length === 0) return undefined;
  return found.length === 1 ? (found[0]?.value ?? null) : null;
}

/** Whether a boolean flag is set to true (its last occurrence wins, as in pflag). */
export function isFlagTrue(parsed: ParsedPublicationArgv, long: string): boolean {
  return occurrencesOf(parsed, long).at(-1)?.value === 'true';
}

/**
 * Parses `argv` (the tokens after the command words) against `specs`.
 *
 * @param argv - the whole gh argv
 * @param from - the index of the first token after the command words
 * @param specs - every flag the command has
 * @returns the parsed line, or `null` when the line is outside the strict subset
 */
export function parsePublicationArgv(
  argv: readonly string[],
  from: number,
  specs: readonly PublicationFlagSpec[],
): ParsedPublicationArgv | null {
  const byLong = new Map(specs.map((spec) => [spec.long, spec]));
  const byShort = new Map(
    specs.flatMap((spec) => (spec.short === undefined ? [] : [[spec.short, spec] as const])),
  );
  const positionals: { index: number; value: string }[] = [];
  const occurrences: FlagOccurrence[] = [];
  for (let index = from; index < argv.length; index++) {
    const token = argv[index] ?? '';
    if (token === '--') {
      for (let rest = index + 1; rest < argv.length; rest++) {
        positionals.push({ index: rest, value: argv[rest] ?? '' });
      }
      break;
    }
    if (!token.startsWith('-') || token === '-') {
      positionals.push({ index, value: token });
      continue;
    }
    const occurrence = token.startsWith('--')
      ? readLong(argv, index, byLong)
      : readShort(argv, index, byShort);
    if (occurrence === null) return null;
    occurrences.push(occurrence);
    index += occurrence.tokens - 1;
  }
  return { positionals, occurrences };
}

function readLong(
  argv: readonly string[],
  index: number,
  byLong: ReadonlyMap<string, PublicationFlagSpec>,
): FlagOccurrence | null {
  const token = argv[index] ?? '';
  const body = token.slice(2);
  const equals = body.indexOf('=');
  const name = equals < 0 ? body : body.slice(0, equals);
  const spec = byLong.get(name);
  if (spec === undefined) return null;
  if (spec.kind === 'bool') {
    if (equals < 0) return { spec, start: index, tokens: 1, value: 'true' };
    const value = body.slice(equals + 1);
    if (value !== 'true' && value !== 'false') return null;
    return { spec, start: index, tokens: 1, value };
  }
  if (equals >= 0) return { spec, start: index, tokens: 1, value: body.slice(equals + 1) };
  const next = argv[index + 1];
  if (next === undefined) return null;
  return { spec, start: index, tokens: 2, value: next };
}

function readShort(
  argv: readonly string[],
  index: number,
  byShort: ReadonlyMap<string, PublicationFlagSpec>,
): FlagOccurrence | null {
  const token = argv[index] ?? '';
  const spec = byShort.get(token.charAt(1));
  if (spec === undefined) return null;
  if (spec.kind === 'bool') {
    return token.length === 2 ? { spec, start: index, tokens: 1, value: 'true' } : null;
  }
  if (token.length > 2) {
    const rest = token.slice(2);
    return { spec, start: index, tokens: 1, value: rest.startsWith('=') ? rest.slice(1) : rest };
  }
  const next = argv[index + 1];
  if (next === undefined) return null;
  return { spec, start: index, tokens: 2, value: next };
}
