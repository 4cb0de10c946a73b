import {
  REWRITE_DOCUMENT_MAX_BYTES,
  STRING_REWRITE_SCHEMA_VERSION,
  err,
  ok,
} from '@relay/protocol';
import type { Result, StringRewriteRule } from '@relay/protocol';
import type { PolicyError, PolicyField } from './policy-error.js';
import { validateRules } from './rule-validator.js';
import { JsonObject, parseStrictJson } from './strict-json-parser.js';
import type { JsonValue } from './strict-json-parser.js';
import { exceedsUtf8Bytes } from './text-encoding.js';

/** A valid import file: `{schema_version: 1, rules}`. */
export interface PolicyDocument {
  readonly schemaVersion: typeof STRING_REWRITE_SCHEMA_VERSION;
  readonly rules: readonly StringRewriteRule[];
}

/** A valid PUT /v1/admin/string-rewrites body. */
export interface PolicyUpdate extends PolicyDocument {
  readonly expectedRevision: number;
}

/** The raw input of a document: JSON text, or its UTF-8 bytes. */
export type PolicyDocumentInput = string | Uint8Array;

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decode(input: PolicyDocumentInput): Result<string, PolicyError> {
  if (typeof input === 'string') {
    if (exceedsUtf8Bytes(input, REWRITE_DOCUMENT_MAX_BYTES)) {
      return err({ code: 'document_too_large', field: 'document' });
    }
    return ok(input);
  }
  if (input.byteLength > REWRITE_DOCUMENT_MAX_BYTES) {
    return err({ code: 'document_too_large', field: 'document' });
  }
  try {
    return ok(decoder.decode(input));
  } catch {
    return err({ code: 'invalid_encoding', field: 'document' });
  }
}

/** Checks that an object has exactly the allowed keys, all present. */
function checkKeys(
  object: JsonObject,
  allowed: readonly PolicyField[],
  ruleIndex?: number,
): PolicyError | null {
  const where = ruleIndex === undefined ? {} : { ruleIndex };
  for (const member of object.members) {
    if ((allowed as readonly string[]).includes(member.key)) continue;
    const code = member.key === 'flags' ? 'flags_field' : 'unknown_field';
    return { code, offset: member.offset, ...where };
  }
  for (const field of allowed) {
    if (object.get(field) === undefined) return { code: 'missing_field', field, ...where };
  }
  return null;
}

function parseRules(value: JsonValue): Result<readonly StringRewriteRule[], PolicyError> {
  if (!Array.isArray(value)) return err({ code: 'invalid_type', field: 'rules' });
  const items: readonly JsonValue[] = value;
  const rules: StringRewriteRule[] = [];
  for (const [ruleIndex, item] of items.entries()) {
    if (!(item instanceof JsonObject))
      return err({ code: 'invalid_type', field: 'rule', ruleIndex });
    const keyError = checkKeys(item, ['pattern', 'replacement'], ruleIndex);
    if (keyError !== null) return err(keyError);
    const pattern = item.get('pattern')?.value;
    const replacement = item.get('replacement')?.value;
    if (typeof pattern !== 'string')
      return err({ code: 'invalid_type', field: 'pattern', ruleIndex });
    if (typeof replacement !== 'string') {
      return err({ code: 'invalid_type', field: 'replacement', ruleIndex });
    }
    rules.push({ pattern, replacement });
  }
  const validated = validateRules(rules);
  return validated.ok ? ok(rules) : validated;
}

function parseTopLevel(
  input: PolicyDocumentInput,
  fields: readonly PolicyField[],
): Result<{ object: JsonObject; rules: readonly StringRewriteRule[] }, PolicyError> {
  const text = decode(input);
  if (!text.ok) return text;
  const json = parseStrictJson(text.value);
  if (!json.ok) return err({ code: json.error.code, offset: json.error.offset });
  const object = json.value;
  if (!(object instanceof JsonObject)) return err({ code: 'invalid_type', field: 'document' });
  const keyError = checkKeys(object, fields);
  if (keyError !== null) return err(keyError);
  const version = object.get('schema_version')?.value;
  if (typeof version !== 'number') return err({ code: 'invalid_type', field: 'schema_version' });
  if (version !== STRING_REWRITE_SCHEMA_VERSION) {
    return err({ code: 'unsupported_schema_version', field: 'schema_version' });
  }
  const rules = parseRules(object.get('rules')?.value ?? null);
  if (!rules.ok) return rules;
  return ok({ object, rules: rules.value });
}

/**
 * Parses and validates an import file (local rules, `relay admin string-rewrites set --file`):
 * exactly `schema_version` (1) and `rules`, each rule exactly `pattern` and `replacement`.
 *
 * @param input - The raw JSON text or its UTF-8 bytes (at most 65,536 bytes).
 * @returns The document, or the first {@link PolicyError}; errors never echo a pattern,
 *   replacement or unknown key.
 * @example
 * ```ts
 * const parsed = parsePolicyDocument(await readFile(path));
 * if (parsed.ok) compileRules(parsed.value.rules);
 * ```
 */
export function parsePolicyDocument(
  input: PolicyDocumentInput,
): Result<PolicyDocument, PolicyError> {
  const parsed = parseTopLevel(input, ['schema_version', 'rules']);
  if (!parsed.ok) return parsed;
  return ok({ schemaVersion: STRING_REWRITE_SCHEMA_VERSION, rules: parsed.value.rules });
}

/**
 * Parses and validates a PUT /v1/admin/string-rewrites body: exactly `schema_version` (1),
 * `expected_revision` (a non-negative safe integer) and `rules`.
 *
 * @param input - The raw JSON body or its UTF-8 bytes (at most 65,536 bytes).
 * @returns The update, or the first {@link PolicyError}.
 */
export function parsePolicyUpdate(input: PolicyDocumentInput): Result<PolicyUpdate, PolicyError> {
  const parsed = parseTopLevel(input, ['schema_version', 'expected_revision', 'rules']);
  if (!parsed.ok) return parsed;
  const revision = parsed.value.object.get('expected_revision')?.value;
  if (typeof revision !== 'number')
    return err({ code: 'invalid_type', field: 'expected_revision' });
  if (!Number.isSafeInteger(revision) || revision < 0) {
    return err({ code: 'invalid_revision', field: 'expected_revision' });
  }
  return ok({
    schemaVersion: STRING_REWRITE_SCHEMA_VERSION,
    expectedRevision: revision,
    rules: parsed.value.rules,
  });
}
