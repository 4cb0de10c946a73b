import { err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';

/**
 * A file's bytes as a string of one character per byte (latin1), so that splicing text in
 * and out of a startup file is byte-exact whatever its encoding or line endings.
 */
export type ByteString = string;

/** The version written in the block's markers; a block of another version is stale. */
export const SHIM_BLOCK_VERSION = 1;

const BEGIN_PATTERN = /^# >>> relay install-shim v(\d+) >>>[^\n]*(?:\n|$)/gm;
const END_PATTERN = /^# <<< relay install-shim v\d+ <<<[^\n]*(?:\n|$)/gm;

/** What the block says: the shim's directory (first on PATH) and the pinned native gh. */
export interface ShimBlockOptions {
  /** The directory holding the `gh` symlink. */
  readonly shimDir: string;
  /** The real native gh, exported as RELAY_NATIVE_CLI. */
  readonly nativeCli: string;
}

/** Where a managed block sits in a file: `[start, end)` in bytes, the end marker's newline included. */
export interface ShimBlockLocation {
  readonly start: number;
  readonly end: number;
  /** The version in its begin marker. */
  readonly version: number;
}

/** Why a file's block cannot be located: a marker without its pair, or more than one block. */
export interface ShimBlockDamage {
  readonly code: 'startup_block_damaged';
}

/** Quotes `value` for zsh: single quotes, an embedded quote as `'\''`. */
export function quoteForZsh(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** `text` (UTF-8) as a {@link ByteString}. */
export function toByteString(text: string): ByteString {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/**
 * The managed block (UTF-8 text, LF line endings, ending in a newline): begin and end markers
 * carrying {@link SHIM_BLOCK_VERSION}, RELAY_NATIVE_CLI exported, and the shim directory moved
 * to the front of PATH (zsh's `path` array, any earlier occurrence removed, so that running it
 * twice changes nothing).
 */
export function renderShimBlock(options: ShimBlockOptions): string {
  const dir = quoteForZsh(options.shimDir);
  return [
    `# >>> relay install-shim v${String(SHIM_BLOCK_VERSION)} >>>`,
    '# Managed by `relay install-shim` (rewritten by each install; `relay install-shim --remove`',
    '# takes it out): the relay gh shim first on PATH, the real gh pinned.',
    `export RELAY_NATIVE_CLI=${quoteForZsh(options.nativeCli)}`,
    `path=(${dir} \${path:#${dir}})`,
    `# <<< relay install-shim v${String(SHIM_BLOCK_VERSION)} <<<`,
    '',
  ].join('\n');
}

/**
 * Finds the one managed block in `content`: `ok(undefined)` when there is none; an error when a
 * marker has no pair, the markers are out of order, or there are two blocks.
 */
export function locateShimBlock(
  content: ByteString,
): Result<ShimBlockLocation | undefined, ShimBlockDamage> {
  const begins = [...content.matchAll(BEGIN_PATTERN)];
  const ends = [...content.matchAll(END_PATTERN)];
  if (begins.length === 0 && ends.length === 0) return ok(undefined);
  const [begin] = begins;
  const [end] = ends;
  if (begins.length !== 1 || ends.length !== 1 || begin === undefined || end === undefined) {
    return err({ code: 'startup_block_damaged' });
  }
  if (end.index < begin.index) return err({ code: 'startup_block_damaged' });
  return ok({
    start: begin.index,
    end: end.index + end[0].length,
    version: Number(begin[1]),
  });
}
