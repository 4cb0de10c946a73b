/**
 * The text of a relay envelope's `body` member as the relay wrote it. A relay that carries the
 * forge's own JSON text (SPEC.md envelope rule 3 promises the value, not the bytes) writes that
 * text verbatim as the member's value; `JSON.parse` then loses what gh prints (whitespace,
 * `1.0`, escapes, integers beyond 2^53, key order). Reading the member's text back keeps it.
 */

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

function skipWhitespace(text: string, from: number): number {
  let index = from;
  while (index < text.length && WHITESPACE.has(text.charAt(index))) index += 1;
  return index;
}

/** The index just after the string that starts at `from` (a `"`), or -1. */
function skipString(text: string, from: number): number {
  for (let index = from + 1; index < text.length; index += 1) {
    const char = text.charAt(index);
    if (char === '\\') index += 1;
    else if (char === '"') return index + 1;
  }
  return -1;
}

/** The index just after the JSON value that starts at `from`, or -1. */
function skipValue(text: string, from: number): number {
  const first = text.charAt(from);
  if (first === '"') return skipString(text, from);
  if (first !== '{' && first !== '[') {
    let index = from;
    while (index < text.length && !/[\s,\]}]/.test(text.charAt(index))) index += 1;
    return index === from ? -1 : index;
  }
  let depth = 0;
  for (let index = from; index < text.length; index += 1) {
    const char = text.charAt(index);
    if (char === '"') {
      const end = skipString(text, index);
      if (end < 0) return -1;
      index = end - 1;
    } else if (char === '{' || char === '[') {
      depth += 1;
    } else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/**
 * The raw text of the top-level `body` member of an envelope's JSON text (the last one, as
 * `JSON.parse` keeps), from just after its colon to the delimiter that ends it: the relay
 * writes the envelope without whitespace of its own, so what lies there is the body's text.
 * Undefined when the text is not such an object or has no `body`.
 *
 * @param envelopeText - the relay's reply, valid JSON
 */
export function envelopeBodyText(envelopeText: string): string | undefined {
  let index = skipWhitespace(envelopeText, 0);
  if (envelopeText.charAt(index) !== '{') return undefined;
  index = skipWhitespace(envelopeText, index + 1);
  if (envelopeText.charAt(index) === '}') return undefined;
  let body: string | undefined;
  for (;;) {
    if (envelopeText.charAt(index) !== '"') return undefined;
    const keyEnd = skipString(envelopeText, index);
    if (keyEnd < 0) return undefined;
    let key: unknown;
    try {
      key = JSON.parse(envelopeText.slice(index, keyEnd));
    } catch {
      return undefined;
    }
    index = skipWhitespace(envelopeText, keyEnd);
    if (envelopeText.charAt(index) !== ':') return undefined;
    const valueStart = index + 1;
    const valueEnd = skipValue(envelopeText, skipWhitespace(envelopeText, valueStart));
    if (valueEnd < 0) return undefined;
    index = skipWhitespace(envelopeText, valueEnd);
    if (key === 'body') body = envelopeText.slice(valueStart, index);
    const delimiter = envelopeText.charAt(index);
    if (delimiter === '}') return body;
    if (delimiter !== ',') return undefined;
    index = skipWhitespace(envelopeText, index + 1);
  }
}

/**
 * The forge's JSON text of a `json` envelope body, when the reply carries text whose value is
 * the envelope's `body`; undefined otherwise (the body is then known by its value only).
 *
 * @param envelopeText - the relay's reply
 * @param body - the envelope's parsed `body`
 */
export function forgeJsonText(envelopeText: string | undefined, body: unknown): string | undefined {
  if (envelopeText === undefined) return undefined;
  const text = envelopeBodyText(envelopeText);
  if (text === undefined) return undefined;
  try {
    // The common answer is compact JSON, the body's own serialization: one stringify proves it.
    const compact = JSON.stringify(body);
    if (text === compact) return text;
    return JSON.stringify(JSON.parse(text)) === compact ? text : undefined;
  } catch {
    return undefined;
  }
}
