/**
 * gh's table when stdout is not a terminal (go-gh's tsv printer; cli's tableprinter adds no
 * header then): each row's fields joined by a tab, each row ended by `\n`; no padding, no
 * truncation, no colour.
 */
export function renderTsvTable(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => `${row.join('\t')}\n`).join('');
}

/**
 * gh's `text.RemoveExcessiveWhitespace` for list titles: runs of whitespace become one space,
 * ends trimmed.
 */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A timestamp as Go's `t.Format(time.RFC3339)` prints a GitHub time (`2022-08-24T20:01:12Z`). */
export function formatRfc3339(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(iso);
  if (match === null) return iso;
  return `${match[1] ?? ''}${match[2] === '+00:00' ? 'Z' : (match[2] ?? '')}`;
}

/** Go's zero `time.Time` as RFC 3339 (a missing non-pointer time). */
export const GO_ZERO_TIME = '0001-01-01T00:00:00Z';
