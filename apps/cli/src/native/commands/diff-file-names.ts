/**
 * gh's `diffHeaderRegexp` (`(?:^|\n)diff\s--git.*\s("?)b/(.*)`) over the diff's bytes: a
 * latin1 string holds one character per byte, Go's `.` is any byte but a newline and its `\s`
 * is ASCII white space only, so every match and capture is the same as Go's on the raw bytes.
 */
const DIFF_HEADER = /(?:^|\n)diff[\t\n\f\r ]--git[^\n]*[\t\n\f\r ]("?)b\/([^\n]*)/g;

/** The UTF-8 encodings of the runes Go's `unicode.IsSpace` accepts, as latin1 strings. */
const GO_SPACES: readonly string[] = [
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  ' ',
  '\u0085',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u2001',
  '\u2002',
  '\u2003',
  '\u2004',
  '\u2005',
  '\u2006',
  '\u2007',
  '\u2008',
  '\u2009',
  '\u200a',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
].map((rune) => Buffer.from(rune, 'utf8').toString('latin1'));

/** Go's `strings.TrimSpace` on a latin1 string of UTF-8 bytes. */
function trimGoSpace(bytes: string): string {
  let start = 0;
  let end = bytes.length;
  for (let trimmed = true; trimmed && start < end;) {
    trimmed = false;
    for (const space of GO_SPACES) {
      if (bytes.startsWith(space, start) && start + space.length <= end) {
        start += space.length;
        trimmed = true;
        break;
      }
    }
  }
  for (let trimmed = true; trimmed && end > start;) {
    trimmed = false;
    for (const space of GO_SPACES) {
      if (end - space.length >= start && bytes.endsWith(space, end)) {
        end -= space.length;
        trimmed = true;
        break;
      }
    }
  }
  return bytes.slice(start, end);
}

/**
 * The file names `gh pr diff --name-only` prints for a diff (cli/cli `changedFilesNames`): for
 * every `diff --git … b/<name>` header, the name after `b/` (a leading quote kept, as git
 * quotes unusual names), trimmed, one per line.
 *
 * @param diff - the diff's exact bytes
 * @returns the bytes gh prints (empty when the diff has no headers)
 *
 * @example
 * ```ts
 * changedFileNames(Buffer.from('diff --git a/x.ts b/x.ts\n…')).toString(); // 'x.ts\n'
 * ```
 */
export function changedFileNames(diff: Uint8Array): Buffer {
  const text = Buffer.from(diff).toString('latin1');
  const lines: string[] = [];
  for (const match of text.matchAll(DIFF_HEADER)) {
    lines.push(`${trimGoSpace(`${match[1] ?? ''}${match[2] ?? ''}`)}\n`);
  }
  return Buffer.from(lines.join(''), 'latin1');
}
