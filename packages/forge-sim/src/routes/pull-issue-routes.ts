import { renderDiff, renderPatch } from '../world/git-objects.js';
import type { IssueRecord } from '../world/world-records.js';
import { toPatchCommit } from './commit-routes.js';
import {
  NOT_FOUND,
  intParam,
  json,
  list,
  type RouteContext,
  type RouteDef,
  type RouteOutcome,
} from './route-types.js';

function sortIssues(ctx: RouteContext, items: IssueRecord[]): IssueRecord[] {
  const sort = ctx.url.searchParams.get('sort') ?? 'created';
  const dir = ctx.url.searchParams.get('direction') ?? 'desc';
  const key = (i: IssueRecord): number =>
    (sort === 'updated' ? i.updatedAt : i.createdAt) * 1e6 + i.number;
  return items.sort((a, b) => (dir === 'asc' ? key(a) - key(b) : key(b) - key(a)));
}

/** REST's `milestone` filter: a milestone number, `*` (any) or `none`. */
function matchesMilestone(issue: IssueRecord, milestone: string | null): boolean {
  if (milestone === null) return true;
  if (milestone === '*') return issue.milestone !== null;
  if (milestone === 'none') return issue.milestone === null;
  return issue.milestone === Number(milestone);
}

/** REST's `mentioned` filter: `@login` in the issue's body or one of its comments. */
function mentions(ctx: RouteContext, issue: IssueRecord, login: string): boolean {
  const escaped = login.replace(/[^A-Za-z0-9]/g, (c) => `\\${c}`);
  const mention = new RegExp(`(^|[^A-Za-z0-9-])@${escaped}(?![A-Za-z0-9-])`, 'i');
  const texts = [
    issue.body ?? '',
    ...[...ctx.repo.issueComments.values()]
      .filter((c) => c.issueNumber === issue.number)
      .map((c) => c.body),
  ];
  return texts.some((text) => mention.test(text));
}

function withPull(ctx: RouteContext, then: (n: number) => RouteOutcome): RouteOutcome {
  const n = intParam(ctx, 'pull_number');
  return n !== undefined && ctx.repo.pulls.has(n) ? then(n) : NOT_FOUND;
}

function withIssue(ctx: RouteContext, then: (issue: IssueRecord) => RouteOutcome): RouteOutcome {
  const issue = ctx.repo.issues.get(intParam(ctx, 'issue_number') ?? -1);
  return issue ? then(issue) : NOT_FOUND;
}

/**
 * GitHub's `head` filter of the pulls list: `user:ref-name` matches the head repository's
 * owner (a login, case-insensitively) and the branch; every simulated PR's head is in the
 * repository itself. A value without `user:` compares the branch only.
 */
function matchesHead(ctx: RouteContext, head: string, headRef: string): boolean {
  const colon = head.indexOf(':');
  if (colon < 0) return head === headRef;
  const owner = head.slice(0, colon);
  return owner.toLowerCase() === ctx.repo.owner.toLowerCase() && head.slice(colon + 1) === headRef;
}

/** Pull request and issue routes. */
export const PULL_ISSUE_ROUTES: readonly RouteDef[] = [
  {
    template: '/repos/{owner}/{repo}/pulls',
    handler: (ctx) => {
      const q = ctx.url.searchParams;
      const state = q.get('state') ?? 'open';
      const head = q.get('head');
      const base = q.get('base');
      const pulls = sortIssues(
        ctx,
        [...ctx.repo.issues.values()].filter(
          (i) => i.pullNumber !== null && (state === 'all' || i.state === state),
        ),
      )
        .map((i) => ctx.repo.pulls.get(i.number))
        .filter((p) => p !== undefined)
        .filter(
          (p) =>
            (head === null || matchesHead(ctx, head, p.headRef)) &&
            (base === null || base === p.baseRef),
        );
      return list(pulls.map((p) => ctx.render.pull(ctx.repo, p)));
    },
  },
  {
    template: '/repos/{owner}/{repo}/pulls/comments',
    handler: (ctx) =>
      list([...ctx.repo.reviewComments.values()].map((c) => ctx.render.reviewComment(ctx.repo, c))),
  },
  {
    template: '/repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions',
    handler: (ctx) => {
      const c = ctx.repo.reviewComments.get(Number(ctx.params.comment_id));
      return c ? list(c.reactions.map((r) => ctx.render.reaction(r))) : NOT_FOUND;
    },
  },
  {
    template: '/repos/{owner}/{repo}/pulls/comments/{comment_id}',
    handler: (ctx) => {
      const c = ctx.repo.reviewComments.get(Number(ctx.params.comment_id));
      return c ? json(ctx.render.reviewComment(ctx.repo, c)) : NOT_FOUND;
    },
  },
  {
    template: '/repos/{owner}/{repo}/pulls/{pull_number}',
    handler: (ctx) =>
      withPull(ctx, (n) => {
        const pull = ctx.repo.pulls.get(n);
        if (!pull) return NOT_FOUND;
        const files = ctx.render.pullFiles(ctx.repo, pull);
        if (ctx.accept.includes('application/vnd.github.diff')) {
          return {
            kind: 'text',
            body: renderDiff(files),
            contentType: 'application/vnd.github.diff; charset=utf-8',
          };
        }
        if (ctx.accept.includes('application/vnd.github.patch')) {
          const commits = ctx.world.pullCommits(ctx.repo, pull);
          return {
            kind: 'text',
            body: renderPatch(commits.map((c) => toPatchCommit(ctx, c))),
            contentType: 'application/vnd.github.patch; charset=utf-8',
          };
        }
        return json(ctx.render.pull(ctx.repo, pull, true), ctx.repo.issues.get(n)?.updatedAt);
      }),
  },
  {
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/files',
    handler: (ctx) =>
      withPull(ctx, (n) => {
        const pull = ctx.repo.pulls.get(n);
        if (!pull) return NOT_FOUND;
        return list(
          ctx.render
            .pullFiles(ctx.repo, pull)
            .map((c) => ctx.render.diffEntry(ctx.repo, pull.headSha, c)),
        );
      }),
  },
  {
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/commits',
    handler: (ctx) =>
      withPull(ctx, (n) => {
        const pull = ctx.repo.pulls.get(n);
        if (!pull) return NOT_FOUND;
        return list(
          ctx.world.pullCommits(ctx.repo, pull).map((c) => ctx.render.commit(ctx.repo, c)),
        );
      }),
  },
  {
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/comments',
    handler: (ctx) =>
      withPull(ctx, (n) =>
        list(
          [...ctx.repo.reviewComments.values()]
            .filter((c) => c.pullNumber === n)
            .map((c) => ctx.render.reviewComment(ctx.repo, c)),
        ),
      ),
  },
  {
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews',
    handler: (ctx) =>
      withPull(ctx, (n) =>
        list(
          [...ctx.repo.reviews.values()]
            .filter((r) => r.pullNumber === n)
            .map((r) => ctx.render.review(ctx.repo, r)),
        ),
      ),
  },
  {
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}',
    handler: (ctx) =>
      withPull(ctx, (n) => {
        const r = ctx.repo.reviews.get(Number(ctx.params.review_id));
        return r?.pullNumber === n ? json(ctx.render.review(ctx.repo, r)) : NOT_FOUND;
      }),
  },
  {
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments',
    handler: (ctx) =>
      withPull(ctx, (n) => {
        const id = Number(ctx.params.review_id);
        const r = ctx.repo.reviews.get(id);
        if (r?.pullNumber !== n) return NOT_FOUND;
        return list(
          [...ctx.repo.reviewComments.values()]
            .filter((c) => c.reviewId === id)
            .map((c) => ctx.render.reviewComment(ctx.repo, c)),
        );
      }),
  },
  {
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
    handler: (ctx) =>
      withPull(ctx, (n) => {
        const pull = ctx.repo.pulls.get(n);
        return json({
          users: (pull?.requestedReviewers ?? []).map((l) => ctx.render.user(l)),
          teams: (pull?.requestedTeams ?? []).map((slug) => ({
            id: 1,
            slug,
            name: slug,
            privacy: 'closed',
            permission: 'pull',
          })),
        });
      }),
  },
  {
    template: '/repos/{owner}/{repo}/issues',
    handler: (ctx) => {
      const q = ctx.url.searchParams;
      const state = q.get('state') ?? 'open';
      const labels =
        q
          .get('labels')
          ?.split(',')
          .filter((l) => l !== '') ?? [];
      const assignee = q.get('assignee');
      const creator = q.get('creator');
      const milestone = q.get('milestone');
      const mentioned = q.get('mentioned');
      const issues = sortIssues(
        ctx,
        [...ctx.repo.issues.values()].filter(
          (i) =>
            (state === 'all' || i.state === state) &&
            labels.every((l) => i.labels.includes(l)) &&
            (assignee === null ||
              (assignee === 'none'
                ? i.assignees.length === 0
                : assignee === '*'
                  ? i.assignees.length > 0
                  : i.assignees.includes(assignee))) &&
            (creator === null || i.user.toLowerCase() === creator.toLowerCase()) &&
            matchesMilestone(i, milestone) &&
            (mentioned === null || mentions(ctx, i, mentioned)),
        ),
      );
      return list(issues.map((i) => ctx.render.issue(ctx.repo, i)));
    },
  },
  {
    template: '/repos/{owner}/{repo}/issues/comments',
    handler: (ctx) =>
      list([...ctx.repo.issueComments.values()].map((c) => ctx.render.issueComment(ctx.repo, c))),
  },
  {
    template: '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions',
    handler: (ctx) => {
      const c = ctx.repo.issueComments.get(Number(ctx.params.comment_id));
      return c ? list(c.reactions.map((r) => ctx.render.reaction(r))) : NOT_FOUND;
    },
  },
  {
    template: '/repos/{owner}/{repo}/issues/comments/{comment_id}',
    handler: (ctx) => {
      const c = ctx.repo.issueComments.get(Number(ctx.params.comment_id));
      return c ? json(ctx.render.issueComment(ctx.repo, c)) : NOT_FOUND;
    },
  },
  {
    template: '/repos/{owner}/{repo}/issues/events',
    handler: (ctx) =>
      list(
        [...ctx.repo.issueEvents.values()]
          .reverse()
          .map((e) => ctx.render.issueEvent(ctx.repo, e, true)),
      ),
  },
  {
    template: '/repos/{owner}/{repo}/issues/events/{event_id}',
    handler: (ctx) => {
      const e = ctx.repo.issueEvents.get(Number(ctx.params.event_id));
      return e ? json(ctx.render.issueEvent(ctx.repo, e, true)) : NOT_FOUND;
    },
  },
  {
    template: '/repos/{owner}/{repo}/issues/{issue_number}',
    handler: (ctx) => withIssue(ctx, (i) => json(ctx.render.issue(ctx.repo, i), i.updatedAt)),
  },
  {
    template: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
    handler: (ctx) =>
      withIssue(ctx, (i) =>
        list(
          [...ctx.repo.issueComments.values()]
            .filter((c) => c.issueNumber === i.number)
            .map((c) => ctx.render.issueComment(ctx.repo, c)),
        ),
      ),
  },
  {
    template: '/repos/{owner}/{repo}/issues/{issue_number}/events',
    handler: (ctx) =>
      withIssue(ctx, (i) =>
        list(
          [...ctx.repo.issueEvents.values()]
            .filter((e) => e.issueNumber === i.number)
            .map((e) => ctx.render.issueEvent(ctx.repo, e, false)),
        ),
      ),
  },
  {
    template: '/repos/{owner}/{repo}/issues/{issue_number}/labels',
    handler: (ctx) =>
      withIssue(ctx, (i) =>
        list(
          i.labels.flatMap((n) => {
            const l = ctx.repo.labels.get(n);
            return l ? [ctx.render.label(ctx.repo, l)] : [];
          }),
        ),
      ),
  },
  {
    template: '/repos/{owner}/{repo}/issues/{issue_number}/reactions',
    handler: (ctx) => withIssue(ctx, (i) => list(i.reactions.map((r) => ctx.render.reaction(r)))),
  },
  {
    template: '/repos/{owner}/{repo}/issues/{issue_number}/timeline',
    handler: (ctx) =>
      withIssue(ctx, (i) => {
        const events = [...ctx.repo.issueEvents.values()]
          .filter((e) => e.issueNumber === i.number)
          .map((e) => ({
            at: e.createdAt,
            id: e.id,
            body: ctx.render.issueEvent(ctx.repo, e, false),
          }));
        const comments = [...ctx.repo.issueComments.values()]
          .filter((c) => c.issueNumber === i.number)
          .map((c) => ({
            at: c.createdAt,
            id: c.id,
            body: {
              ...ctx.render.issueComment(ctx.repo, c),
              event: 'commented',
              actor: ctx.render.user(c.user),
            },
          }));
        const pull = ctx.repo.pulls.get(i.number);
        const commits = pull
          ? ctx.world.pullCommits(ctx.repo, pull).map((c) => ({
              at: c.date,
              id: 0,
              body: { ...ctx.render.gitCommit(ctx.repo, c), event: 'committed' },
            }))
          : [];
        const reviews = [...ctx.repo.reviews.values()]
          .filter((r) => r.pullNumber === i.number)
          .map((r) => ({
            at: r.submittedAt,
            id: r.id,
            body: { ...ctx.render.review(ctx.repo, r), event: 'reviewed' },
          }));
        return list(
          [...events, ...comments, ...commits, ...reviews]
            .sort((a, b) => a.at - b.at || a.id - b.id)
            .map((x) => x.body),
        );
      }),
  },
];
