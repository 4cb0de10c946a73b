import {
  stringRewritePolicySchema,
  stringRewritePutResultSchema,
  type StringRewriteRule,
} from '@relay/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  addForgeAccount,
  bearer,
  createTestHarness,
  jsonRequest,
  login,
  type TestHarness,
} from '../__fixtures__/test-harness.js';

let harness: TestHarness;
let callerToken: string;
beforeEach(async () => {
  harness = await createTestHarness();
  addForgeAccount(harness.forge, { id: 1, login: 'mona', token: 'gho_mona' });
  callerToken = ((await (await login(harness, 'gho_mona', 'laptop')).json()) as { token: string })
    .token;
});
afterEach(async () => {
  await harness.close();
});

const adminGet = () => harness.app.request('/v1/admin/string-rewrites', bearer(ADMIN_TOKEN));
const poolGet = (token = callerToken, pool = 'default') =>
  harness.app.request(`/v1/pools/${pool}/string-rewrites`, bearer(token));
const put = (body: unknown, token = ADMIN_TOKEN) =>
  harness.app.request('/v1/admin/string-rewrites', jsonRequest('PUT', body, token));
const rules = [
  { pattern: 'acme-internal', replacement: 'acme' },
  { pattern: 'secret-[0-9]+', replacement: '' },
];

/**
 * 64 rules whose replacements are filled until `measure(rules)` is exactly `bytes` (each rule
 * well within the pattern and replacement limits).
 */
function rulesOfSize(bytes: number, measure: (rules: StringRewriteRule[]) => number) {
  const filled = Array.from({ length: 64 }, (_, i) => ({
    pattern: `rule-${String(i).padStart(3, '0')}`,
    replacement: '',
  }));
  let remaining = bytes - measure(filled);
  for (const rule of filled) {
    const add = Math.min(remaining, 1000);
    rule.replacement = 'x'.repeat(add);
    remaining -= add;
  }
  if (remaining !== 0 || measure(filled) !== bytes) throw new Error('fixture size');
  return filled;
}
const utf8Bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
/** The GET envelope of rules stored at T0, at the largest revision a policy can reach. */
const envelopeAtMaxRevision = (filled: StringRewriteRule[]) =>
  utf8Bytes({
    schema_version: 1,
    revision: Number.MAX_SAFE_INTEGER,
    updated_at: '2030-01-01T00:00:00.000Z',
    rules: filled,
  });
const putBodyAt1 = (filled: StringRewriteRule[]) =>
  utf8Bytes({ schema_version: 1, expected_revision: 1, rules: filled });

async function codeOf(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

describe('string-rewrite endpoints', () => {
  it('starts as an explicit empty policy at revision 1', async () => {
    const response = await adminGet();
    expect(response.status).toBe(200);
    expect(stringRewritePolicySchema.parse(await response.json())).toEqual({
      schema_version: 1,
      revision: 1,
      updated_at: '2030-01-01T00:00:00.000Z',
      rules: [],
    });
  });

  it('replaces the rules at the expected revision and answers rule_count, not the rules', async () => {
    harness.clock.now += 5000;
    const response = await put({ schema_version: 1, expected_revision: 1, rules });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(stringRewritePutResultSchema.parse(JSON.parse(text))).toEqual({
      schema_version: 1,
      revision: 2,
      updated_at: '2030-01-01T00:00:05.000Z',
      rule_count: 2,
    });
    expect(text).not.toContain('acme-internal');
    const policy = stringRewritePolicySchema.parse(await (await poolGet()).json());
    expect(policy).toMatchObject({ revision: 2, rules });
  });

  it('increments the revision for an unchanged ruleset, and rules: [] clears it', async () => {
    await put({ schema_version: 1, expected_revision: 1, rules });
    await put({ schema_version: 1, expected_revision: 2, rules });
    const cleared = await put({ schema_version: 1, expected_revision: 3, rules: [] });
    expect(stringRewritePutResultSchema.parse(await cleared.json())).toMatchObject({
      revision: 4,
      rule_count: 0,
    });
  });

  it('answers 409 for a stale expected_revision and changes nothing', async () => {
    await put({ schema_version: 1, expected_revision: 1, rules });
    const response = await put({ schema_version: 1, expected_revision: 1, rules: [] });
    expect(response.status).toBe(409);
    expect(await codeOf(response)).toBe('string_rewrite_revision_conflict');
    expect(stringRewritePolicySchema.parse(await (await adminGet()).json())).toMatchObject({
      revision: 2,
      rules,
    });
  });

  it.each([
    ['malformed JSON', '{"schema_version":1,'],
    ['schema_version 2', { schema_version: 2, expected_revision: 1, rules: [] }],
    ['a missing expected_revision', { schema_version: 1, rules: [] }],
    [
      'an unknown top-level field',
      { schema_version: 1, expected_revision: 1, rules: [], flags: 'i' },
    ],
    [
      'an unknown rule field',
      {
        schema_version: 1,
        expected_revision: 1,
        rules: [{ pattern: 'a', replacement: '', flags: 'i' }],
      },
    ],
    [
      'a lookaround outside the RE2 subset',
      { schema_version: 1, expected_revision: 1, rules: [{ pattern: 'a(?=b)', replacement: '' }] },
    ],
    [
      'duplicate patterns',
      { schema_version: 1, expected_revision: 1, rules: [rules[0], rules[0]] },
    ],
    [
      'a pattern matching empty input',
      { schema_version: 1, expected_revision: 1, rules: [{ pattern: 'a*', replacement: '' }] },
    ],
  ])(
    'answers 400 invalid_string_rewrite_policy for %s, without echoing it',
    async (_what, body) => {
      const response = await put(body);
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ error: { code: 'invalid_string_rewrite_policy' } });
      expect(text).not.toContain('a*');
    },
  );

  it('refuses a PUT whose GET envelope would pass 65,536 bytes (a 65,534-byte body, once accepted)', async () => {
    const body = {
      schema_version: 1,
      expected_revision: 1,
      rules: rulesOfSize(65_534, putBodyAt1),
    };
    const response = await put(body);
    expect(response.status).toBe(400);
    expect(await codeOf(response)).toBe('invalid_string_rewrite_policy');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(stringRewritePolicySchema.parse(await (await adminGet()).json())).toMatchObject({
      revision: 1,
      rules: [],
    });
  });

  it.each([
    [65_536, 200],
    [65_537, 400],
  ])('bounds the GET envelope at the largest revision: %i bytes → %i', async (bytes, status) => {
    const largest = Number.MAX_SAFE_INTEGER - 1;
    await harness.database.db
      .updateTable('string_rewrite_policy')
      .set({ revision: largest })
      .execute();
    const filled = rulesOfSize(bytes, envelopeAtMaxRevision);
    const response = await put({ schema_version: 1, expected_revision: largest, rules: filled });
    expect(response.status).toBe(status);
    const got = await (await adminGet()).text();
    expect(Buffer.byteLength(got, 'utf8')).toBeLessThanOrEqual(65_536);
    if (status === 200) {
      expect(Buffer.byteLength(got, 'utf8')).toBe(65_536);
      expect(stringRewritePolicySchema.parse(JSON.parse(got)).revision).toBe(largest + 1);
    } else {
      expect(await codeOf(response)).toBe('invalid_string_rewrite_policy');
    }
  });

  it.each([
    ['the admin GET', () => adminGet()],
    ['the pool GET', () => poolGet()],
    ['the PUT', () => put({ schema_version: 1, expected_revision: 1, rules })],
  ])('puts Cache-Control: no-store on an overload 503 of %s', async (_what, send) => {
    await harness.close();
    let backlog = 0;
    harness = await createTestHarness({
      services: { overload: { auditBacklog: () => backlog, maxAuditBacklog: 1 } },
    });
    backlog = 1;
    const response = await send();
    expect(response.status).toBe(503);
    expect(await codeOf(response)).toBe('relay_overloaded');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('requires application/json on PUT', async () => {
    const response = await harness.app.request('/v1/admin/string-rewrites', {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(response.status).toBe(415);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('puts Cache-Control: no-store on every response, errors included', async () => {
    const responses = [
      await adminGet(),
      await poolGet(),
      await put({ schema_version: 1, expected_revision: 1, rules }),
      await put({ schema_version: 1, expected_revision: 1, rules }),
      await put('nope'),
      await harness.app.request('/v1/admin/string-rewrites'),
      await poolGet('rly_' + 'A'.repeat(43)),
      await poolGet(callerToken, 'other'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 409, 400, 401, 401, 403]);
    for (const response of responses)
      expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it.each([
    ['a corrupt rules value', { rules_json: '{"not":"a list"}' }],
    ['invalid JSON', { rules_json: '[{' }],
    ['schema_version 2', { schema_version: 2 }],
  ])(
    'answers 503 string_rewrite_policy_unavailable on every surface for %s',
    async (_what, change) => {
      await harness.database.db.updateTable('string_rewrite_policy').set(change).execute();
      for (const response of [
        await adminGet(),
        await poolGet(),
        await put({ schema_version: 1, expected_revision: 1, rules: [] }),
      ]) {
        expect(response.status).toBe(503);
        expect(await codeOf(response)).toBe('string_rewrite_policy_unavailable');
        expect(response.headers.get('cache-control')).toBe('no-store');
      }
    },
  );

  it.each<[string, StringRewriteRule[]]>([
    ['an inline flag', [{ pattern: '(?i)acme-internal', replacement: '' }]],
    ['a pattern matching empty input', [{ pattern: 'x*', replacement: '' }]],
    [
      'a duplicate pattern',
      [
        { pattern: 'acme', replacement: '' },
        { pattern: 'acme', replacement: 'x' },
      ],
    ],
    ['a 257-byte pattern', [{ pattern: 'a'.repeat(257), replacement: '' }]],
    ['a 1,025-byte replacement', [{ pattern: 'acme-internal', replacement: 'b'.repeat(1025) }]],
    ['a lone surrogate', [{ pattern: 'acme\ud800', replacement: '' }]],
    [
      'a GET envelope past 65,536 bytes',
      Array.from({ length: 66 }, (_, i) => ({
        pattern: `rule-${String(i)}`,
        replacement: 'x'.repeat(1000),
      })),
    ],
  ])(
    'a stored policy with %s (edited outside the API) is not served: 503 on both GETs, a PUT repairs it',
    async (_what, stored) => {
      await harness.database.db
        .updateTable('string_rewrite_policy')
        .set({ rules_json: JSON.stringify(stored) })
        .execute();
      for (const response of [await adminGet(), await poolGet()]) {
        expect(response.status).toBe(503);
        const text = await response.text();
        expect(JSON.parse(text)).toMatchObject({
          error: { code: 'string_rewrite_policy_unavailable' },
        });
        expect(text).not.toContain(stored[0]?.pattern.slice(0, 8) ?? '');
        expect(response.headers.get('cache-control')).toBe('no-store');
      }
      const repaired = await put({ schema_version: 1, expected_revision: 1, rules });
      expect(repaired.status).toBe(200);
      expect(stringRewritePolicySchema.parse(await (await poolGet()).json()).rules).toEqual(rules);
    },
  );

  it('at the largest revision a PUT answers 503 and changes nothing: the policy stays readable', async () => {
    const max = Number.MAX_SAFE_INTEGER;
    await harness.database.db
      .updateTable('string_rewrite_policy')
      .set({ revision: max, rules_json: JSON.stringify(rules) })
      .execute();
    const response = await put({ schema_version: 1, expected_revision: max, rules: [] });
    expect(response.status).toBe(503);
    expect(await codeOf(response)).toBe('string_rewrite_policy_unavailable');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const got = stringRewritePolicySchema.parse(await (await adminGet()).json());
    expect(got.revision).toBe(max);
    expect(got.rules).toEqual(rules);
  });

  it('answers 503 when the policy row is missing (never recreated silently)', async () => {
    await harness.database.db.deleteFrom('string_rewrite_policy').execute();
    const response = await put({ schema_version: 1, expected_revision: 0, rules: [] });
    expect(response.status).toBe(503);
    expect((await adminGet()).status).toBe(503);
  });

  it('reads the admin policy from the primary store every time', async () => {
    await harness.database.db
      .updateTable('string_rewrite_policy')
      .set({ revision: 41, rules_json: JSON.stringify(rules) })
      .execute();
    expect(stringRewritePolicySchema.parse(await (await adminGet()).json()).revision).toBe(41);
  });
});
