/** GitHub's page size bounds. */
export const DEFAULT_PER_PAGE = 30;
/** The largest `per_page` GitHub honours. */
export const MAX_PER_PAGE = 100;

/** One page of a list and its Link header. */
export interface Page<T> {
  readonly items: T[];
  readonly link: string | undefined;
  readonly total: number;
}

function positiveInt(value: string | null, fallback: number): number {
  if (value === null || !/^\d+$/.test(value)) return fallback;
  const n = Number(value);
  return n >= 1 ? n : fallback;
}

/**
 * Cuts one page out of `items` as GitHub does: `per_page` (default 30, capped at 100)
 * and `page` (default 1), with a Link header of absolute URLs (`first`, `prev`, `next`,
 * `last`) that keep every other query parameter.
 */
export function paginate<T>(items: readonly T[], url: URL): Page<T> {
  const perPage = Math.min(
    positiveInt(url.searchParams.get('per_page'), DEFAULT_PER_PAGE),
    MAX_PER_PAGE,
  );
  const page = positiveInt(url.searchParams.get('page'), 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const pageUrl = (n: number): string => {
    const u = new URL(url.href);
    u.searchParams.set('page', String(n));
    if (url.searchParams.has('per_page')) u.searchParams.set('per_page', String(perPage));
    return u.href;
  };
  const links: string[] = [];
  if (page > 1) {
    links.push(`<${pageUrl(Math.min(page - 1, last))}>; rel="prev"`);
  }
  if (page < last) {
    links.push(`<${pageUrl(page + 1)}>; rel="next"`);
    links.push(`<${pageUrl(last)}>; rel="last"`);
  }
  if (page > 1) links.push(`<${pageUrl(1)}>; rel="first"`);
  return {
    items: slice,
    link: links.length === 0 ? undefined : links.join(', '),
    total: items.length,
  };
}
