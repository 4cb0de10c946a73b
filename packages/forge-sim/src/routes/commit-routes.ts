import {
  diffTrees,
  hashBlob,
  hashTree,
  renderDiff,
  renderPatch,
  type PatchCommit,
} from '../world/git-objects.js';
import { toIsoSeconds } from '../world/sim-clock.js';
import type { CommitRecord, RepoRecord } from '../world/world-records.js';
import {
  NOT_FOUND,
  json,
  list,
  wrapAs,
  type RouteContext,
  type RouteDef,
  type RouteOutcome,
} from './route-types.js';

function resolve(ctx: RouteContext, name: string): CommitRecord | undefined {
  const sha = ctx.world.resolveRef(ctx.repo, ctx.params[name] ?? '');
  return sha === undefined ? undefined : ctx.repo.commits.get(sha);
}

const NO_COMMIT: RouteOutcome = { kind: 'error', status: 422, message: 'No commit found for SHA' };

/** First-parent history from `sha`, newest first. */
function history(repo: RepoRecord, sha: string): CommitRecord[] {
  const out: CommitRecord[] = [];
  for (let s: string | undefined = sha; s !== undefined; s = repo.commits.get(s)?.parents[0]) {
    const c = repo.commits.get(s);
    if (!c) break;
    out.push(c);
  }
  return out;
}

/** The patch-page view of a commit. */
export function toPatchCommit(ctx: Pick<RouteContext, 'world'>, c: CommitRecord): PatchCommit {
  const account = ctx.world.getAccount(c.author);
  return {
    sha: c.sha,
    authorName: account?.name ?? c.author,
    authorEmail:
      account?.kind === 'user' && account.email !== null
        ? account.email
        : `${c.author}@users.noreply.github.com`,
    date: toIsoSeconds(c.date),
    message: c.message,
    changes: c.changes,
  };
}

function textOrJson(
  ctx: RouteContext,
  commits: readonly CommitRecord[],
  changes: CommitRecord['changes'],
  body: () => unknown,
  lastModified: number,
): RouteOutcome {
  if (ctx.accept.includes('application/vnd.github.diff')) {
    return {
      kind: 'text',
      body: renderDiff(changes),
      contentType: 'application/vnd.github.diff; charset=utf-8',
    };
  }
  if (ctx.accept.includes('application/vnd.github.patch')) {
    return {
      kind: 'text',
      body: renderPatch(commits.map((c) => toPatchCommit(ctx, c))),
      contentType: 'application/vnd.github.patch; charset=utf-8',
    };
  }
  if (ctx.accept.includes('application/vnd.github.sha') && commits.length === 1) {
    return {
      kind: 'text',
      body: commits[0]?.sha ?? '',
      contentType: 'application/vnd.github.sha; charset=utf-8',
    };
  }
  return json(body(), lastModified);
}

function checkRunsFor(ctx: RouteContext): RouteOutcome {
  const commit = resolve(ctx, 'ref');
  if (!commit) return NO_COMMIT;
  const name = ctx.url.searchParams.get('check_name');
  const status = ctx.url.searchParams.get('status');
  const runs = [...ctx.repo.checkRuns.values()]
    .filter(
      (r) =>
        r.headSha === commit.sha &&
        (name === null || r.name === name) &&
        (status === null || r.status === status),
    )
    .sort((a, b) => b.id - a.id)
    .map((r) => ctx.render.checkRun(ctx.repo, r));
  return list(runs, wrapAs('check_runs'));
}

function checkSuitesFor(ctx: RouteContext): RouteOutcome {
  const commit = resolve(ctx, 'ref');
  if (!commit) return NO_COMMIT;
  return list(
    [...ctx.repo.checkSuites.values()]
      .filter((s) => s.headSha === commit.sha)
      .map((s) => ctx.render.checkSuite(ctx.repo, s)),
    wrapAs('check_suites'),
  );
}

function statusesFor(ctx: RouteContext): RouteOutcome {
  const sha = ctx.world.resolveRef(ctx.repo, ctx.params.ref ?? '');
  if (sha === undefined) return list([]);
  return list(
    ctx.repo.statuses.filter((s) => s.sha === sha).map((s) => ctx.render.status(ctx.repo, s)),
  );
}

function combinedStatus(ctx: RouteContext): RouteOutcome {
  const commit = resolve(ctx, 'ref');
  if (!commit) return NOT_FOUND;
  const latest = new Map<string, RepoRecord['statuses'][number]>();
  for (const s of ctx.repo.statuses)
    if (s.sha === commit.sha && !latest.has(s.context)) latest.set(s.context, s);
  const statuses = [...latest.values()];
  const state = statuses.some((s) => s.state === 'failure' || s.state === 'error')
    ? 'failure'
    : statuses.length === 0 || statuses.some((s) => s.state === 'pending')
      ? 'pending'
      : 'success';
  const api = `${ctx.urls.api}/repos/${ctx.repo.owner}/${ctx.repo.name}`;
  return json({
    state,
    statuses: statuses.map((s) => ctx.render.status(ctx.repo, s)),
    sha: commit.sha,
    total_count: statuses.length,
    repository: ctx.render.embeddedRepo(
      ctx.repo,
      'repos/get-combined-status-for-ref',
      'repository',
    ),
    commit_url: `${api}/commits/${commit.sha}`,
    url: `${api}/commits/${commit.sha}/status`,
  });
}

function treeBody(
  ctx: RouteContext,
  commit: CommitRecord,
  prefix: string,
  recursive: boolean,
): unknown {
  const api = `${ctx.urls.api}/repos/${ctx.repo.owner}/${ctx.repo.name}`;
  const entries = new Map<string, Record<string, unknown>>();
  for (const [path, content] of commit.files) {
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length);
    const parts = rest.split('/');
    for (let depth = 1; depth <= parts.length; depth++) {
      if (!recursive && depth > 1) break;
      const sub = parts.slice(0, depth).join('/');
      if (entries.has(sub)) continue;
      const isBlob = depth === parts.length;
      const sha = isBlob ? hashBlob(content) : hashTree(commit.files, `${prefix}${sub}/`);
      entries.set(sub, {
        path: sub,
        mode: isBlob ? '100644' : '040000',
        type: isBlob ? 'blob' : 'tree',
        sha,
        ...(isBlob ? { size: Buffer.byteLength(content) } : {}),
        url: `${api}/git/${isBlob ? 'blobs' : 'trees'}/${sha}`,
      });
    }
  }
  const sha = prefix === '' ? commit.treeSha : hashTree(commit.files, prefix);
  return {
    sha,
    url: `${api}/git/trees/${sha}`,
    tree: [...entries.values()].sort((a, b) => String(a.path).localeCompare(String(b.path))),
    truncated: false,
  };
}

function findTree(
  ctx: RouteContext,
  shaOrRef: string,
): { commit: CommitRecord; prefix: string } | undefined {
  const asRef = ctx.world.resolveRef(ctx.repo, shaOrRef);
  const commitByRef = asRef === undefined ? undefined : ctx.repo.commits.get(asRef);
  if (commitByRef) return { commit: commitByRef, prefix: '' };
  for (const commit of ctx.repo.commits.values()) {
    if (commit.treeSha === shaOrRef) return { commit, prefix: '' };
    const dirs = new Set(
      [...commit.files.keys()].flatMap((p) =>
        p
          .split('/')
          .slice(0, -1)
          .map((_, i, all) => all.slice(0, i + 1).join('/')),
      ),
    );
    for (const dir of dirs)
      if (hashTree(commit.files, `${dir}/`) === shaOrRef) return { commit, prefix: `${dir}/` };
  }
  return undefined;
}

function refBody(
  ctx: RouteContext,
  ref: string,
  sha: string,
  objectType: 'commit' | 'tag',
): unknown {
  const api = `${ctx.urls.api}/repos/${ctx.repo.owner}/${ctx.repo.name}`;
  return {
    ref,
    node_id: Buffer.from(`03:Ref${ctx.repo.id}:${ref}`).toString('base64'),
    url: `${api}/git/${ref}`,
    object: { type: objectType, sha, url: `${api}/git/${objectType}s/${sha}` },
  };
}

function allRefs(ctx: RouteContext): { ref: string; sha: string; type: 'commit' | 'tag' }[] {
  return [
    ...[...ctx.repo.branches.values()].map((b) => ({
      ref: `refs/heads/${b.name}`,
      sha: b.sha,
      type: 'commit' as const,
    })),
    ...[...ctx.repo.tags.values()].map((t) => ({
      ref: `refs/tags/${t.name}`,
      sha: t.objectSha ?? t.sha,
      type: t.objectSha === null ? ('commit' as const) : ('tag' as const),
    })),
  ].sort((a, b) => a.ref.localeCompare(b.ref));
}

/** Commit, compare, status, check and git-object routes. */
export const COMMIT_ROUTES: readonly RouteDef[] = [
  {
    template: '/repos/{owner}/{repo}/commits',
    handler: (ctx) => {
      const q = ctx.url.searchParams;
      const start = ctx.world.resolveRef(ctx.repo, q.get('sha') ?? ctx.repo.defaultBranch);
      if (start === undefined) return NO_COMMIT;
      const path = q.get('path');
      const author = q.get('author');
      const since = q.get('since');
      const until = q.get('until');
      const commits = history(ctx.repo, start).filter(
        (c) =>
          (path === null ||
            c.changes.some((ch) => ch.filename === path || ch.filename.startsWith(`${path}/`))) &&
          (author === null || c.author.toLowerCase() === author.toLowerCase()) &&
          (since === null || c.date >= Date.parse(since)) &&
          (until === null || c.date <= Date.parse(until)),
      );
      return {
        kind: 'list',
        items: commits.map((c) => ctx.render.commit(ctx.repo, c)),
        lastModified: commits[0]?.date ?? ctx.repo.createdAt,
      };
    },
  },
  { template: '/repos/{owner}/{repo}/commits/{ref+}/check-runs', handler: checkRunsFor },
  { template: '/repos/{owner}/{repo}/commits/{ref+}/check-suites', handler: checkSuitesFor },
  { template: '/repos/{owner}/{repo}/commits/{ref+}/statuses', handler: statusesFor },
  { template: '/repos/{owner}/{repo}/commits/{ref+}/status', handler: combinedStatus },
  {
    template: '/repos/{owner}/{repo}/commits/{commit_sha+}/comments',
    handler: (ctx) => {
      const commit = resolve(ctx, 'commit_sha');
      if (!commit) return NO_COMMIT;
      return list(
        [...ctx.repo.commitComments.values()]
          .filter((c) => c.commitId === commit.sha)
          .map((c) => ctx.render.commitComment(ctx.repo, c)),
      );
    },
  },
  {
    template: '/repos/{owner}/{repo}/commits/{commit_sha+}/pulls',
    handler: (ctx) => {
      const commit = resolve(ctx, 'commit_sha');
      if (!commit) return NO_COMMIT;
      return list(
        [...ctx.repo.pulls.values()]
          .filter(
            (p) =>
              p.mergeCommitSha === commit.sha ||
              ctx.world.pullCommits(ctx.repo, p).some((c) => c.sha === commit.sha),
          )
          .map((p) => ctx.render.pull(ctx.repo, p)),
      );
    },
  },
  {
    template: '/repos/{owner}/{repo}/commits/{commit_sha+}/branches-where-head',
    handler: (ctx) => {
      const commit = resolve(ctx, 'commit_sha');
      if (!commit) return NO_COMMIT;
      const api = `${ctx.urls.api}/repos/${ctx.repo.owner}/${ctx.repo.name}`;
      return json(
        [...ctx.repo.branches.values()]
          .filter((b) => b.sha === commit.sha)
          .map((b) => ({
            name: b.name,
            commit: { sha: b.sha, url: `${api}/commits/${b.sha}` },
            protected: b.protected,
          })),
      );
    },
  },
  {
    template: '/repos/{owner}/{repo}/commits/{ref+}',
    handler: (ctx) => {
      const commit = resolve(ctx, 'ref');
      if (!commit) return NO_COMMIT;
      return textOrJson(
        ctx,
        [commit],
        commit.changes,
        () => ctx.render.commit(ctx.repo, commit, true),
        commit.date,
      );
    },
  },
  {
    template: '/repos/{owner}/{repo}/statuses/{ref+}',
    handler: statusesFor,
  },
  {
    template: '/repos/{owner}/{repo}/comments/{comment_id}',
    handler: (ctx) => {
      const c = ctx.repo.commitComments.get(Number(ctx.params.comment_id));
      return c ? json(ctx.render.commitComment(ctx.repo, c)) : NOT_FOUND;
    },
  },
  {
    template: '/repos/{owner}/{repo}/compare/{basehead+}',
    handler: (ctx) => {
      const [baseRef, headRef] = (ctx.params.basehead ?? '').split('...');
      if (baseRef === undefined || headRef === undefined) return NOT_FOUND;
      const strip = (r: string): string => r.replace(/^[^:]+:/, '');
      const baseSha = ctx.world.resolveRef(ctx.repo, strip(baseRef));
      const headSha = ctx.world.resolveRef(ctx.repo, strip(headRef));
      const base = baseSha === undefined ? undefined : ctx.repo.commits.get(baseSha);
      const head = headSha === undefined ? undefined : ctx.repo.commits.get(headSha);
      if (!base || !head) return NOT_FOUND;
      const baseHistory = history(ctx.repo, base.sha);
      const headHistory = history(ctx.repo, head.sha);
      const baseSet = new Set(baseHistory.map((c) => c.sha));
      const headSet = new Set(headHistory.map((c) => c.sha));
      const ahead = headHistory.filter((c) => !baseSet.has(c.sha)).reverse();
      const behind = baseHistory.filter((c) => !headSet.has(c.sha));
      const mergeBase = headHistory.find((c) => baseSet.has(c.sha)) ?? base;
      const changes = diffTrees(mergeBase.files, head.files);
      const status =
        ahead.length === 0 && behind.length === 0
          ? 'identical'
          : behind.length === 0
            ? 'ahead'
            : ahead.length === 0
              ? 'behind'
              : 'diverged';
      const web = `${ctx.urls.web}/${ctx.repo.owner}/${ctx.repo.name}/compare/${ctx.params.basehead ?? ''}`;
      return textOrJson(
        ctx,
        ahead,
        changes,
        () => ({
          url: `${ctx.urls.api}/repos/${ctx.repo.owner}/${ctx.repo.name}/compare/${ctx.params.basehead ?? ''}`,
          html_url: web,
          permalink_url: web,
          diff_url: `${web}.diff`,
          patch_url: `${web}.patch`,
          base_commit: ctx.render.commit(ctx.repo, base),
          merge_base_commit: ctx.render.commit(ctx.repo, mergeBase),
          status,
          ahead_by: ahead.length,
          behind_by: behind.length,
          total_commits: ahead.length,
          commits: ahead.map((c) => ctx.render.commit(ctx.repo, c)),
          files: changes.map((c) => ctx.render.diffEntry(ctx.repo, head.sha, c)),
        }),
        head.date,
      );
    },
  },
  {
    template: '/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations',
    handler: (ctx) => {
      const run = ctx.repo.checkRuns.get(Number(ctx.params.check_run_id));
      if (!run) return NOT_FOUND;
      return list(
        run.annotations.map((a) => ({
          path: a.path,
          start_line: a.startLine,
          end_line: a.endLine,
          start_column: null,
          end_column: null,
          annotation_level: a.level,
          title: null,
          message: a.message,
          raw_details: null,
          blob_href: `${ctx.urls.web}/${ctx.repo.owner}/${ctx.repo.name}/blob/${run.headSha}/${a.path}`,
        })),
      );
    },
  },
  {
    template: '/repos/{owner}/{repo}/git/blobs/{file_sha}',
    handler: (ctx) => {
      const sha = ctx.params.file_sha ?? '';
      for (const commit of ctx.repo.commits.values()) {
        for (const content of commit.files.values()) {
          if (hashBlob(content) !== sha) continue;
          if (ctx.accept.includes('application/vnd.github.raw')) {
            return {
              kind: 'text',
              body: content,
              contentType: 'application/vnd.github.raw; charset=utf-8',
            };
          }
          return json({
            content:
              (
                Buffer.from(content)
                  .toString('base64')
                  .match(/.{1,60}/g) ?? []
              ).join('\n') + '\n',
            encoding: 'base64',
            url: `${ctx.urls.api}/repos/${ctx.repo.owner}/${ctx.repo.name}/git/blobs/${sha}`,
            sha,
            size: Buffer.byteLength(content),
            node_id: Buffer.from(`04:Blob${ctx.repo.id}:${sha}`).toString('base64'),
          });
        }
      }
      return NOT_FOUND;
    },
  },
  {
    template: '/repos/{owner}/{repo}/git/commits/{commit_sha+}',
    handler: (ctx) => {
      const c = ctx.repo.commits.get(ctx.params.commit_sha ?? '');
      return c ? json(ctx.render.gitCommit(ctx.repo, c), c.date) : NOT_FOUND;
    },
  },
  {
    template: '/repos/{owner}/{repo}/git/tags/{tag_sha}',
    handler: (ctx) => {
      const tag = [...ctx.repo.tags.values()].find((t) => t.objectSha === ctx.params.tag_sha);
      if (tag?.objectSha == null) return NOT_FOUND;
      const api = `${ctx.urls.api}/repos/${ctx.repo.owner}/${ctx.repo.name}`;
      const tagger = ctx.world.getAccount(tag.tagger);
      return json({
        node_id: Buffer.from(`03:Tag${ctx.repo.id}:${tag.objectSha}`).toString('base64'),
        tag: tag.name,
        sha: tag.objectSha,
        url: `${api}/git/tags/${tag.objectSha}`,
        message: tag.message,
        tagger: {
          name: tagger?.name ?? tag.tagger,
          email: `${tag.tagger}@users.noreply.github.com`,
          date: toIsoSeconds(tag.date),
        },
        object: { type: 'commit', sha: tag.sha, url: `${api}/git/commits/${tag.sha}` },
        verification: {
          verified: false,
          reason: 'unsigned',
          signature: null,
          payload: null,
          verified_at: null,
        },
      });
    },
  },
  {
    template: '/repos/{owner}/{repo}/git/trees/{tree_sha+}',
    handler: (ctx) => {
      const found = findTree(ctx, ctx.params.tree_sha ?? '');
      if (!found) return NOT_FOUND;
      const recursive = !['', '0', 'false'].includes(ctx.url.searchParams.get('recursive') ?? '');
      return json(treeBody(ctx, found.commit, found.prefix, recursive));
    },
  },
  {
    template: '/repos/{owner}/{repo}/git/ref/{ref+}',
    handler: (ctx) => {
      const wanted = `refs/${ctx.params.ref ?? ''}`;
      const ref = allRefs(ctx).find((r) => r.ref === wanted);
      return ref ? json(refBody(ctx, ref.ref, ref.sha, ref.type)) : NOT_FOUND;
    },
  },
  {
    template: '/repos/{owner}/{repo}/git/matching-refs/{ref+}',
    handler: (ctx) => {
      const prefix = `refs/${ctx.params.ref ?? ''}`;
      return json(
        allRefs(ctx)
          .filter((r) => r.ref.startsWith(prefix))
          .map((r) => refBody(ctx, r.ref, r.sha, r.type)),
      );
    },
  },
];
