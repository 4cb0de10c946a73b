import fc from 'fast-check';
import { err, ok, type StringRewritePolicy } from '@relay/protocol';
import { passesRewriteCheck, passesRewriteCheckAll } from '@relay/forge-transport';
import { validatePath } from '@relay/route-classifier';
import { describe, expect, it } from 'vitest';
import type { OffloadVerdict, RewriteCheckOffload } from '../policy/rewrite-check-offload.js';
import {
  INLINE_CHECK_BUDGET,
  checkStructuralValues,
  createRewriteSnapshotLoader,
  passesStructuralCheck,
  toTransportCheck,
} from './rewrite-snapshot.js';

function policy(patterns: readonly string[], revision = 1): StringRewritePolicy {
  return {
    schema_version: 1,
    revision,
    updated_at: '2030-01-01T00:00:00.000Z',
    rules: patterns.map((pattern) => ({ pattern, replacement: '' })),
  };
}

async function snapshotOf(patterns: readonly string[]) {
  const loaded = await createRewriteSnapshotLoader(() => Promise.resolve(ok(policy(patterns))))();
  if (!loaded.ok) throw new Error('unavailable');
  return loaded.value;
}

describe('rewrite snapshot loader', () => {
  it.each([
    ['a missing policy', () => Promise.resolve(err({ code: 'missing' }))],
    ['a read failure', () => Promise.reject(new Error('disk'))],
    ['rules that do not compile', () => Promise.resolve(ok(policy(['(?<named>x)'])))],
  ])('%s → string_rewrite_policy_unavailable', async (_name, read) => {
    const loaded = await createRewriteSnapshotLoader(read)();
    expect(loaded).toEqual({ ok: false, error: { code: 'string_rewrite_policy_unavailable' } });
  });

  it('compiles once per revision and recompiles after a change', async () => {
    let current = policy(['alpha'], 1);
    const load = createRewriteSnapshotLoader(() => Promise.resolve(ok(current)));
    const first = await load();
    const again = await load();
    expect(first.ok && again.ok && first.value === again.value).toBe(true);
    current = policy(['beta'], 2);
    const next = await load();
    expect(next.ok && next.value.check('alpha') && !next.value.check('beta')).toBe(true);
  });

  it.each([
    ['added', [] as string[], ['beta']],
    ['replaced', ['alpha'], ['beta']],
    ['added to', ['alpha'], ['alpha', 'beta']],
  ])(
    'applies rules %s outside the API, with revision and update time unchanged',
    async (_name, before, after) => {
      // An operator's SQL or a restore can change the stored rules and keep both: what is
      // stored is what holds, on the event loop and on the offload's worker alike.
      let current = policy(before, 7);
      const load = createRewriteSnapshotLoader(() => Promise.resolve(ok(current)));
      const first = await load();
      expect(first.ok && first.value.check('beta')).toBe(true);
      current = policy(after, 7);
      const next = await load();
      expect(next.ok && !next.value.check('beta')).toBe(true);
      expect(next.ok && (await next.value.checkAll(['beta']))).toBe('deny');
    },
  );
});

describe('rewrite snapshot loader with a change stamp', () => {
  function counted(initial: StringRewritePolicy) {
    const state = { policy: initial, reads: 0, stamp: 'a' as string | undefined };
    const read = () => {
      state.reads++;
      return Promise.resolve(ok(state.policy));
    };
    return { state, load: createRewriteSnapshotLoader(read, () => state.stamp) };
  }

  it('does not read again while the stamp is unchanged', async () => {
    const { state, load } = counted(policy(['alpha']));
    const first = await load();
    if (!first.ok) throw new Error('unavailable');
    for (let i = 0; i < 5; i++) {
      const again = await load();
      expect(again.ok && again.value).toBe(first.value);
    }
    expect(state.reads).toBe(1);
  });

  it('reads again at once when the stamp changes, and applies the new rules', async () => {
    const { state, load } = counted(policy(['alpha'], 1));
    const first = await load();
    expect(first.ok && first.value.check('beta')).toBe(true);
    state.policy = policy(['beta'], 2);
    state.stamp = 'b';
    const next = await load();
    expect(state.reads).toBe(2);
    expect(next.ok && next.value.revision).toBe(2);
    expect(next.ok && next.value.check('beta')).toBe(false);
  });

  it('reads at every request when the store cannot tell (undefined or throwing stamp)', async () => {
    const { state, load } = counted(policy(['alpha']));
    state.stamp = undefined;
    await load();
    await load();
    expect(state.reads).toBe(2);
    const throwing = createRewriteSnapshotLoader(
      () => {
        state.reads++;
        return Promise.resolve(ok(state.policy));
      },
      () => {
        throw new Error('closed');
      },
    );
    await throwing();
    await throwing();
    expect(state.reads).toBe(4);
  });

  it('never reuses a failed read: a broken policy blocks until it is readable again', async () => {
    let broken = true;
    let reads = 0;
    const load = createRewriteSnapshotLoader(
      () => {
        reads++;
        return Promise.resolve(broken ? err({ code: 'corrupt' }) : ok(policy(['alpha'])));
      },
      () => 'same',
    );
    expect((await load()).ok).toBe(false);
    expect((await load()).ok).toBe(false);
    expect(reads).toBe(2);
    broken = false;
    expect((await load()).ok).toBe(true);
    expect((await load()).ok).toBe(true);
    expect(reads).toBe(3);
  });

  it('takes the stamp before reading, so a change during the read is read again', async () => {
    const state = { stamp: 'a', reads: 0 };
    const load = createRewriteSnapshotLoader(
      () => {
        state.reads++;
        state.stamp = `changed-${String(state.reads)}`;
        return Promise.resolve(ok(policy(['alpha'])));
      },
      () => state.stamp,
    );
    await load();
    await load();
    expect(state.reads).toBe(2);
  });
});

describe('structural check', () => {
  // Without '%', every value has one form: the exact property below holds as stated.
  const text = fc.string().map((value) => value.replaceAll('%', ''));
  const values = fc.record({
    path: text,
    query: fc.dictionary(text, fc.oneof(text, fc.array(text))),
    headers: fc.dictionary(text, text),
  });

  it('denies exactly when some path, query key, query value or header value holds the pattern', async () => {
    const snapshot = await snapshotOf(['falcon']);
    fc.assert(
      fc.property(values, (request) => {
        const all = [
          request.path,
          ...Object.keys(request.query),
          ...Object.values(request.query).flat(),
          ...Object.values(request.headers),
        ];
        const expected = !all.some((value) => value.includes('falcon'));
        expect(passesStructuralCheck(snapshot, request)).toBe(expected);
      }),
    );
  });

  it('finds a pattern wherever it is planted', async () => {
    const snapshot = await snapshotOf(['falcon']);
    fc.assert(
      fc.property(values, fc.nat(3), fc.string(), (request, where, prefix) => {
        const planted = `${prefix}falcon`;
        const variants = [
          { ...request, path: planted },
          { ...request, query: { ...request.query, k: planted } },
          { ...request, query: { ...request.query, [planted]: 'v' } },
          { ...request, headers: { ...request.headers, accept: planted } },
        ];
        expect(passesStructuralCheck(snapshot, variants[where] ?? request)).toBe(false);
      }),
    );
  });

  it('an empty policy lets everything pass', async () => {
    const snapshot = await snapshotOf([]);
    fc.assert(fc.property(values, (request) => passesStructuralCheck(snapshot, request)));
  });
});

describe('structural check of percent-encoded values', () => {
  type Where = 'path' | 'query key' | 'query value' | 'header value';
  function requestWith(where: Where, value: string) {
    switch (where) {
      case 'path':
        return { path: value };
      case 'query key':
        return { path: '/search/issues', query: { [value]: 'x' } };
      case 'query value':
        return { path: '/search/issues', query: { q: ['x', value] } };
      case 'header value':
        return { path: '/rate_limit', headers: { 'if-none-match': value } };
    }
  }

  it.each<[string, string, Where, string, boolean]>([
    ['as written', 'bluefalcon', 'path', '/repos/acme/bluefalcon', false],
    ['%62', 'bluefalcon', 'path', '/repos/acme/%62luefalcon', false],
    ['%42 is B', 'Bluefalcon', 'path', '/repos/acme/%42luefalcon', false],
    ['%42 is not b', 'bluefalcon', 'path', '/repos/acme/%42luefalcon', true],
    ['uppercase hex', 'bluefalcon', 'path', '/repos/acme/%62%6C%75%65falcon', false],
    ['lowercase hex', 'bluefalcon', 'path', '/repos/acme/%62%6c%75%65falcon', false],
    ['mixed hex case', 'bluefalcon', 'path', '/repos/acme/%62%6C%75%65fal%63%6fn', false],
    ['every letter', 'bluefalcon', 'path', '/repos/acme/%62%6C%75%65%66%61%6c%63%6F%6E', false],
    ['%2F in a branch', 'a/b', 'path', '/repos/o/r/branches/a%2Fb/protection', false],
    [
      'UTF-8 of a non-ASCII literal',
      'bluefalcón',
      'path',
      '/repos/o/r/contents/bluefalc%C3%B3n',
      false,
    ],
    [
      'double encoding is decoded once only',
      'bluefalcon',
      'path',
      '/repos/acme/%2562luefalcon',
      true,
    ],
    ['in a query key', 'bluefalcon', 'query key', '%62luefalcon', false],
    ['in a query value', 'bluefalcon', 'query value', 'repo:acme/%62luefalcon', false],
    ['double-encoded query value', 'bluefalcon', 'query value', '%2562luefalcon', true],
    ['in a header value', 'bluefalcon', 'header value', '"%62luefalcon"', false],
  ])('%s (%s in the %s %s) → passes %s', async (_name, pattern, where, value, passes) => {
    const snapshot = await snapshotOf([pattern]);
    expect(passesStructuralCheck(snapshot, requestWith(where, value))).toBe(passes);
  });

  it.each<[string, Where]>([
    ['a\ud800b', 'query value'],
    ['\udc00', 'query key'],
    ['"\ud83d"', 'header value'],
  ])('a lone surrogate (%j in a %s) is denied, even by an empty policy', async (value, where) => {
    // It has no single reading: the transport would send U+FFFD, not the text checked.
    for (const patterns of [[], ['bluefalcon']]) {
      const snapshot = await snapshotOf(patterns);
      expect(passesStructuralCheck(snapshot, requestWith(where, value))).toBe(false);
      // The relay's own path (checkAll) too: an empty policy takes no shortcut around it.
      expect(await checkStructuralValues(snapshot, requestWith(where, value))).toBe('deny');
    }
  });

  it('a double-encoded path does not slip: path validation refuses it before anything is sent', () => {
    expect(validatePath('/repos/acme/%2562luefalcon')).toEqual({
      ok: false,
      code: 'invalid_path',
      rule: 'double_encoding',
    });
  });

  it('denies every percent-encoding of a planted pattern, wherever it is planted', async () => {
    const snapshot = await snapshotOf(['bluefalcon']);
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
        fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
        (encode, upper) => {
          const spelled = Array.from('bluefalcon')
            .map((char, index) => {
              if (encode[index] !== true) return char;
              const hex = char.charCodeAt(0).toString(16);
              return `%${upper[index] === true ? hex.toUpperCase() : hex}`;
            })
            .join('');
          const everywhere: readonly Where[] = ['path', 'query key', 'query value', 'header value'];
          for (const where of everywhere) {
            const request = requestWith(where, `/repos/acme/${spelled}`);
            expect(passesStructuralCheck(snapshot, request)).toBe(false);
          }
        },
      ),
    );
  });
});

describe('structural check of header values as the forge reads them', () => {
  // HTTP strips spaces and tabs around a field value (RFC 9110 §5.5): the forge reads
  // ' application/vnd.falcon ' as 'application/vnd.falcon', so an anchored pattern must see that.
  it.each<[string, string, boolean]>([
    ['application/vnd.falcon', '^application/vnd\\.falcon$', false],
    [' application/vnd.falcon', '^application/vnd\\.falcon$', false],
    ['application/vnd.falcon ', '^application/vnd\\.falcon$', false],
    ['\tapplication/vnd.falcon\t', '^application/vnd\\.falcon$', false],
    [' \t application/vnd.falcon \t ', '^application/vnd\\.falcon$', false],
    [' application/vnd.%66alcon ', '^application/vnd\\.falcon$', false],
    ['application/vnd.falcon x', '^application/vnd\\.falcon$', true],
    ['application/ vnd.falcon', '^application/vnd\\.falcon$', true],
    [' falcon', '^ falcon', false],
  ])('%j against %s → passes %s', async (value, pattern, passes) => {
    const snapshot = await snapshotOf([pattern]);
    for (const name of ['accept', 'x-forge-api-version', 'if-none-match', 'if-modified-since']) {
      const request = { path: '/rate_limit', headers: { [name]: value } };
      expect(passesStructuralCheck(snapshot, request)).toBe(passes);
      expect(await checkStructuralValues(snapshot, request)).toBe(passes ? 'pass' : 'deny');
    }
  });
});

describe('transport check of outgoing URLs', () => {
  // The transport hands the check whole URLs, where `^` is the scheme: the path and the query of
  // the request a URL makes are read as structural values too, as the caller's own are.
  const base = 'https://api.forge.test';
  it.each<[string, string, boolean]>([
    [`${base}/repos/acme/widgets`, '^/repos/acme/widgets$', false],
    [`${base}/repos/acme/widgets/issues`, '^/repos/acme/widgets$', true],
    [`${base}/repos/acme/%77idgets`, '^/repos/acme/widgets$', false],
    [`${base}/repos/acme/widgets?per_page=100&page=2`, '^/repos/acme/widgets$', false],
    [`${base}/repos/acme/widgets/issues?labels=falcon`, '^falcon$', false],
    [`${base}/repos/acme/widgets/issues?labels=falcon%20x`, '^falcon x$', false],
    [`${base}/repos/acme/widgets/issues?labels=falcon+x`, '^falcon x$', false],
    [`${base}/repos/acme/widgets/issues?falcon=1`, '^falcon$', false],
    [`${base}/repos/acme/widgets/issues?labels=falcons`, '^falcon$', true],
    ['application/vnd.github+json', '^/repos/acme/widgets$', true],
  ])('%s against %s → passes %s', async (url, pattern, passes) => {
    const check = toTransportCheck(await snapshotOf([pattern]));
    expect(await passesRewriteCheckAll(check, [url])).toBe(passes);
    expect(passesRewriteCheck(check, url)).toBe(passes);
  });
});

describe('expensive checks run off the event loop', () => {
  /** An offload that records what it was asked and answers as told. */
  function recordingOffload(verdict: OffloadVerdict) {
    const asked: { stamp: string; values: readonly string[] }[] = [];
    const offload: RewriteCheckOffload = {
      check: (stamp, _rules, values) => {
        asked.push({ stamp, values });
        return Promise.resolve(verdict);
      },
      close: () => Promise.resolve(),
    };
    return { asked, offload };
  }

  async function loadWith(patterns: readonly string[], offload: RewriteCheckOffload) {
    const read = () => Promise.resolve(ok(policy(patterns)));
    const loaded = await createRewriteSnapshotLoader(read, undefined, offload)();
    if (!loaded.ok) throw new Error('unavailable');
    return loaded.value;
  }

  it('a cheap check runs inline: the offload is not asked', async () => {
    const { asked, offload } = recordingOffload('deny');
    const snapshot = await loadWith(['bluefalcon'], offload);
    expect(await checkStructuralValues(snapshot, { path: '/repos/a/b' })).toBe('pass');
    expect(await checkStructuralValues(snapshot, { path: '/repos/a/bluefalcon' })).toBe('deny');
    expect(asked).toEqual([]);
  });

  it('a check whose bound of work exceeds the inline budget goes to the offload', async () => {
    const heavy = ['.{1,1000}[@][A-Z]'];
    const value = 'x'.repeat(Math.ceil(INLINE_CHECK_BUDGET / 1000));
    for (const [verdict, answer] of [
      ['pass', 'pass'],
      ['deny', 'deny'],
      ['timeout', 'deny'],
      ['busy', 'busy'],
    ] as const) {
      const { asked, offload } = recordingOffload(verdict);
      const snapshot = await loadWith(heavy, offload);
      expect(await checkStructuralValues(snapshot, { path: '/search', query: { q: value } })).toBe(
        answer,
      );
      expect(asked).toHaveLength(1);
      expect(asked[0]?.values).toContain(value);
    }
  });

  it('the transport check uses the offload too, and a busy offload denies', async () => {
    const { asked, offload } = recordingOffload('busy');
    const snapshot = await loadWith(['.{1,1000}[@][A-Z]'], offload);
    const check = toTransportCheck(snapshot);
    expect(await check.checkAll?.(['y'.repeat(1000)])).toBe(false);
    expect(asked).toHaveLength(1);
  });
});

describe('a policy too large to compile on the event loop', () => {
  it('is never compiled here: every check, however small, runs on the offload', async () => {
    const asked: (readonly string[])[] = [];
    const offload: RewriteCheckOffload = {
      check: (_stamp, _rules, values) => {
        asked.push(values);
        return Promise.resolve(values.some((value) => value.includes('@')) ? 'deny' : 'pass');
      },
      close: () => Promise.resolve(),
    };
    // Five rules of about 1,000 states each: above MAIN_THREAD_POLICY_COST.
    const patterns = [1, 2, 3, 4, 5].map((n) => `.{1,1000}[@][A-Z]{${String(n)}}`);
    const read = () => Promise.resolve(ok(policy(patterns)));
    const loaded = await createRewriteSnapshotLoader(read, undefined, offload)();
    if (!loaded.ok) throw new Error('unavailable');
    const snapshot = loaded.value;
    expect(await checkStructuralValues(snapshot, { path: '/repos/a/b' })).toBe('pass');
    expect(await checkStructuralValues(snapshot, { path: '/repos/a/b@C' })).toBe('deny');
    expect(asked).toHaveLength(2);
    // The synchronous check cannot run it: it fails closed.
    expect(snapshot.check('/repos/a/b')).toBe(false);
  });

  it('a pattern that does not parse makes the policy unavailable', async () => {
    const offload: RewriteCheckOffload = {
      check: () => Promise.resolve('pass'),
      close: () => Promise.resolve(),
    };
    const read = () => Promise.resolve(ok(policy(['(?<named>x)'])));
    const loaded = await createRewriteSnapshotLoader(read, undefined, offload)();
    expect(loaded.ok).toBe(false);
  });
});
