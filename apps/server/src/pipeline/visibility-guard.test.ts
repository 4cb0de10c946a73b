import { createTransportError, type ForgeResponse } from '@relay/forge-transport';
import { err, ok } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import { forgeResponse } from './__fixtures__/forge-responses.js';
import { createVisibilityGuard, type ProbeResult } from './visibility-guard.js';

const EXHAUSTED = forgeResponse(403, { message: 'rate limited' }, { remaining: 0 });

function withEtag(response: ForgeResponse, etag: string): ForgeResponse {
  return { ...response, headers: { ...response.headers, etag } };
}

function setUp(anonymous: ProbeResult, pooled?: ProbeResult, anonymousSpent = false) {
  let now = 0;
  const calls: string[] = [];
  // The tests below run with a configured 5-minute proof; the default (60 s) is tested alone.
  const guard = createVisibilityGuard({ now: () => now, publicTtlMs: 300_000 });
  const prove = () =>
    guard.prove({
      owner: 'Acme',
      repo: 'Widgets',
      anonymousSpent: () => anonymousSpent,
      anonymous: (path) => {
        calls.push(`anonymous ${path}`);
        return Promise.resolve(anonymous);
      },
      pooled: (path) => {
        calls.push(`pooled ${path}`);
        return Promise.resolve(pooled);
      },
    });
  return { guard, prove, calls, advance: (ms: number) => (now += ms) };
}

describe('public-visibility guard', () => {
  it.each([
    ['public metadata', ok(forgeResponse(200, { private: false, visibility: 'public' })), true],
    ['public without a visibility field', ok(forgeResponse(200, { private: false })), true],
    ['a private flag', ok(forgeResponse(200, { private: true })), false],
    [
      'internal visibility',
      ok(forgeResponse(200, { private: false, visibility: 'internal' })),
      false,
    ],
    ['no private field', ok(forgeResponse(200, { name: 'widgets' })), false],
    ['a 404 (private or unknown)', ok(forgeResponse(404, { message: 'Not Found' })), false],
    ['a 500', ok(forgeResponse(500, null)), false],
    [
      'a 403 that is not a rate limit',
      ok(forgeResponse(403, { message: 'no' }, { remaining: 10 })),
      false,
    ],
  ])('%s → public %s, anonymously only', async (_name, answer, isPublic) => {
    const h = setUp(answer);
    const proof = await h.prove();
    expect(proof.ok).toBe(isPublic);
    expect(h.calls).toEqual(['anonymous /repos/Acme/Widgets']);
  });

  it('uses a pooled identity only when the anonymous quota is exhausted', async () => {
    const h = setUp(ok(EXHAUSTED), ok(forgeResponse(200, { private: false })));
    expect(await h.prove()).toEqual({ ok: true, value: 'pooled' });
    expect(h.calls).toEqual(['anonymous /repos/Acme/Widgets', 'pooled /repos/Acme/Widgets']);
  });

  it('a pooled answer that says private is refused (only the flag is read)', async () => {
    const h = setUp(ok(EXHAUSTED), ok(forgeResponse(200, { private: true })));
    expect(await h.prove()).toEqual({ ok: false, error: { code: 'not_public' } });
  });

  it('without an identity to ask, an unprovable repository is not public', async () => {
    const h = setUp(ok(EXHAUSTED));
    expect(await h.prove()).toEqual({ ok: false, error: { code: 'not_public' } });
  });

  it('a probe refused by the rewrite policy is reported as such (a hard 403 upstream)', async () => {
    const denied = createTransportError('string_rewrite_denied');
    const h = setUp(err(denied));
    expect(await h.prove()).toEqual({ ok: false, error: { code: 'probe_failed', error: denied } });
  });

  it('caches a public proof for 5 minutes and a refusal for 30 s, case-insensitively', async () => {
    const pub = setUp(ok(forgeResponse(200, { private: false })));
    await pub.prove();
    pub.advance(299_999);
    expect(await pub.prove()).toEqual({ ok: true, value: 'cached' });
    pub.advance(1);
    expect(await pub.prove()).toEqual({ ok: true, value: 'anonymous' });
    const refused = setUp(ok(forgeResponse(404, {})));
    await refused.prove();
    refused.advance(29_999);
    await refused.prove();
    refused.advance(1);
    await refused.prove();
    expect(refused.calls).toHaveLength(2);
  });

  it('skips the anonymous probe while the anonymous quota is known to be spent', async () => {
    const h = setUp(ok(EXHAUSTED), ok(forgeResponse(200, { private: false })), true);
    expect(await h.prove()).toEqual({ ok: true, value: 'pooled' });
    expect(h.calls).toEqual(['pooled /repos/Acme/Widgets']);
  });

  it('with the quota known spent and no identity to ask, the repository is not public', async () => {
    const h = setUp(ok(EXHAUSTED), undefined, true);
    expect(await h.prove()).toEqual({ ok: false, error: { code: 'not_public' } });
  });

  it('a fresh public repository read renews the proof for another 5 minutes', async () => {
    const h = setUp(ok(forgeResponse(200, { private: false })));
    await h.prove();
    h.advance(240_000);
    h.guard.observe('acme', 'WIDGETS', forgeResponse(200, { private: false }));
    h.advance(299_999);
    expect(await h.prove()).toEqual({ ok: true, value: 'cached' });
    expect(h.calls).toHaveLength(1);
  });

  it.each([
    ['a private flag', forgeResponse(200, { private: true })],
    ['a 404', forgeResponse(404, { message: 'Not Found' })],
  ])('a fresh repository read with %s replaces a public proof by a refusal', async (_n, answer) => {
    const h = setUp(ok(forgeResponse(200, { private: false })));
    await h.prove();
    h.guard.observe('Acme', 'Widgets', answer);
    expect(await h.prove()).toEqual({ ok: false, error: { code: 'not_public' } });
    expect(h.calls).toHaveLength(1);
  });

  it('other answers (a 304 of unknown ETag, a 5xx, a rate limit) neither renew nor refuse', async () => {
    const h = setUp(ok(withEtag(forgeResponse(200, { private: false }), '"public-1"')));
    await h.prove();
    h.advance(240_000);
    h.guard.observe('Acme', 'Widgets', forgeResponse(304, null));
    h.guard.observe('Acme', 'Widgets', withEtag(forgeResponse(304, null), '"other"'));
    h.guard.observe('Acme', 'Widgets', forgeResponse(502, null));
    h.guard.observe('Acme', 'Widgets', EXHAUSTED);
    expect(await h.prove()).toEqual({ ok: true, value: 'cached' });
    h.advance(60_000);
    expect(await h.prove()).toEqual({ ok: true, value: 'anonymous' });
  });

  it('a 304 of a public answer the guard saw renews the proof (the metadata is unchanged)', async () => {
    const h = setUp(ok(forgeResponse(200, { private: false })));
    await h.prove();
    // The pipeline's repo_view read, from the identity that then revalidates it.
    h.guard.observe('Acme', 'Widgets', withEtag(forgeResponse(200, { private: false }), 'W/"a1"'));
    h.advance(240_000);
    h.guard.observe('acme', 'widgets', withEtag(forgeResponse(304, null), '"a1"'));
    h.advance(299_999);
    expect(await h.prove()).toEqual({ ok: true, value: 'cached' });
    expect(h.calls).toHaveLength(1);
    // A probe's own answer counts too, after the proof has expired.
    const probed = setUp(ok(withEtag(forgeResponse(200, { private: false }), '"p1"')));
    await probed.prove();
    probed.advance(400_000);
    probed.guard.observe('Acme', 'Widgets', withEtag(forgeResponse(304, null), '"p1"'));
    expect(await probed.prove()).toEqual({ ok: true, value: 'cached' });
    expect(probed.calls).toHaveLength(1);
  });

  it('after a refusal, a 304 of an earlier public answer proves nothing', async () => {
    const h = setUp(ok(withEtag(forgeResponse(200, { private: false }), '"a1"')));
    await h.prove();
    h.guard.observe('Acme', 'Widgets', withEtag(forgeResponse(200, { private: true }), '"b2"'));
    h.advance(30_000);
    h.guard.observe('Acme', 'Widgets', withEtag(forgeResponse(304, null), '"a1"'));
    expect(await h.prove()).toEqual({ ok: true, value: 'anonymous' });
    expect(h.calls).toHaveLength(2);
  });

  it('concurrent proofs of one repository share one probe', async () => {
    const waiting: ((answer: ProbeResult) => void)[] = [];
    const calls: string[] = [];
    const guard = createVisibilityGuard({ now: () => 0 });
    const input = (repo: string) => ({
      owner: 'Acme',
      repo,
      anonymous: (path: string) => {
        calls.push(path);
        return new Promise<ProbeResult>((resolve) => waiting.push(resolve));
      },
      pooled: () => Promise.resolve(undefined),
    });
    const first = guard.prove(input('Widgets'));
    const second = guard.prove(input('widgets'));
    await Promise.resolve();
    for (const release of waiting) release(ok(forgeResponse(200, { private: false })));
    expect(await first).toEqual({ ok: true, value: 'anonymous' });
    expect(await second).toEqual({ ok: true, value: 'cached' });
    expect(calls).toEqual(['/repos/Acme/Widgets']);
  });

  it('a waiting proof probes itself when the shared probe recorded nothing', async () => {
    const answers: ProbeResult[] = [
      err(createTransportError('forge_timeout')),
      ok(forgeResponse(200, { private: false })),
    ];
    const calls: string[] = [];
    const guard = createVisibilityGuard({ now: () => 0 });
    const input = {
      owner: 'Acme',
      repo: 'Widgets',
      anonymous: (path: string) => {
        calls.push(path);
        const answer = answers.shift();
        return answer === undefined
          ? Promise.reject(new Error('no answer'))
          : Promise.resolve(answer);
      },
      pooled: () => Promise.resolve(undefined),
    };
    const [first, second] = await Promise.all([guard.prove(input), guard.prove(input)]);
    expect(first.ok).toBe(false);
    expect(second).toEqual({ ok: true, value: 'anonymous' });
    expect(calls).toHaveLength(2);
  });

  it('a read that embeds the repository (PR base, run, combined status) renews the proof', async () => {
    for (const [kind, body] of [
      ['pr_view', { number: 7, base: { repo: { full_name: 'acme/widgets', private: false } } }],
      ['run_view', { id: 9, repository: { full_name: 'Acme/Widgets', private: false } }],
      [
        'commit_status',
        { state: 'pending', repository: { full_name: 'acme/widgets', private: false } },
      ],
    ] as const) {
      const h = setUp(ok(forgeResponse(200, { private: false })));
      await h.prove();
      h.advance(240_000);
      await h.guard.observeRead(kind, 'Acme', 'Widgets', forgeResponse(200, body));
      h.advance(299_999);
      expect(await h.prove()).toEqual({ ok: true, value: 'cached' });
      expect(h.calls).toHaveLength(1);
    }
  });

  it('an embedded repository that says private replaces the proof by a refusal', async () => {
    const h = setUp(ok(forgeResponse(200, { private: false })));
    await h.prove();
    const body = { id: 9, repository: { full_name: 'acme/widgets', private: true } };
    await h.guard.observeRead('run_view', 'acme', 'widgets', forgeResponse(200, body));
    expect(await h.prove()).toEqual({ ok: false, error: { code: 'not_public' } });
    expect(h.calls).toHaveLength(1);
  });

  it.each([
    [
      'another repository',
      'pr_view',
      200,
      { base: { repo: { full_name: 'acme/other', private: false } } },
    ],
    ['no embedded repository', 'pr_view', 200, { number: 7 }],
    [
      'a kind that embeds none',
      'issue_view',
      200,
      { repository: { full_name: 'acme/widgets', private: false } },
    ],
    [
      'a status other than 200',
      'run_view',
      404,
      { repository: { full_name: 'acme/widgets', private: false } },
    ],
  ] as const)('a read with %s neither renews nor refuses', async (_n, kind, status, body) => {
    const h = setUp(ok(forgeResponse(200, { private: false })));
    await h.prove();
    h.advance(240_000);
    await h.guard.observeRead(kind, 'acme', 'widgets', forgeResponse(status, body));
    expect(await h.prove()).toEqual({ ok: true, value: 'cached' });
    h.advance(60_000);
    expect(await h.prove()).toEqual({ ok: true, value: 'anonymous' });
  });

  it('observeRead of a repo_view answer is observe', async () => {
    const h = setUp(ok(forgeResponse(200, { private: false })));
    await h.prove();
    await h.guard.observeRead(
      'repo_view',
      'acme',
      'widgets',
      forgeResponse(404, { message: 'Not Found' }),
    );
    expect(await h.prove()).toEqual({ ok: false, error: { code: 'not_public' } });
  });
});

describe('public-visibility guard: proofs without quota (issue 23 item 3)', () => {
  const PUBLIC = withEtag(forgeResponse(200, { private: false }), 'W/"e1"');

  /** A guard whose pooled lane answers `conditional` when asked conditionally, else `plain`. */
  function conditionalSetUp(conditional: ProbeResult, plain: ProbeResult) {
    let now = 0;
    let holdsEtag = false;
    const calls: string[] = [];
    const guard = createVisibilityGuard({ now: () => now });
    const prove = (anonymousSpent = true) =>
      guard.prove({
        owner: 'acme',
        repo: 'widgets',
        anonymousSpent: () => anonymousSpent,
        pooledRevalidates: () => holdsEtag,
        anonymous: (path) => {
          calls.push(`anonymous ${path}`);
          return Promise.resolve(ok(PUBLIC));
        },
        pooled: (path, isConditional = false) => {
          calls.push(`${isConditional ? 'conditional' : 'pooled'} ${path}`);
          holdsEtag = true;
          return Promise.resolve(isConditional ? conditional : plain);
        },
      });
    return { guard, prove, calls, advance: (ms: number) => (now += ms) };
  }

  it('asks the identity holding an ETag first; a 304 of a public answer renews the proof', async () => {
    const h = conditionalSetUp(ok(withEtag(forgeResponse(304, null), '"e1"')), ok(PUBLIC));
    expect(await h.prove()).toEqual({ ok: true, value: 'pooled' });
    h.advance(60_000);
    expect(await h.prove(false)).toEqual({ ok: true, value: 'pooled' });
    expect(h.calls).toEqual(['pooled /repos/acme/widgets', 'conditional /repos/acme/widgets']);
    h.advance(59_999);
    expect(await h.prove()).toEqual({ ok: true, value: 'cached' });
  });

  it.each([
    ['a 304 of an ETag never seen public', ok(withEtag(forgeResponse(304, null), '"other"'))],
    ['a 304 without an ETag', ok(forgeResponse(304, null))],
    ['a 500', ok(forgeResponse(500, null))],
  ])('%s proves nothing: the ordinary order follows', async (_name, conditional) => {
    const h = conditionalSetUp(conditional, ok(PUBLIC));
    await h.prove();
    h.advance(60_000);
    expect(await h.prove(false)).toEqual({ ok: true, value: 'anonymous' });
    expect(h.calls.slice(1)).toEqual([
      'conditional /repos/acme/widgets',
      'anonymous /repos/acme/widgets',
    ]);
  });

  it('a conditional answer that says private (its ETag changed) is a refusal', async () => {
    const h = conditionalSetUp(ok(forgeResponse(200, { private: true })), ok(PUBLIC));
    await h.prove();
    h.advance(60_000);
    expect(await h.prove(false)).toEqual({ ok: false, error: { code: 'not_public' } });
    expect(h.calls).toHaveLength(2);
  });

  it('a refusal forgets the public ETags: a later 304 of one proves nothing', async () => {
    const h = conditionalSetUp(ok(withEtag(forgeResponse(304, null), '"e1"')), ok(PUBLIC));
    await h.prove();
    await h.guard.revoke('acme/widgets');
    h.advance(30_000);
    expect(await h.prove(false)).toEqual({ ok: true, value: 'anonymous' });
    expect(h.calls.slice(1)).toEqual([
      'conditional /repos/acme/widgets',
      'anonymous /repos/acme/widgets',
    ]);
  });

  it.each([
    [
      'pr_list',
      [
        { number: 1, base: { repo: { full_name: 'acme/widgets', private: false } } },
        { number: 2, base: { repo: { full_name: 'Acme/Widgets', private: false } } },
      ],
    ],
    [
      'run_list',
      {
        total_count: 1,
        workflow_runs: [{ id: 9, repository: { full_name: 'acme/widgets', private: false } }],
      },
    ],
    [
      'commit_pulls',
      [{ number: 3, base: { repo: { full_name: 'acme/widgets', private: false } } }],
    ],
    [
      'commit_check_suites',
      {
        total_count: 1,
        check_suites: [{ id: 4, repository: { full_name: 'acme/widgets', private: false } }],
      },
    ],
    [
      'workflow_run_list',
      {
        total_count: 1,
        workflow_runs: [{ id: 9, repository: { full_name: 'acme/widgets', private: false } }],
      },
    ],
  ] as const)('a %s whose items embed the repository renews the proof', async (kind, body) => {
    const h = setUp(ok(forgeResponse(200, { private: false })));
    await h.prove();
    h.advance(240_000);
    await h.guard.observeRead(kind, 'acme', 'widgets', forgeResponse(200, body));
    h.advance(299_999);
    expect(await h.prove()).toEqual({ ok: true, value: 'cached' });
    expect(h.calls).toHaveLength(1);
  });

  it('a list with one item that embeds the repository as private is a refusal', async () => {
    const h = setUp(ok(forgeResponse(200, { private: false })));
    await h.prove();
    const items = [
      { number: 1, base: { repo: { full_name: 'acme/widgets', private: false } } },
      { number: 2, base: { repo: { full_name: 'acme/widgets', private: true } } },
    ];
    await h.guard.observeRead('pr_list', 'acme', 'widgets', forgeResponse(200, items));
    expect(await h.prove()).toEqual({ ok: false, error: { code: 'not_public' } });
  });

  it.each([
    [
      'only other repositories',
      [{ base: { repo: { full_name: 'carol/widgets', private: false } } }],
    ],
    ['an empty list', []],
    ['items without a repository', [{ number: 1 }, null, 7]],
  ])('a list with %s neither renews nor refuses', async (_name, items) => {
    const h = setUp(ok(forgeResponse(200, { private: false })));
    await h.prove();
    h.advance(240_000);
    await h.guard.observeRead('pr_list', 'acme', 'widgets', forgeResponse(200, items));
    h.advance(60_000);
    expect(await h.prove()).toEqual({ ok: true, value: 'anonymous' });
  });
});
