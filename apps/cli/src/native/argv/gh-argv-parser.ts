import { err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';
import { parseCsvRecord } from '../export/json-field-catalogue.js';
import type { GhFlagSpec } from './gh-command-table.js';
import { parseGoIntValue, parseGoUintValue } from './go-int-option.js';

/** gh argv after flag parsing: positional arguments and flag values by long name. */
export interface ParsedGhArgv {
  /** Positional arguments in order, including every token after `--`. */
  readonly args: readonly string[];
  /**
   * Every occurrence of every flag, by long name, in order; a boolean occurrence is `'true'`
   * or `'false'`. Repeatable flags accumulate; for the others the last occurrence wins (pflag).
   */
  readonly flags: Readonly<Record<string, readonly string[]>>;
  /** Whether a `--` terminator was seen. */
  readonly terminated: boolean;
}

/**
 * Why pflag stops reading the argv (the first problem, left to right, as pflag meets it):
 * - `unknown_flag` — a flag the command does not have (gh prints `unknown flag: --x`);
 * - `help` — `-h`, which pflag answers with the help (nothing after it is read);
 * - `missing_value` — a value flag last on the line (`--limit`, `-L`, `-dL`);
 * - `invalid_value` — a value its type refuses (a boolean, an integer, an enum);
 * - `unmodelled_value` — a value whose refusal text is not reproduced (a string slice that
 *   Go's CSV reader refuses, an enum value with non-ASCII text): gh answers it.
 */
export type GhArgvError =
  | { readonly code: 'unknown_flag'; readonly flag: string }
  | { readonly code: 'help' }
  | {
      readonly code: 'missing_value';
      readonly flag: GhFlagSpec;
      /** How it was written: `--limit` or a `-L` shorthand. */
      readonly form: 'long' | 'short';
    }
  | {
      readonly code: 'invalid_value';
      readonly flag: GhFlagSpec;
      readonly value: string;
      /** Why: Go's `strconv` error of a boolean or integer, or gh's enum refusal. */
      readonly cause:
        'bool_syntax' | 'int_syntax' | 'int_range' | 'uint_syntax' | 'uint_range' | 'enum';
    }
  | { readonly code: 'unmodelled_value'; readonly flag: GhFlagSpec; readonly value: string };

/** Go's `strconv.ParseBool` spellings. */
const BOOLEANS: Readonly<Record<string, 'true' | 'false'>> = {
  '1': 'true',
  t: 'true',
  T: 'true',
  true: 'true',
  TRUE: 'true',
  True: 'true',
  '0': 'false',
  f: 'false',
  F: 'false',
  false: 'false',
  FALSE: 'false',
  False: 'false',
};

/** Whether text is ASCII only (no code point above U+007F). */
const isAscii = (text: string): boolean => Array.from(text).every((c) => c.charCodeAt(0) < 0x80);

/**
 * Checks one value as the flag's pflag `Value.Set` would: the text to record (a boolean's
 * `true`/`false`), or why it is refused.
 */
function readValue(spec: GhFlagSpec, given: string): Result<string, GhArgvError> {
  switch (spec.type ?? (spec.takesValue ? 'string' : 'bool')) {
    case 'bool':
    case 'nilBool': {
      const parsed = BOOLEANS[given];
      if (parsed === undefined) {
        return err({ code: 'invalid_value', flag: spec, value: given, cause: 'bool_syntax' });
      }
      return ok(parsed);
    }
    case 'int': {
      const parsed = parseGoIntValue(given);
      if (parsed.ok) return ok(given);
      const cause = parsed.error === 'range' ? 'int_range' : 'int_syntax';
      return err({ code: 'invalid_value', flag: spec, value: given, cause });
    }
    case 'uint': {
      const parsed = parseGoUintValue(given);
      if (parsed.ok) return ok(given);
      const cause = parsed.error === 'range' ? 'uint_range' : 'uint_syntax';
      return err({ code: 'invalid_value', flag: spec, value: given, cause });
    }
    case 'enum': {
      if (!isAscii(given)) {
        return err({ code: 'unmodelled_value', flag: spec, value: given });
      }
      const lower = given.toLowerCase();
      if ((spec.values ?? []).some((option) => option.toLowerCase() === lower)) return ok(given);
      return err({ code: 'invalid_value', flag: spec, value: given, cause: 'enum' });
    }
    case 'stringSlice':
      if (parseCsvRecord(given) === undefined) {
        return err({ code: 'unmodelled_value', flag: spec, value: given });
      }
      return ok(given);
    case 'string':
      return ok(given);
  }
}

/**
 * Parses gh argv the way pflag does for one command: `--flag value`, `--flag=value`, `-f value`,
 * `-fvalue`, `-f=value`, grouped booleans (`-wc`), `--bool=false`, flags anywhere among the
 * positional arguments, a lone `-` as positional, and `--` ending the flags. A value flag takes
 * the next token even when it starts with `-` (pflag does). Every value is checked as its
 * flag's type reads it, in argv order, and the first problem ends the parse. Never throws.
 *
 * @param tokens - the argv after the command path (`['1', '-R', 'acme/widgets']`)
 * @param specs - the command's flags (see `SERVED_COMMAND_FLAGS`)
 * @returns the parsed argv, or the first problem pflag would report
 */
export function parseGhArgv(
  tokens: readonly string[],
  specs: readonly GhFlagSpec[],
): Result<ParsedGhArgv, GhArgvError> {
  const byLong = new Map(specs.map((spec) => [spec.name, spec]));
  const byShort = new Map(
    specs.flatMap((spec) => (spec.short === undefined ? [] : [[spec.short, spec] as const])),
  );
  const args: string[] = [];
  const flags: Record<string, string[]> = {};
  const record = (spec: GhFlagSpec, given: string): GhArgvError | undefined => {
    const read = readValue(spec, given);
    if (!read.ok) return read.error;
    (flags[spec.name] ??= []).push(read.value);
    return undefined;
  };
  let index = 0;
  while (index < tokens.length) {
    const token = tokens[index] ?? '';
    index += 1;
    if (token === '--') {
      args.push(...tokens.slice(index));
      return ok({ args, flags, terminated: true });
    }
    if (!token.startsWith('-') || token === '-') {
      args.push(token);
      continue;
    }
    if (token.startsWith('--')) {
      const body = token.slice(2);
      const equals = body.indexOf('=');
      const name = equals === -1 ? body : body.slice(0, equals);
      const spec = byLong.get(name);
      if (spec === undefined || name === '') return err({ code: 'unknown_flag', flag: token });
      let given: string;
      if (equals !== -1) given = body.slice(equals + 1);
      else if (!spec.takesValue) given = 'true';
      else if (index < tokens.length) {
        given = tokens[index] ?? '';
        index += 1;
      } else return err({ code: 'missing_value', flag: spec, form: 'long' });
      const problem = record(spec, given);
      if (problem !== undefined) return err(problem);
      continue;
    }
    // A group of shorthands: -w, -wc, -R value, -Rvalue, -R=value, -w=false.
    let shorts = token.slice(1);
    while (shorts.length > 0) {
      const letter = shorts.slice(0, 1);
      const spec = byShort.get(letter);
      if (spec === undefined) {
        // pflag answers an undeclared -h with the help and reads no further.
        if (letter === 'h') return err({ code: 'help' });
        return err({ code: 'unknown_flag', flag: `-${letter}` });
      }
      let given: string;
      if (shorts.length > 2 && shorts[1] === '=') {
        given = shorts.slice(2);
        shorts = '';
      } else if (!spec.takesValue) {
        given = 'true';
        shorts = shorts.slice(1);
      } else if (shorts.length > 1) {
        given = shorts.slice(1);
        shorts = '';
      } else if (index < tokens.length) {
        given = tokens[index] ?? '';
        index += 1;
        shorts = '';
      } else return err({ code: 'missing_value', flag: spec, form: 'short' });
      const problem = record(spec, given);
      if (problem !== undefined) return err(problem);
    }
  }
  return ok({ args, flags, terminated: false });
}

/** The value of a flag as gh sees it: the last occurrence, or `undefined` when absent. */
export function lastFlagValue(parsed: ParsedGhArgv, name: string): string | undefined {
  const values = parsed.flags[name];
  return values === undefined ? undefined : values[values.length - 1];
}

/** Whether a boolean flag is on (its last occurrence is `true`). */
export function isFlagOn(parsed: ParsedGhArgv, name: string): boolean {
  return lastFlagValue(parsed, name) === 'true';
}
