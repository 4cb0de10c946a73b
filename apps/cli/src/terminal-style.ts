import type { CliEnv } from './cli-dependencies.js';

/** Styling of one output stream: plain text unless colour is allowed. */
export interface TerminalStyle {
  /** Whether colour escapes are emitted. */
  readonly color: boolean;
  /** An error line (red). */
  error(text: string): string;
  /** A heading (bold). */
  heading(text: string): string;
}

/**
 * Colour only on a terminal, never when NO_COLOR is set to anything nonempty
 * (https://no-color.org) or TERM is `dumb`.
 */
export function createTerminalStyle(env: CliEnv, isTTY: boolean): TerminalStyle {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  const color = isTTY && !noColor && env.TERM !== 'dumb';
  const wrap = (open: string, text: string) => {
    if (!color) return text;
    const trailing = text.endsWith('\n') ? '\n' : '';
    const body = trailing === '' ? text : text.slice(0, -1);
    return `\u001b[${open}m${body}\u001b[0m${trailing}`;
  };
  return {
    color,
    error: (text) => wrap('31', text),
    heading: (text) => wrap('1', text),
  };
}

/**
 * The colour depth clipanion renders help with: 1 (none) unless the stream is a terminal and
 * NO_COLOR is unset or empty.
 */
export function colorDepthFor(env: CliEnv, isTTY: boolean, terminalDepth: number): number {
  return createTerminalStyle(env, isTTY).color ? terminalDepth : 1;
}

/**
 * Whether clipanion colours `relay`'s help and usage errors: FORCE_COLOR `0` turns colour off,
 * any other nonempty value forces it; otherwise as {@link createTerminalStyle}: only on a terminal,
 * never with NO_COLOR or TERM=dumb.
 */
export function helpColors(env: CliEnv, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force === '0') return false;
  if (force !== undefined && force !== '') return true;
  return createTerminalStyle(env, isTTY).color;
}
