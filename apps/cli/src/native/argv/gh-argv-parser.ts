import { err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';
import type { GhFlagSpec } from './gh-command-table.js';

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

/** Why gh itself would reject the flags (gh prints a flag error and exits 1). */
export type GhArgvError =
  | { readonly code: 'unknown_flag'; readonly flag: string }
  | { readonly code: 'missing_value'; readonly flag: string }
  | { readonly code: 'invalid_boolean'; readonly flag: string; readonly value: string };

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

/**
 * Parses gh argv the way pflag does for one command: `--flag value`, `--flag=value`, `-f value`,
 * `-fvalue`, `-f=value`, grouped booleans (`-wc`), `--bool=false`, flags anywhere among the
 * positional arguments, a lone `-` as positional, and `--` ending the flags. A value flag takes
 * the next token even when it starts with `-` (pflag does). Never throws.
 *
 * @param tokens - the argv after the command path (`['1', '-R', 'acme/widgets']`)
 * @param specs - the command's flags (see `SERVED_COMMAND_FLAGS`)
 * @returns the parsed argv, or the flag error gh would report
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
  const record = (spec: GhFlagSpec, flagValue: string) => {
    (flags[spec.name] ??= []).push(flagValue);
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
      if (equals !== -1) {
        const given = body.slice(equals + 1);
        if (spec.takesValue) record(spec, given);
        else {
          const parsed = BOOLEANS[given];
          if (parsed === undefined) {
            return err({ code: 'invalid_boolean', flag: `--${name}`, value: given });
          }
          record(spec, parsed);
        }
      } else if (!spec.takesValue) record(spec, 'true');
      else if (index < tokens.length) {
        record(spec, tokens[index] ?? '');
        index += 1;
      } else return err({ code: 'missing_value', flag: `--${name}` });
      continue;
    }
    // A group of shorthands: -w, -wc, -R value, -Rvalue, -R=value, -w=false.
    let shorts = token.slice(1);
    while (shorts.length > 0) {
      const letter = shorts.slice(0, 1);
      const spec = byShort.get(letter);
      if (spec === undefined) return err({ code: 'unknown_flag', flag: `-${letter}` });
      if (shorts.length > 2 && shorts[1] === '=') {
        const given = shorts.slice(2);
        if (spec.takesValue) record(spec, given);
        else {
          const parsed = BOOLEANS[given];
          if (parsed === undefined) {
            return err({ code: 'invalid_boolean', flag: `-${letter}`, value: given });
          }
          record(spec, parsed);
        }
        shorts = '';
      } else if (!spec.takesValue) {
        record(spec, 'true');
        shorts = shorts.slice(1);
      } else if (shorts.length > 1) {
        record(spec, shorts.slice(1));
        shorts = '';
      } else if (index < tokens.length) {
        record(spec, tokens[index] ?? '');
        index += 1;
        shorts = '';
      } else return err({ code: 'missing_value', flag: `-${letter}` });
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
