import { canRead } from '../auth/access-policy.js';
import type { RepoRecord } from '../world/world-records.js';
import { list, type RouteContext, type RouteDef, type RouteOutcome } from './route-types.js';

/** A parsed search query: free-text terms and `key:value` qualifiers. */
export interface SearchQuery {
  readonly terms: readonly string[];
  readonly qualifiers: ReadonlyMap<string, readonly string[]>;
}

/** Splits a GitHub search `q` into terms and qualifiers (`repo:o/r is:pr state:open`). */
export function parseSearchQuery(q: string): SearchQuery {
  const terms: string[] = [];
  const qualifiers = new Map<string, string[]>();
  for (const token of q.match(/(?:[^\s"]+|"[^"]*")+/g) ?? []) {
    const m = /^([a-z_-]+):(.+)$/i.exec(token);
    if (m?.[1] !== undefined && m[2] !== undefined) {
      const key = m[1].toLowerCase();
      qualifiers.set(key, [...(qualifiers.get(key) ?? []), m[2].replace(/^"|"$/g, '')]);
    } else {
      terms.push(token.replace(/^"|"$/g, '').toLowerCase());
    }
  }
  return { terms, qualifiers };
}

function scopeRepos(ctx: RouteContext, query: SearchQuery): RepoRecord[] {
  const repoQ = query.qualifiers.get('repo') ?? [];
  const ownerQ = [
    ...(query.qualifiers.get('user') ?? []),
    ...(query.qualifiers.get('org') ?? []),
  ].map((o) => o.toLowerCase());
  return ctx.world
    .repos()
    .filter((r) => canRead(ctx.world, ctx.principal, r))
    .filter(
      (r) =>
        repoQ.length === 0 ||
        repoQ.some((q) => q.toLowerCase() === `${r.owner}/${r.name}`.toLowerCase()),
    )
    .filter((r) => ownerQ.length === 0 || ownerQ.includes(r.owner.toLowerCase()));
}

function search(ctx: RouteContext, find: (query: SearchQuery) => unknown[]): RouteOutcome {
  const q = ctx.url.searchParams.get('q');
  if (q === null || q.trim() === '')
    return { kind: 'error', status: 422, message: 'Validation Failed' };
  const items = find(parseSearchQuery(q));
  return list(items, (page, total) => ({
    total_count: total,
    incomplete_results: false,
    items: page,
  }));
}

const matchesAll = (text: string, terms: readonly string[]): boolean =>
  terms.every((t) => text.toLowerCase().includes(t));

/**
 * A code result's `text_matches` (sent only for the `text-match` media type): one match
 * object over the file's content, the fragment the whole (small) file, each case-insensitive
 * occurrence of a term with its `indices` in UTF-8 bytes of the fragment, as GitHub counts.
 */
function codeTextMatches(objectUrl: string, content: string, terms: readonly string[]) {
  const lower = content.toLowerCase();
  const matches: { text: string; indices: [number, number] }[] = [];
  for (const term of terms) {
    for (let at = lower.indexOf(term); at !== -1; at = lower.indexOf(term, at + term.length)) {
      const start = Buffer.byteLength(content.slice(0, at));
      const text = content.slice(at, at + term.length);
      matches.push({ text, indices: [start, start + Buffer.byteLength(text)] });
    }
  }
  matches.sort((a, b) => a.indices[0] - b.indices[0]);
  return [
    {
      object_url: objectUrl,
      object_type: 'FileContent',
      property: 'content',
      fragment: content,
      matches,
    },
  ];
}

/** Search routes (issues, code, commits, repositories). */
export const SEARCH_ROUTES: readonly RouteDef[] = [
  {
    template: '/search/issues',
    resource: 'search',
    handler: (ctx) =>
      search(ctx, (query) => {
        const is = query.qualifiers.get('is') ?? [];
        const types = query.qualifiers.get('type') ?? [];
        const state = query.qualifiers.get('state')?.[0];
        const author = query.qualifiers.get('author')?.[0]?.toLowerCase();
        const label = query.qualifiers.get('label') ?? [];
        const wantPr = is.includes('pr') || types.includes('pr');
        const wantIssue = is.includes('issue') || types.includes('issue');
        const openClosed = is.find((v) => v === 'open' || v === 'closed') ?? state;
        return scopeRepos(ctx, query).flatMap((repo) =>
          [...repo.issues.values()]
            .filter(
              (i) =>
                (!wantPr || i.pullNumber !== null) &&
                (!wantIssue || i.pullNumber === null) &&
                (openClosed === undefined || i.state === openClosed) &&
                (!is.includes('merged') || repo.pulls.get(i.number)?.merged === true) &&
                (author === undefined || i.user.toLowerCase() === author) &&
                label.every((l) => i.labels.includes(l)) &&
                matchesAll(`${i.title} ${i.body ?? ''}`, query.terms),
            )
            .sort((a, b) => b.createdAt - a.createdAt)
            .map((i) => ({ ...ctx.render.issue(repo, i), score: 1 })),
        );
      }),
  },
  {
    template: '/search/code',
    resource: 'code_search',
    requiresAuth: true,
    handler: (ctx) =>
      search(ctx, (query) =>
        scopeRepos(ctx, query).flatMap((repo) => {
          const head = repo.commits.get(repo.branches.get(repo.defaultBranch)?.sha ?? '');
          const path = query.qualifiers.get('path')?.[0];
          return [...(head?.files.entries() ?? [])]
            .filter(
              ([p, content]) =>
                (path === undefined || p.startsWith(path)) &&
                query.terms.length > 0 &&
                matchesAll(content, query.terms),
            )
            .map(([p, content]) => {
              const url = `${ctx.urls.api}/repos/${repo.owner}/${repo.name}/contents/${p}?ref=${head?.sha ?? ''}`;
              return {
                name: p.split('/').at(-1),
                path: p,
                sha: Buffer.from(content).toString('hex').slice(0, 40).padEnd(40, '0'),
                url,
                git_url: `${ctx.urls.api}/repos/${repo.owner}/${repo.name}/git/blobs/${head?.sha ?? ''}`,
                html_url: `${ctx.urls.web}/${repo.owner}/${repo.name}/blob/${head?.sha ?? ''}/${p}`,
                repository: ctx.render.repo(repo),
                score: 1,
                ...(ctx.accept.includes('text-match')
                  ? { text_matches: codeTextMatches(url, content, query.terms) }
                  : {}),
              };
            });
        }),
      ),
  },
  {
    template: '/search/commits',
    resource: 'search',
    handler: (ctx) =>
      search(ctx, (query) => {
        const author = query.qualifiers.get('author')?.[0]?.toLowerCase();
        return scopeRepos(ctx, query).flatMap((repo) =>
          [...repo.commits.values()]
            .filter(
              (c) =>
                matchesAll(c.message, query.terms) &&
                (author === undefined || c.author.toLowerCase() === author),
            )
            .sort((a, b) => b.date - a.date)
            .map((c) => ({
              ...ctx.render.commit(repo, c),
              repository: ctx.render.repo(repo),
              score: 1,
            })),
        );
      }),
  },
  {
    template: '/search/repositories',
    resource: 'search',
    handler: (ctx) =>
      search(ctx, (query) => {
        const topics = query.qualifiers.get('topic') ?? [];
        // `is:public` / `is:private` (GitHub's visibility qualifiers): every one must hold.
        const visibility = (query.qualifiers.get('is') ?? []).map((v) => v.toLowerCase());
        return scopeRepos(ctx, query)
          .filter(
            (r) =>
              matchesAll(`${r.name} ${r.description ?? ''}`, query.terms) &&
              topics.every((t) => r.topics.includes(t)) &&
              (!visibility.includes('public') || !r.private) &&
              (!visibility.includes('private') || r.private),
          )
          .sort((a, b) => b.stargazers.length - a.stargazers.length || a.name.localeCompare(b.name))
          .map((r) => ({ ...ctx.render.repo(r), score: 1 }));
      }),
  },
];
