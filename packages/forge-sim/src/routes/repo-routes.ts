import { canRead, permissionOf } from '../auth/access-policy.js';
import { hashBlob, hashTree } from '../world/git-objects.js';
import { toIsoSeconds } from '../world/sim-clock.js';
import type { CommitRecord, RepoRecord } from '../world/world-records.js';
import {
  NOT_FOUND,
  intParam,
  json,
  list,
  type RouteContext,
  type RouteDef,
  type RouteOutcome,
} from './route-types.js';

function headCommit(
  repo: RepoRecord,
  ref?: string | null,
  ctx?: RouteContext,
): CommitRecord | undefined {
  const sha =
    ctx && ref ? ctx.world.resolveRef(repo, ref) : repo.branches.get(repo.defaultBranch)?.sha;
  return sha === undefined ? undefined : repo.commits.get(sha);
}

function contentItem(
  ctx: RouteContext,
  path: string,
  commit: CommitRecord,
  withContent: boolean,
): Record<string, unknown> {
  const { repo } = ctx;
  const content = commit.files.get(path);
  const api = `${ctx.urls.api}/repos/${repo.owner}/${repo.name}`;
  const name = path.split('/').at(-1) ?? path;
  const isFile = content !== undefined;
  const sha = isFile ? hashBlob(content) : hashTree(commit.files, `${path}/`);
  const selfUrl = `${api}/contents/${path}?ref=${commit.sha}`;
  const htmlUrl = `${ctx.urls.web}/${repo.owner}/${repo.name}/${isFile ? 'blob' : 'tree'}/${commit.sha}/${path}`;
  const gitUrl = `${api}/git/${isFile ? 'blobs' : 'trees'}/${sha}`;
  const downloadUrl = isFile
    ? `${ctx.urls.raw}/${repo.owner}/${repo.name}/${commit.sha}/${path}`
    : null;
  return {
    type: isFile ? 'file' : 'dir',
    ...(isFile && withContent
      ? {
          encoding: 'base64',
          content:
            (
              Buffer.from(content)
                .toString('base64')
                .match(/.{1,60}/g) ?? []
            ).join('\n') + '\n',
        }
      : {}),
    size: isFile ? Buffer.byteLength(content) : 0,
    name,
    path,
    sha,
    url: selfUrl,
    git_url: gitUrl,
    html_url: htmlUrl,
    download_url: downloadUrl,
    _links: { self: selfUrl, git: gitUrl, html: htmlUrl },
  };
}

function contents(ctx: RouteContext, path: string): RouteOutcome {
  const commit = headCommit(ctx.repo, ctx.url.searchParams.get('ref'), ctx);
  if (!commit) return NOT_FOUND;
  const file = commit.files.get(path);
  if (file !== undefined) {
    if (ctx.accept.includes('application/vnd.github.raw')) {
      return { kind: 'text', body: file, contentType: 'application/vnd.github.raw; charset=utf-8' };
    }
    return json(contentItem(ctx, path, commit, true), commit.date);
  }
  const prefix = path === '' ? '' : `${path}/`;
  const children = new Set<string>();
  for (const p of commit.files.keys()) {
    if (!p.startsWith(prefix)) continue;
    const rest = p.slice(prefix.length);
    children.add(prefix + (rest.split('/')[0] ?? rest));
  }
  if (children.size === 0) return NOT_FOUND;
  return json(
    [...children].sort().map((p) => contentItem(ctx, p, commit, false)),
    commit.date,
  );
}

function readme(ctx: RouteContext, dir: string): RouteOutcome {
  const commit = headCommit(ctx.repo, ctx.url.searchParams.get('ref'), ctx);
  if (!commit) return NOT_FOUND;
  const prefix = dir === '' ? '' : `${dir.replace(/\/$/, '')}/`;
  const path = [...commit.files.keys()].find(
    (p) => p.startsWith(prefix) && /^readme(\.[a-z]+)?$/i.test(p.slice(prefix.length)),
  );
  return path === undefined ? NOT_FOUND : contents(ctx, path);
}

function branchBody(
  ctx: RouteContext,
  name: string,
  full: boolean,
): Record<string, unknown> | undefined {
  const { repo } = ctx;
  const branch = repo.branches.get(name);
  if (!branch) return undefined;
  const api = `${ctx.urls.api}/repos/${repo.owner}/${repo.name}`;
  const short = {
    name: branch.name,
    commit: { sha: branch.sha, url: `${api}/commits/${branch.sha}` },
    protected: branch.protected,
  };
  if (!full) return short;
  const commit = repo.commits.get(branch.sha);
  return {
    ...short,
    commit: commit ? ctx.render.commit(repo, commit) : short.commit,
    _links: {
      self: `${api}/branches/${branch.name}`,
      html: `${ctx.urls.web}/${repo.owner}/${repo.name}/tree/${branch.name}`,
    },
    protection: {
      enabled: branch.protected,
      required_status_checks: {
        enforcement_level: branch.protected ? 'non_admins' : 'off',
        contexts: [],
        checks: [],
      },
    },
    protection_url: `${api}/branches/${branch.name}/protection`,
  };
}

function requireAdmin(ctx: RouteContext): RouteOutcome | undefined {
  if (permissionOf(ctx.world, ctx.principal, ctx.repo) === 'admin') return undefined;
  return {
    kind: 'error',
    status: ctx.principal.kind === 'anonymous' ? 401 : 404,
    message: ctx.principal.kind === 'anonymous' ? 'Requires authentication' : 'Not Found',
  };
}

/**
 * Statistics are computed on first request: GitHub answers 202 (empty body) until they
 * are ready, then 200.
 */
function stats(ctx: RouteContext, build: () => unknown): RouteOutcome {
  const { repo } = ctx;
  if (!repo.statsReady) {
    if (repo.statsRequestedAt === null) {
      repo.statsRequestedAt = ctx.now;
      return { kind: 'json', status: 202, body: {} };
    }
    if (ctx.now - repo.statsRequestedAt < ctx.statsDelayMs)
      return { kind: 'json', status: 202, body: {} };
    repo.statsReady = true;
  }
  return json(build());
}

function weekOf(ms: number): number {
  const day = Math.floor(ms / 86_400_000);
  const sunday = day - ((day + 4) % 7);
  return sunday * 86_400;
}

/** Repository-level routes (the repository, contents, branches, meta lists, stats). */
export const REPO_ROUTES: readonly RouteDef[] = [
  {
    template: '/repos/{owner}/{repo}',
    handler: (ctx) => json(ctx.render.repo(ctx.repo, true), ctx.repo.updatedAt),
  },
  { template: '/repos/{owner}/{repo}/contents', handler: (ctx) => contents(ctx, '') },
  {
    template: '/repos/{owner}/{repo}/contents/{path+}',
    handler: (ctx) => contents(ctx, ctx.params.path ?? ''),
  },
  { template: '/repos/{owner}/{repo}/readme', handler: (ctx) => readme(ctx, '') },
  {
    template: '/repos/{owner}/{repo}/readme/{dir+}',
    handler: (ctx) => readme(ctx, ctx.params.dir ?? ''),
  },
  {
    template: '/repos/{owner}/{repo}/branches',
    handler: (ctx) => {
      const protectedOnly = ctx.url.searchParams.get('protected');
      return list(
        [...ctx.repo.branches.keys()]
          .sort()
          .map((b) => branchBody(ctx, b, false))
          .filter((b) => protectedOnly === null || String(b?.protected) === protectedOnly),
      );
    },
  },
  {
    template: '/repos/{owner}/{repo}/branches/{branch+}/protection',
    handler: (ctx) => {
      const denied = requireAdmin(ctx);
      if (denied) return denied;
      const branch = ctx.repo.branches.get(ctx.params.branch ?? '');
      if (!branch) return NOT_FOUND;
      if (!branch.protected) return { kind: 'error', status: 404, message: 'Branch not protected' };
      return json(
        ctx.templates.with('repos/get-branch-protection', {
          url: `${ctx.urls.api}/repos/${ctx.repo.owner}/${ctx.repo.name}/branches/${branch.name}/protection`,
        }),
      );
    },
  },
  {
    template: '/repos/{owner}/{repo}/branches/{branch+}',
    handler: (ctx) => {
      const body = branchBody(ctx, ctx.params.branch ?? '', true);
      return body ? json(body) : { kind: 'error', status: 404, message: 'Branch not found' };
    },
  },
  {
    template: '/repos/{owner}/{repo}/rulesets',
    handler: (ctx) =>
      list([...ctx.repo.rulesets.values()].map((r) => ctx.render.ruleset(ctx.repo, r, false))),
  },
  {
    template: '/repos/{owner}/{repo}/rulesets/{ruleset_id}',
    handler: (ctx) => {
      const r = ctx.repo.rulesets.get(intParam(ctx, 'ruleset_id') ?? -1);
      return r ? json(ctx.render.ruleset(ctx.repo, r, true)) : NOT_FOUND;
    },
  },
  {
    template: '/repos/{owner}/{repo}/rules/branches/{branch+}',
    handler: (ctx) =>
      list(
        [...ctx.repo.rulesets.values()]
          .filter((r) => r.enforcement === 'active' && r.target === 'branch')
          .flatMap((r) =>
            r.include.some(
              (p) =>
                p === '~ALL' ||
                p === `refs/heads/${ctx.params.branch ?? ''}` ||
                (p === '~DEFAULT_BRANCH' && ctx.params.branch === ctx.repo.defaultBranch),
            )
              ? r.rules.map((rule) => ({
                  ...rule,
                  ruleset_source_type: 'Repository',
                  ruleset_source: `${ctx.repo.owner}/${ctx.repo.name}`,
                  ruleset_id: r.id,
                }))
              : [],
          ),
      ),
  },
  {
    template: '/repos/{owner}/{repo}/tags',
    handler: (ctx) => {
      const api = `${ctx.urls.api}/repos/${ctx.repo.owner}/${ctx.repo.name}`;
      return list(
        [...ctx.repo.tags.values()]
          .sort((a, b) => b.date - a.date || b.name.localeCompare(a.name))
          .map((t) => ({
            name: t.name,
            commit: { sha: t.sha, url: `${api}/commits/${t.sha}` },
            zipball_url: `${api}/zipball/refs/tags/${t.name}`,
            tarball_url: `${api}/tarball/refs/tags/${t.name}`,
            node_id: Buffer.from(`03:Ref${ctx.repo.id}:refs/tags/${t.name}`).toString('base64'),
          })),
      );
    },
  },
  {
    template: '/repos/{owner}/{repo}/languages',
    handler: (ctx) => json({ ...ctx.repo.languages }),
  },
  {
    template: '/repos/{owner}/{repo}/contributors',
    handler: (ctx) => {
      const counts = new Map<string, number>();
      for (const c of ctx.repo.commits.values())
        counts.set(c.author, (counts.get(c.author) ?? 0) + 1);
      if (counts.size === 0) return { kind: 'empty', status: 204 };
      return list(
        [...counts.entries()]
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .map(([login, contributions]) => ({ ...ctx.render.user(login), contributions })),
      );
    },
  },
  {
    template: '/repos/{owner}/{repo}/license',
    handler: (ctx) => {
      const key = ctx.repo.license;
      if (key === null) return NOT_FOUND;
      const commit = headCommit(ctx.repo);
      const path =
        commit && [...commit.files.keys()].find((p) => /^licen[sc]e(\.[a-z]+)?$/i.test(p));
      const item =
        commit && path !== undefined
          ? contentItem(ctx, path, commit, true)
          : contentItem(
              ctx,
              'LICENSE',
              commit ??
                ({
                  files: new Map([['LICENSE', 'MIT License\n']]),
                  sha: '0'.repeat(40),
                } as unknown as CommitRecord),
              true,
            );
      return json({ ...item, license: ctx.render.licenseSummary(key) });
    },
  },
  {
    template: '/repos/{owner}/{repo}/topics',
    handler: (ctx) => json({ names: [...ctx.repo.topics] }),
  },
  {
    template: '/repos/{owner}/{repo}/community/profile',
    handler: (ctx) => {
      const commit = headCommit(ctx.repo);
      const has = (re: RegExp): boolean =>
        [...(commit?.files.keys() ?? [])].some((p) => re.test(p));
      const files = {
        code_of_conduct: null,
        code_of_conduct_file: null,
        contributing: has(/^contributing/i)
          ? {
              url: `${ctx.urls.api}/repos/${ctx.repo.owner}/${ctx.repo.name}/contents/CONTRIBUTING.md`,
              html_url: null,
            }
          : null,
        issue_template: null,
        pull_request_template: null,
        license: ctx.repo.license === null ? null : ctx.render.licenseSummary(ctx.repo.license),
        readme: has(/^readme/i)
          ? {
              url: `${ctx.urls.api}/repos/${ctx.repo.owner}/${ctx.repo.name}/contents/README.md`,
              html_url: null,
            }
          : null,
      };
      const present = Object.values(files).filter((v) => v !== null).length;
      return json({
        health_percentage: Math.round((present / 6) * 100),
        description: ctx.repo.description,
        documentation: null,
        files,
        updated_at: toIsoSeconds(ctx.repo.updatedAt),
        content_reports_enabled: false,
      });
    },
  },
  {
    template: '/repos/{owner}/{repo}/forks',
    handler: (ctx) =>
      list(
        ctx.world
          .repos()
          .filter(
            (r) =>
              r.forkOf?.toLowerCase() === `${ctx.repo.owner}/${ctx.repo.name}`.toLowerCase() &&
              canRead(ctx.world, ctx.principal, r),
          )
          .map((r) => ctx.render.repo(r)),
      ),
  },
  {
    template: '/repos/{owner}/{repo}/stargazers',
    handler: (ctx) =>
      list(
        ctx.repo.stargazers.map((s) =>
          ctx.accept.includes('application/vnd.github.star+json')
            ? { starred_at: toIsoSeconds(s.at), user: ctx.render.user(s.login) }
            : ctx.render.user(s.login),
        ),
      ),
  },
  {
    template: '/repos/{owner}/{repo}/subscribers',
    handler: (ctx) => list(ctx.repo.watchers.map((l) => ctx.render.user(l))),
  },
  {
    template: '/repos/{owner}/{repo}/deployments',
    handler: (ctx) =>
      list(
        [...ctx.repo.deployments.values()].reverse().map((d) => ctx.render.deployment(ctx.repo, d)),
      ),
  },
  {
    template: '/repos/{owner}/{repo}/events',
    handler: (ctx) => list(ctx.repo.events.map((e) => ctx.render.event(ctx.repo, e))),
  },
  {
    template: '/networks/{owner}/{repo}/events',
    handler: (ctx) => list(ctx.repo.events.map((e) => ctx.render.event(ctx.repo, e))),
  },
  {
    template: '/repos/{owner}/{repo}/stats/contributors',
    handler: (ctx) =>
      stats(ctx, () => {
        const byAuthor = new Map<string, CommitRecord[]>();
        for (const c of ctx.repo.commits.values())
          byAuthor.set(c.author, [...(byAuthor.get(c.author) ?? []), c]);
        return [...byAuthor.entries()].map(([login, commits]) => ({
          author: ctx.render.user(login),
          total: commits.length,
          weeks: [...new Set(commits.map((c) => weekOf(c.date)))].map((w) => {
            const inWeek = commits.filter((c) => weekOf(c.date) === w);
            return {
              w,
              a: inWeek.reduce((n, c) => n + c.changes.reduce((m, ch) => m + ch.additions, 0), 0),
              d: inWeek.reduce((n, c) => n + c.changes.reduce((m, ch) => m + ch.deletions, 0), 0),
              c: inWeek.length,
            };
          }),
        }));
      }),
  },
  {
    template: '/repos/{owner}/{repo}/stats/commit_activity',
    handler: (ctx) =>
      stats(ctx, () => {
        const weeks = new Map<number, number[]>();
        for (const c of ctx.repo.commits.values()) {
          const w = weekOf(c.date);
          const days = weeks.get(w) ?? [0, 0, 0, 0, 0, 0, 0];
          const dayIndex = new Date(c.date).getUTCDay();
          days[dayIndex] = (days[dayIndex] ?? 0) + 1;
          weeks.set(w, days);
        }
        return [...weeks.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([week, days]) => ({ days, total: days.reduce((a, b) => a + b, 0), week }));
      }),
  },
  {
    template: '/repos/{owner}/{repo}/stats/code_frequency',
    handler: (ctx) =>
      stats(ctx, () => {
        const weeks = new Map<number, [number, number]>();
        for (const c of ctx.repo.commits.values()) {
          const w = weekOf(c.date);
          const [a, d] = weeks.get(w) ?? [0, 0];
          weeks.set(w, [
            a + c.changes.reduce((n, ch) => n + ch.additions, 0),
            d - c.changes.reduce((n, ch) => n + ch.deletions, 0),
          ]);
        }
        return [...weeks.entries()].sort((a, b) => a[0] - b[0]).map(([w, [a, d]]) => [w, a, d]);
      }),
  },
  {
    template: '/repos/{owner}/{repo}/stats/participation',
    handler: (ctx) => {
      const all = new Array<number>(52).fill(0);
      const owner = new Array<number>(52).fill(0);
      for (const c of ctx.repo.commits.values()) {
        const weeksAgo = Math.floor((ctx.now - c.date) / (7 * 86_400_000));
        if (weeksAgo < 0 || weeksAgo >= 52) continue;
        all[51 - weeksAgo] = (all[51 - weeksAgo] ?? 0) + 1;
        if (c.author === ctx.repo.owner) owner[51 - weeksAgo] = (owner[51 - weeksAgo] ?? 0) + 1;
      }
      return json({ all, owner });
    },
  },
  {
    template: '/repos/{owner}/{repo}/stats/punch_card',
    handler: (ctx) => {
      const cells = new Map<string, number>();
      for (const c of ctx.repo.commits.values()) {
        const d = new Date(c.date);
        const key = `${d.getUTCDay()},${d.getUTCHours()}`;
        cells.set(key, (cells.get(key) ?? 0) + 1);
      }
      return json([...cells.entries()].map(([k, n]) => [...k.split(',').map(Number), n]));
    },
  },
  {
    template: '/repos/{owner}/{repo}/assignees',
    handler: (ctx) => {
      const logins = new Set([ctx.repo.owner, ...ctx.repo.collaborators.keys()]);
      const org = ctx.world.getOrg(ctx.repo.owner);
      if (org) {
        logins.delete(ctx.repo.owner);
        for (const m of org.members.keys()) logins.add(m);
      }
      return list([...logins].map((l) => ctx.render.user(ctx.world.getAccount(l)?.login ?? l)));
    },
  },
  {
    template: '/repos/{owner}/{repo}/assignees/{assignee}',
    handler: (ctx) => {
      const login = (ctx.params.assignee ?? '').toLowerCase();
      const org = ctx.world.getOrg(ctx.repo.owner);
      const ok =
        login === ctx.repo.owner.toLowerCase() ||
        ctx.repo.collaborators.has(login) ||
        (org?.members.has(login) ?? false);
      return ok ? { kind: 'empty', status: 204 } : NOT_FOUND;
    },
  },
  {
    template: '/repos/{owner}/{repo}/labels',
    handler: (ctx) => list([...ctx.repo.labels.values()].map((l) => ctx.render.label(ctx.repo, l))),
  },
  {
    template: '/repos/{owner}/{repo}/labels/{name}',
    handler: (ctx) => {
      const l = ctx.repo.labels.get(ctx.params.name ?? '');
      return l ? json(ctx.render.label(ctx.repo, l)) : NOT_FOUND;
    },
  },
  {
    template: '/repos/{owner}/{repo}/milestones',
    handler: (ctx) => {
      const state = ctx.url.searchParams.get('state') ?? 'open';
      return list(
        [...ctx.repo.milestones.values()]
          .filter((m) => state === 'all' || m.state === state)
          .map((m) => ctx.render.milestone(ctx.repo, m)),
      );
    },
  },
  {
    template: '/repos/{owner}/{repo}/milestones/{milestone_number}',
    handler: (ctx) => {
      const m = ctx.repo.milestones.get(intParam(ctx, 'milestone_number') ?? -1);
      return m ? json(ctx.render.milestone(ctx.repo, m)) : NOT_FOUND;
    },
  },
];
