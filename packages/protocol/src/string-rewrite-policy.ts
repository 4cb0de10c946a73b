import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { getUtcTimestampSchema } from './common-schemas.js';
import { REWRITE_RULES_MAX, STRING_REWRITE_SCHEMA_VERSION } from './limits.js';

/** Returns {@link stringRewriteRuleSchema}, built on the first call (the same instance after). */
export const getStringRewriteRuleSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    pattern: z.string(),
    replacement: z.string(),
  }),
);

/**
 * One rule: exactly a pattern and a replacement. Structure only: the RE2-subset grammar, the
 * byte limits, duplicate keys and duplicate patterns are @relay/rewrite-engine's to judge.
 * Built at import; a bundle that reads only {@link getStringRewriteRuleSchema} builds it on first use.
 */
export const stringRewriteRuleSchema = /* @__PURE__ */ getStringRewriteRuleSchema();

/** A rewrite rule. */
export type StringRewriteRule = z.infer<typeof stringRewriteRuleSchema>;

const getRulesSchema = /* @__PURE__ */ lazySchema(() =>
  z.array(getStringRewriteRuleSchema()).max(REWRITE_RULES_MAX),
);
const getSchemaVersionSchema = /* @__PURE__ */ lazySchema(() =>
  z.literal(STRING_REWRITE_SCHEMA_VERSION),
);
/** Returns {@link revisionSchema}, built on the first call (the same instance after). */
export const getRevisionSchema = /* @__PURE__ */ lazySchema(() =>
  z.int().positive().max(Number.MAX_SAFE_INTEGER),
);

/**
 * A policy revision: a positive safe integer.
 * Built at import; a bundle that reads only {@link getRevisionSchema} builds it on first use.
 */
export const revisionSchema = /* @__PURE__ */ getRevisionSchema();

/** Returns {@link stringRewritePolicySchema}, built on the first call (the same instance after). */
export const getStringRewritePolicySchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    schema_version: getSchemaVersionSchema(),
    revision: getRevisionSchema(),
    updated_at: getUtcTimestampSchema(),
    rules: getRulesSchema(),
  }),
);

/**
 * The string-rewrite policy as GET /v1/admin/string-rewrites and the pool endpoint return it.
 * Built at import; a bundle that reads only {@link getStringRewritePolicySchema} builds it on first use.
 */
export const stringRewritePolicySchema = /* @__PURE__ */ getStringRewritePolicySchema();

/** A string-rewrite policy. */
export type StringRewritePolicy = z.infer<typeof stringRewritePolicySchema>;

/** Returns {@link stringRewritePutSchema}, built on the first call (the same instance after). */
export const getStringRewritePutSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    schema_version: getSchemaVersionSchema(),
    expected_revision: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
    rules: getRulesSchema(),
  }),
);

/**
 * The body of PUT /v1/admin/string-rewrites: exactly these three fields.
 * Built at import; a bundle that reads only {@link getStringRewritePutSchema} builds it on first use.
 */
export const stringRewritePutSchema = /* @__PURE__ */ getStringRewritePutSchema();

/** A string-rewrite PUT body. */
export type StringRewritePut = z.infer<typeof stringRewritePutSchema>;

/** Returns {@link stringRewritePutResultSchema}, built on the first call (the same instance after). */
export const getStringRewritePutResultSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    schema_version: getSchemaVersionSchema(),
    revision: getRevisionSchema(),
    updated_at: getUtcTimestampSchema(),
    rule_count: z.int().min(0).max(REWRITE_RULES_MAX),
  }),
);

/**
 * The success body of PUT /v1/admin/string-rewrites (no rules).
 * Built at import; a bundle that reads only {@link getStringRewritePutResultSchema} builds it on first use.
 */
export const stringRewritePutResultSchema = /* @__PURE__ */ getStringRewritePutResultSchema();

/** A string-rewrite PUT result. */
export type StringRewritePutResult = z.infer<typeof stringRewritePutResultSchema>;

/** Returns {@link stringRewriteImportSchema}, built on the first call (the same instance after). */
export const getStringRewriteImportSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    schema_version: getSchemaVersionSchema(),
    rules: getRulesSchema(),
  }),
);

/**
 * An import file (`relay admin string-rewrites set --file`, local rules): exactly these two.
 * Built at import; a bundle that reads only {@link getStringRewriteImportSchema} builds it on first use.
 */
export const stringRewriteImportSchema = /* @__PURE__ */ getStringRewriteImportSchema();

/** A string-rewrite import file. */
export type StringRewriteImport = z.infer<typeof stringRewriteImportSchema>;
