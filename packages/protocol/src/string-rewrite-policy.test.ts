import { describe, expect, it } from 'vitest';
import {
  stringRewriteImportSchema,
  stringRewritePolicySchema,
  stringRewritePutResultSchema,
  stringRewritePutSchema,
} from './string-rewrite-policy.js';

const rules = [{ pattern: 'project-x', replacement: 'project' }];
const policy = { schema_version: 1, revision: 1, updated_at: '2026-11-22T03:00:00Z', rules };
const put = { schema_version: 1, expected_revision: 1, rules };

describe('string-rewrite documents', () => {
  it.each([
    ['a stored policy', stringRewritePolicySchema, policy],
    ['the fresh empty policy', stringRewritePolicySchema, { ...policy, rules: [] }],
    ['a PUT body', stringRewritePutSchema, put],
    ['a PUT clearing the rules', stringRewritePutSchema, { ...put, rules: [] }],
    [
      'a PUT result',
      stringRewritePutResultSchema,
      { schema_version: 1, revision: 2, updated_at: policy.updated_at, rule_count: 1 },
    ],
    ['an import file', stringRewriteImportSchema, { schema_version: 1, rules }],
    [
      'an empty replacement (deletes matches)',
      stringRewriteImportSchema,
      { schema_version: 1, rules: [{ pattern: 'x+', replacement: '' }] },
    ],
  ])('accept %s', (_name, schema, input) => {
    expect(schema.safeParse(input).success).toBe(true);
  });

  it.each([
    ['schema_version 2', stringRewritePolicySchema, { ...policy, schema_version: 2 }],
    ['revision 0', stringRewritePolicySchema, { ...policy, revision: 0 }],
    ['an unsafe revision', stringRewritePolicySchema, { ...policy, revision: 2 ** 53 }],
    [
      'updated_at with an offset',
      stringRewritePolicySchema,
      { ...policy, updated_at: '2026-11-22T03:00:00+01:00' },
    ],
    ['updated_at missing', stringRewritePolicySchema, { schema_version: 1, revision: 1, rules }],
    ['a PUT without expected_revision', stringRewritePutSchema, { schema_version: 1, rules }],
    [
      'a PUT with a string expected_revision',
      stringRewritePutSchema,
      { ...put, expected_revision: '1' },
    ],
    ['a PUT with an extra field', stringRewritePutSchema, { ...put, revision: 3 }],
    ['a PUT with schema_version 0', stringRewritePutSchema, { ...put, schema_version: 0 }],
    ['an import with expected_revision', stringRewriteImportSchema, { ...put }],
    ['an import without rules', stringRewriteImportSchema, { schema_version: 1 }],
    [
      'a rule without replacement',
      stringRewriteImportSchema,
      { schema_version: 1, rules: [{ pattern: 'x' }] },
    ],
    [
      'a rule without pattern',
      stringRewriteImportSchema,
      { schema_version: 1, rules: [{ replacement: 'x' }] },
    ],
    [
      'a rule with a non-string pattern',
      stringRewriteImportSchema,
      { schema_version: 1, rules: [{ pattern: 1, replacement: 'x' }] },
    ],
    [
      'a rule with an extra field',
      stringRewriteImportSchema,
      { schema_version: 1, rules: [{ pattern: 'x', replacement: 'y', flags: 'i' }] },
    ],
    [
      '129 rules',
      stringRewriteImportSchema,
      {
        schema_version: 1,
        rules: Array.from({ length: 129 }, (_, i) => ({ pattern: `p${i}`, replacement: '' })),
      },
    ],
    [
      'a negative rule_count',
      stringRewritePutResultSchema,
      { schema_version: 1, revision: 2, updated_at: policy.updated_at, rule_count: -1 },
    ],
  ])('reject %s', (_name, schema, input) => {
    expect(schema.safeParse(input).success).toBe(false);
  });
});
