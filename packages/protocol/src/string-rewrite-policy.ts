import { z } from 'zod';
import { utcTimestampSchema } from './common-schemas.js';
import { REWRITE_RULES_MAX, STRING_REWRITE_SCHEMA_VERSION } from './limits.js';

/**
 * One rule: exactly a pattern and a replacement. Structure only: the RE2-subset grammar, the
 * byte limits, duplicate keys and duplicate patterns are @relay/rewrite-engine's to judge.
 */
export const stringRewriteRuleSchema = z.strictObject({
  pattern: z.string(),
  replacement: z.string(),
});

/** A rewrite rule. */
export type StringRewriteRule = z.infer<typeof stringRewriteRuleSchema>;

const rulesSchema = z.array(stringRewriteRuleSchema).max(REWRITE_RULES_MAX);
const schemaVersionSchema = z.literal(STRING_REWRITE_SCHEMA_VERSION);
/** A policy revision: a positive safe integer. */
export const revisionSchema = z.int().positive().max(Number.MAX_SAFE_INTEGER);

/** The string-rewrite policy as GET /v1/admin/string-rewrites and the pool endpoint return it. */
export const stringRewritePolicySchema = z.strictObject({
  schema_version: schemaVersionSchema,
  revision: revisionSchema,
  updated_at: utcTimestampSchema,
  rules: rulesSchema,
});

/** A string-rewrite policy. */
export type StringRewritePolicy = z.infer<typeof stringRewritePolicySchema>;

/** The body of PUT /v1/admin/string-rewrites: exactly these three fields. */
export const stringRewritePutSchema = z.strictObject({
  schema_version: schemaVersionSchema,
  expected_revision: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
  rules: rulesSchema,
});

/** A string-rewrite PUT body. */
export type StringRewritePut = z.infer<typeof stringRewritePutSchema>;

/** The success body of PUT /v1/admin/string-rewrites (no rules). */
export const stringRewritePutResultSchema = z.strictObject({
  schema_version: schemaVersionSchema,
  revision: revisionSchema,
  updated_at: utcTimestampSchema,
  rule_count: z.int().min(0).max(REWRITE_RULES_MAX),
});

/** A string-rewrite PUT result. */
export type StringRewritePutResult = z.infer<typeof stringRewritePutResultSchema>;

/** An import file (`relay admin string-rewrites set --file`, local rules): exactly these two. */
export const stringRewriteImportSchema = z.strictObject({
  schema_version: schemaVersionSchema,
  rules: rulesSchema,
});

/** A string-rewrite import file. */
export type StringRewriteImport = z.infer<typeof stringRewriteImportSchema>;
