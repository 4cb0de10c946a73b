/**
 * gh's table when stdout is not a terminal (go-gh's tsv printer; cli's tableprinter adds no
 * header then): each row's fields joined by a tab, each row ended by `\n`; no padding, no
 * truncation, no colour.
 */
export function renderTsvTable(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => `${row.join('\t')}\n`).join('');
}

/** Go's `unicode.IsSpace` characters at the ends of a string (`strings.TrimSpace`). */
const GO_EDGE_SPACE =
  /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/**
 * gh's `text.RemoveExcessiveWhitespace` exactly (list titles, release names, descriptions):
 * `strings.TrimSpace` (Unicode spaces), then runs of RE2's `\s` (`[\t\n\f\r ]`, ASCII only)
 * become one space. JavaScript's `\s` is wider (VT, NBSP, U+2003, U+FEFF, …): gh keeps those
 * inside a title.
 */
export function removeExcessiveWhitespace(text: string): string {
  return text.replace(GO_EDGE_SPACE, '').replace(/[\t\n\f\r ]+/g, ' ');
}

/** A timestamp as Go's `t.Format(time.RFC3339)` prints a GitHub time (`2022-08-24T20:01:12Z`). */
export function formatRfc3339(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(iso);
  if (match === null) return iso;
  return `${match[1] ?? ''}${match[2] === '+00:00' ? 'Z' : (match[2] ?? '')}`;
}

/** Go's zero `time.Time` as RFC 3339 (a missing non-pointer time). */
export const GO_ZERO_TIME = '0001-01-01T00:00:00Z';
