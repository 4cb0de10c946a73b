/**
 * `gh gist view` (cli/cli v2.60.0 pkg/cmd/gist/view, pkg/cmd/gist/shared): the gist id of a
 * selector and the `--files` listing. File contents are not rendered here: gh decides
 * whether a file is binary with the mimetype library's signature tree, which is not ported.
 */

/** Why a gist selector is not served. */
export type GistSelectorRefusal = 'not_modelled';

/** A current (hexadecimal) or old (decimal) gist id: route gist_view's parameter. */
const GIST_ID = /^[0-9a-f]+$/;

/**
 * The gist id gh reads from `gh gist view <id | url>`: the argument itself, or for one with a
 * `/` (`GistIDFromURL`) the URL path's second segment (`/owner/ID/…`), else its first
 * (`/ID`). `undefined` where gh's URL parsing is not reproduced exactly (percent-escapes,
 * anything but an http(s) URL), for gh's own errors (no path, an empty id) and for an id the
 * relay's route does not take: gh runs.
 *
 * @example
 * ```ts
 * parseGistSelector('https://gist.github.com/octo/5b0e0062eb8e9654adad7bb1d81cc75f'); // '5b0e…'
 * ```
 */
export function parseGistSelector(selector: string): string | undefined {
  let id = selector;
  if (selector.includes('/')) {
    const url = /^https?:\/\/[A-Za-z0-9.-]+(?::[0-9]+)?(\/[^?#%\\]*)(?:\?[^#]*)?(?:#.*)?$/.exec(
      selector,
    );
    const path = url?.[1];
    if (path === undefined) return undefined;
    const split = path.split('/');
    id = (split.length > 2 ? split[2] : split[1]) ?? '';
  }
  return GIST_ID.test(id) ? id : undefined;
}

/**
 * `gh gist view --files` output: the file names sorted as gh's `sort.Slice` compares
 * `strings.ToLower` (ASCII names only, where that is byte order of the lower-cased names),
 * one a line. `undefined` for a non-ASCII name or two names equal but for case (Go's map order
 * then decides gh's order).
 */
export function renderGistFileNames(names: readonly string[]): string | undefined {
  if (names.some((name) => !/^[\x20-\x7e]*$/.test(name))) return undefined;
  const keyed = names.map((name) => ({ name, key: name.toLowerCase() }));
  if (new Set(keyed.map((entry) => entry.key)).size !== keyed.length) return undefined;
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((entry) => `${entry.name}\n`).join('');
}
