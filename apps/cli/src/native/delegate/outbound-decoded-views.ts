/**
 * The readings the forge gives a text that relay checks on the best-effort path (SPEC.md client
 * rules 15 and 16): a text gh passes on verbatim can still be decoded on the way. Checking only
 * the bytes relay sees would let an escaped spelling of a forbidden string through, so the
 * argv check and the content-file check also check these decoded views (a match in any view
 * refuses; nothing is rewritten).
 *
 * - Percent-encoding: gh puts `gh api`'s endpoint (path and query) into the request URL as
 *   given, and the forge decodes it (`repos/o/r/issues?labels=%41` reads the label `A`), as the
 *   relay does when it checks a canonical URL.
 * - JSON string escapes: `gh api --input file` sends the file as the request body, and the
 *   forge decodes its JSON (`{"body":"\u0041"}` publishes `A`).
 */

const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
const utf8 = new TextDecoder('utf-8');

/** Decodes every run of `%XX` escapes as UTF-8 bytes (bytes that are not UTF-8 become U+FFFD). */
function decodePercentRuns(text: string): string {
  return text.replace(PERCENT_RUN, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let index = 0; index < bytes.length; index++) {
      bytes[index] = Number.parseInt(run.slice(index * 3 + 1, index * 3 + 3), 16);
    }
    return utf8.decode(bytes);
  });
}

/**
 * The percent-decoded readings of `text` that differ from it: the URL path reading (`%XX`
 * decoded) and the query reading (`+` is a space, then `%XX` decoded). Empty when `text` has
 * neither `%` nor `+`.
 *
 * @example
 * ```ts
 * percentDecodedViews('repos/o/r/issues?labels=%41+b'); // ['repos/o/r/issues?labels=A+b', 'repos/o/r/issues?labels=A b']
 * ```
 */
export function percentDecodedViews(text: string): string[] {
  const views = new Set<string>();
  if (text.includes('%')) views.add(decodePercentRuns(text));
  if (text.includes('+')) views.add(decodePercentRuns(text.replaceAll('+', ' ')));
  views.delete(text);
  return [...views];
}

const JSON_STRING_TOKEN = /"(?:[^"\\]|\\.)*"/gs;

/**
 * The JSON string literals of `text` that hold an escape, decoded: every `"…"` token that
 * JSON's grammar accepts (member names and values alike, duplicates included, wherever the
 * token stands), so that `{"body":"\u0041"}` is also checked as `A`. Tokens without a
 * backslash read as they are written (the text itself is checked), and a token JSON does not
 * accept (a raw line break, an unknown escape) is left out. One linear scan.
 *
 * @example
 * ```ts
 * jsonStringViews('{"body":"\\u0041"}'); // ['A']
 * jsonStringViews('{"body":"A"}'); // []
 * ```
 */
export function jsonStringViews(text: string): string[] {
  if (!text.includes('\\')) return [];
  const views: string[] = [];
  for (const [token] of text.matchAll(JSON_STRING_TOKEN)) {
    if (!token.includes('\\')) continue;
    try {
      views.push(JSON.parse(token) as string);
    } catch {
      // not a JSON string: the forge would not decode it either
    }
  }
  return views;
}
