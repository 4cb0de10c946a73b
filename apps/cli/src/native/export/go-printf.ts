/** Go's `fmt` parses at most this magnitude as a width or precision (`tooLarge`). */
const GO_NUM_LIMIT = 1e6;

/** Go's `parsenum`: digits from `start` before `end`; an overflow ends the format. */
function parseNumber(
  text: string,
  start: number,
  end: number,
): { readonly present: boolean; readonly next: number } {
  if (start >= end) return { present: false, next: end };
  let num = 0;
  let present = false;
  let next = start;
  for (; next < end && text.charAt(next) >= '0' && text.charAt(next) <= '9'; next += 1) {
    if (num > GO_NUM_LIMIT) return { present: false, next: end };
    num = num * 10 + Number(text[next]);
    present = true;
  }
  return { present, next };
}

/** Go's `argNumber` without operands: a `[n]` index is always bad; where it ends. */
function skipArgIndex(
  text: string,
  at: number,
): { readonly found: boolean; readonly bad: boolean; readonly next: number } {
  if (at >= text.length || text[at] !== '[') return { found: false, bad: false, next: at };
  if (text.length - at < 3) return { found: false, bad: true, next: at + 1 };
  for (let i = at + 1; i < text.length; i += 1) {
    if (text[i] === ']') {
      const number = parseNumber(text, at + 1, i);
      return { found: number.present && number.next === i, bad: true, next: i + 1 };
    }
  }
  return { found: false, bad: true, next: at + 1 };
}

const FLAGS = '#0+- ';

/**
 * What Go's `fmt.Fprintf(w, text)` writes when `text` is not meant as a format and no operand
 * follows (gh prints a README this way): `%%` is `%`; any other verb, after Go's flags, width,
 * precision and `[n]` index, becomes `%!<verb>(MISSING)` (`%!<verb>(BADINDEX)` after an
 * index); `*` widths and precisions add `%!(BADWIDTH)`/`%!(BADPREC)`; a `%` at the end is
 * `%!(NOVERB)`. So `100%` prints `100%!(NOVERB)` and `100% sure` prints `100%!s(MISSING)ure`.
 */
export function formatGoPrintfWithoutOperands(text: string): string {
  let out = '';
  const end = text.length;
  let i = 0;
  while (i < end) {
    const percent = text.indexOf('%', i);
    if (percent < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, percent);
    i = percent + 1;
    while (i < end && FLAGS.includes(text.charAt(i))) i += 1;
    let goodIndex = true;
    let index = skipArgIndex(text, i);
    if (index.bad) goodIndex = false;
    i = index.next;
    let afterIndex = index.found;
    if (i < end && text[i] === '*') {
      i += 1;
      out += '%!(BADWIDTH)';
      afterIndex = false;
    } else {
      const width = parseNumber(text, i, end);
      i = width.next;
      if (afterIndex && width.present) goodIndex = false;
    }
    if (i + 1 < end && text[i] === '.') {
      i += 1;
      if (afterIndex) goodIndex = false;
      index = skipArgIndex(text, i);
      if (index.bad) goodIndex = false;
      i = index.next;
      afterIndex = index.found;
      if (i < end && text[i] === '*') {
        i += 1;
        out += '%!(BADPREC)';
        afterIndex = false;
      } else {
        i = parseNumber(text, i, end).next;
      }
    }
    if (!afterIndex) {
      index = skipArgIndex(text, i);
      if (index.bad) goodIndex = false;
      i = index.next;
    }
    if (i >= end) {
      out += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(text.codePointAt(i) ?? 0);
    i += verb.length;
    if (verb === '%') out += '%';
    else out += `%!${verb}(${goodIndex ? 'MISSING' : 'BADINDEX'})`;
  }
  return out;
}
