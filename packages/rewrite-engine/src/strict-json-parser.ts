import { err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';

/** A JSON value as the strict parser returns it; objects keep their members in order. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;

/** One member of a JSON object, with the offset of its key. */
export interface JsonMember {
  readonly key: string;
  readonly value: JsonValue;
  readonly offset: number;
}

/** A JSON object: members in document order, keys unique. */
export class JsonObject {
  constructor(readonly members: readonly JsonMember[]) {}

  /** The member with this key, if any. */
  get(key: string): JsonMember | undefined {
    return this.members.find((member) => member.key === key);
  }
}

/** Why strict parsing failed. */
export interface JsonError {
  readonly code: 'invalid_json' | 'duplicate_key' | 'invalid_unicode';
  /** UTF-16 offset in the text. */
  readonly offset: number;
}

/** Deeper nesting than this is refused (policy documents nest three levels). */
const MAX_DEPTH = 64;

class JsonSyntaxError extends Error {
  constructor(
    readonly code: JsonError['code'],
    readonly offset: number,
  ) {
    super(code);
  }
}

class StrictJsonParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  parseDocument(): JsonValue {
    this.skipWhitespace();
    const value = this.parseValue(0);
    this.skipWhitespace();
    if (this.pos !== this.text.length) this.fail();
    return value;
  }

  private fail(code: JsonError['code'] = 'invalid_json', offset = this.pos): never {
    throw new JsonSyntaxError(code, offset);
  }

  private skipWhitespace(): void {
    for (;;) {
      const c = this.text.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      this.pos++;
    }
  }

  private parseValue(depth: number): JsonValue {
    if (depth > MAX_DEPTH) this.fail();
    const c = this.text[this.pos];
    switch (c) {
      case '{':
        return this.parseObject(depth);
      case '[':
        return this.parseArray(depth);
      case '"':
        return this.parseString();
      case 't':
        return this.parseWord('true', true);
      case 'f':
        return this.parseWord('false', false);
      case 'n':
        return this.parseWord('null', null);
      case undefined:
        return this.fail();
      default:
        return this.parseNumber();
    }
  }

  private parseWord<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail();
    this.pos += word.length;
    return value;
  }

  private parseNumber(): number {
    const match = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    match.lastIndex = this.pos;
    const found = match.exec(this.text);
    if (found === null) this.fail();
    this.pos += found[0].length;
    return Number(found[0]);
  }

  private parseObject(depth: number): JsonObject {
    this.pos++;
    const members: JsonMember[] = [];
    const keys = new Set<string>();
    this.skipWhitespace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return new JsonObject(members);
    }
    for (;;) {
      this.skipWhitespace();
      const offset = this.pos;
      if (this.text[this.pos] !== '"') this.fail();
      const key = this.parseString();
      if (keys.has(key)) this.fail('duplicate_key', offset);
      keys.add(key);
      this.skipWhitespace();
      if (this.text[this.pos] !== ':') this.fail();
      this.pos++;
      this.skipWhitespace();
      members.push({ key, value: this.parseValue(depth + 1), offset });
      this.skipWhitespace();
      const separator = this.text[this.pos];
      this.pos++;
      if (separator === '}') return new JsonObject(members);
      if (separator !== ',') this.fail('invalid_json', this.pos - 1);
    }
  }

  private parseArray(depth: number): JsonValue[] {
    this.pos++;
    const items: JsonValue[] = [];
    this.skipWhitespace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return items;
    }
    for (;;) {
      this.skipWhitespace();
      items.push(this.parseValue(depth + 1));
      this.skipWhitespace();
      const separator = this.text[this.pos];
      this.pos++;
      if (separator === ']') return items;
      if (separator !== ',') this.fail('invalid_json', this.pos - 1);
    }
  }

  /** Parses a string at the opening quote; decodes escapes; refuses unpaired surrogates. */
  private parseString(): string {
    const start = this.pos;
    this.pos++;
    let out = '';
    let chunk = this.pos;
    for (;;) {
      const c = this.text.charCodeAt(this.pos);
      if (Number.isNaN(c)) this.fail('invalid_json', start);
      if (c === 0x22) {
        out += this.text.slice(chunk, this.pos);
        this.pos++;
        break;
      }
      if (c < 0x20) this.fail();
      if (c === 0x5c) {
        out += this.text.slice(chunk, this.pos);
        out += this.parseEscape();
        chunk = this.pos;
        continue;
      }
      this.pos++;
    }
    const lone = findUnpaired(out);
    if (lone) this.fail('invalid_unicode', start);
    return out;
  }

  private parseEscape(): string {
    const escape = this.text[this.pos + 1];
    this.pos += 2;
    switch (escape) {
      case '"':
        return '"';
      case '\\':
        return '\\';
      case '/':
        return '/';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u': {
        const hex = this.text.slice(this.pos, this.pos + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('invalid_json', this.pos - 2);
        this.pos += 4;
        return String.fromCharCode(Number.parseInt(hex, 16));
      }
      case undefined:
      default:
        return this.fail('invalid_json', this.pos - 2);
    }
  }
}

function findUnpaired(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    return true;
  }
  return false;
}

/**
 * Parses JSON text (RFC 8259) strictly: duplicate keys at any depth and unpaired surrogates, raw
 * or escaped, are errors, which `JSON.parse` would hide. No byte-order mark, no trailing data.
 *
 * @returns The value, or an error code with the offset where parsing stopped.
 */
export function parseStrictJson(text: string): Result<JsonValue, JsonError> {
  try {
    return ok(new StrictJsonParser(text).parseDocument());
  } catch (error) {
    if (error instanceof JsonSyntaxError) return err({ code: error.code, offset: error.offset });
    throw error;
  }
}
