import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paginate } from './pagination.js';
import { PathRouter } from './path-router.js';

describe('PathRouter', () => {
  const router = new PathRouter<string>()
    .add('/repos/{owner}/{repo}/commits/{ref+}/status', 'status')
    .add('/repos/{owner}/{repo}/commits/{ref+}', 'commit')
    .add('/repos/{owner}/{repo}/pulls/comments/{id}', 'comment')
    .add('/repos/{owner}/{repo}/pulls/{n}', 'pull');

  it.each([
    ['/repos/a/b/commits/feature/x/status', 'status', { ref: 'feature/x' }],
    ['/repos/a/b/commits/abc123', 'commit', { ref: 'abc123' }],
    ['/repos/a/b/commits/heads/a/b/c', 'commit', { ref: 'heads/a/b/c' }],
    ['/repos/a/b/pulls/comments/9', 'comment', { id: '9' }],
    ['/repos/a/b/pulls/9', 'pull', { n: '9' }],
    ['/repos/a/b/labels/good%20first', undefined, {}],
  ] as const)('%s → %s', (path, value, params) => {
    const m = router.match(path);
    expect(m?.value).toBe(value);
    if (value !== undefined) expect(m?.params).toMatchObject(params);
  });

  it('gives multi-segment parameters back whole', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z0-9._-]{1,8}$/), { minLength: 1, maxLength: 5 }),
        (parts) => {
          const ref = parts.join('/');
          expect(router.match(`/repos/o/r/commits/${ref}`)?.params.ref).toBe(ref);
        },
      ),
    );
  });
});

describe('paginate', () => {
  it('visits every item exactly once by following next links', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 350 }),
        fc.integer({ min: 1, max: 150 }),
        (n, perPage) => {
          const items = Array.from({ length: n }, (_, i) => i);
          const seen: number[] = [];
          let url: string | undefined = `https://sim.test/x?per_page=${perPage}&q=a`;
          while (url !== undefined) {
            const page: { items: number[]; link: string | undefined } = paginate(
              items,
              new URL(url),
            );
            expect(page.items.length).toBeLessThanOrEqual(100);
            seen.push(...page.items);
            url = /<([^>]+)>; rel="next"/.exec(page.link ?? '')?.[1];
            if (url !== undefined) expect(new URL(url).searchParams.get('q')).toBe('a');
          }
          expect(seen).toEqual(items);
        },
      ),
    );
  });

  it.each([
    ['', 30],
    ['per_page=0', 30],
    ['per_page=abc', 30],
    ['per_page=100', 100],
    ['per_page=101', 100],
  ])('per_page %s gives pages of %i', (query, size) => {
    const items = Array.from({ length: 250 }, (_, i) => i);
    expect(paginate(items, new URL(`https://sim.test/x?${query}`)).items).toHaveLength(size);
  });
});
