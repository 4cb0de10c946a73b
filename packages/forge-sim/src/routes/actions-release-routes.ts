import type { RunRecord } from '../world/world-records.js';
import {
  NOT_FOUND,
  intParam,
  json,
  list,
  wrapAs,
  type RouteContext,
  type RouteDef,
  type RouteOutcome,
} from './route-types.js';

function runs(ctx: RouteContext, filter: (r: RunRecord) => boolean): RouteOutcome {
  const q = ctx.url.searchParams;
  const branch = q.get('branch');
  const event = q.get('event');
  const status = q.get('status');
  const headSha = q.get('head_sha');
  const actor = q.get('actor');
  const items = [...ctx.repo.runs.values()]
    .filter(
      (r) =>
        filter(r) &&
        (branch === null || r.headBranch === branch) &&
        (event === null || r.event === event) &&
        (status === null || r.status === status || r.conclusion === status) &&
        (headSha === null || r.headSha === headSha) &&
        (actor === null || r.actor.toLowerCase() === actor.toLowerCase()),
    )
    .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
    .map((r) => ctx.render.run(ctx.repo, r));
  return list(items, wrapAs('workflow_runs'));
}

function findWorkflow(ctx: RouteContext): number | undefined {
  const raw = ctx.params.workflow_id ?? '';
  const byId = /^\d+$/.test(raw) ? ctx.repo.workflows.get(Number(raw)) : undefined;
  const found =
    byId ?? [...ctx.repo.workflows.values()].find((w) => w.path.split('/').at(-1) === raw);
  return found?.id;
}

function findRelease(ctx: RouteContext, by: 'id' | 'tag' | 'latest'): RouteOutcome {
  const releases = [...ctx.repo.releases.values()];
  const release =
    by === 'id'
      ? ctx.repo.releases.get(intParam(ctx, 'release_id') ?? -1)
      : by === 'tag'
        ? releases.find((r) => r.tagName === ctx.params.tag)
        : releases
            .filter((r) => !r.draft && !r.prerelease)
            .sort((a, b) => (b.publishedAt ?? 0) - (a.publishedAt ?? 0) || b.id - a.id)[0];
  if (!release) return NOT_FOUND;
  if (release.draft && ctx.principal.kind === 'anonymous') return NOT_FOUND;
  return json(ctx.render.release(ctx.repo, release), release.publishedAt ?? release.createdAt);
}

/** Actions (workflows, runs, jobs, logs, artifacts) and release routes. */
export const ACTIONS_RELEASE_ROUTES: readonly RouteDef[] = [
  { template: '/repos/{owner}/{repo}/actions/runs', handler: (ctx) => runs(ctx, () => true) },
  {
    template: '/repos/{owner}/{repo}/actions/runs/{run_id}',
    handler: (ctx) => {
      const r = ctx.repo.runs.get(intParam(ctx, 'run_id') ?? -1);
      return r ? json(ctx.render.run(ctx.repo, r), r.updatedAt) : NOT_FOUND;
    },
  },
  {
    template: '/repos/{owner}/{repo}/actions/runs/{run_id}/jobs',
    handler: (ctx) => {
      const id = intParam(ctx, 'run_id') ?? -1;
      if (!ctx.repo.runs.has(id)) return NOT_FOUND;
      return list(
        [...ctx.repo.jobs.values()]
          .filter((j) => j.runId === id)
          .map((j) => ctx.render.job(ctx.repo, j)),
        wrapAs('jobs'),
      );
    },
  },
  {
    template: '/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts',
    handler: (ctx) => {
      const id = intParam(ctx, 'run_id') ?? -1;
      if (!ctx.repo.runs.has(id)) return NOT_FOUND;
      return list(
        [...ctx.repo.artifacts.values()]
          .filter((a) => a.runId === id)
          .map((a) => ctx.render.artifact(ctx.repo, a)),
        wrapAs('artifacts'),
      );
    },
  },
  {
    template: '/repos/{owner}/{repo}/actions/jobs/{job_id}',
    handler: (ctx) => {
      const j = ctx.repo.jobs.get(intParam(ctx, 'job_id') ?? -1);
      return j ? json(ctx.render.job(ctx.repo, j)) : NOT_FOUND;
    },
  },
  {
    template: '/repos/{owner}/{repo}/actions/jobs/{job_id}/logs',
    handler: (ctx) => {
      const j = ctx.repo.jobs.get(intParam(ctx, 'job_id') ?? -1);
      if (!j) return NOT_FOUND;
      if (ctx.principal.kind === 'anonymous')
        return { kind: 'error', status: 403, message: 'Must have admin rights to Repository.' };
      return { kind: 'empty', status: 302, headers: { location: ctx.signLogUrl(ctx.repo, j.id) } };
    },
  },
  {
    template: '/repos/{owner}/{repo}/actions/workflows',
    handler: (ctx) =>
      list(
        [...ctx.repo.workflows.values()].map((w) => ctx.render.workflow(ctx.repo, w)),
        wrapAs('workflows'),
      ),
  },
  {
    template: '/repos/{owner}/{repo}/actions/workflows/{workflow_id}',
    handler: (ctx) => {
      const id = findWorkflow(ctx);
      const w = id === undefined ? undefined : ctx.repo.workflows.get(id);
      return w ? json(ctx.render.workflow(ctx.repo, w)) : NOT_FOUND;
    },
  },
  {
    template: '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs',
    handler: (ctx) => {
      const id = findWorkflow(ctx);
      return id === undefined ? NOT_FOUND : runs(ctx, (r) => r.workflowId === id);
    },
  },
  {
    template: '/repos/{owner}/{repo}/releases',
    handler: (ctx) =>
      list(
        [...ctx.repo.releases.values()]
          .filter((r) => !r.draft || ctx.principal.kind !== 'anonymous')
          .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
          .map((r) => ctx.render.release(ctx.repo, r)),
      ),
  },
  {
    template: '/repos/{owner}/{repo}/releases/latest',
    handler: (ctx) => findRelease(ctx, 'latest'),
  },
  {
    template: '/repos/{owner}/{repo}/releases/tags/{tag+}',
    handler: (ctx) => findRelease(ctx, 'tag'),
  },
  {
    template: '/repos/{owner}/{repo}/releases/assets/{asset_id}',
    handler: (ctx) => {
      const id = intParam(ctx, 'asset_id') ?? -1;
      const asset = [...ctx.repo.releases.values()]
        .flatMap((r) => r.assets)
        .find((a) => a.id === id);
      if (!asset) return NOT_FOUND;
      if (ctx.accept.includes('application/octet-stream')) {
        return { kind: 'text', body: asset.content, contentType: 'application/octet-stream' };
      }
      return json(ctx.render.asset(ctx.repo, asset));
    },
  },
  {
    template: '/repos/{owner}/{repo}/releases/{release_id}',
    handler: (ctx) => findRelease(ctx, 'id'),
  },
  {
    template: '/repos/{owner}/{repo}/releases/{release_id}/assets',
    handler: (ctx) => {
      const r = ctx.repo.releases.get(intParam(ctx, 'release_id') ?? -1);
      return r ? list(r.assets.map((a) => ctx.render.asset(ctx.repo, a))) : NOT_FOUND;
    },
  },
];
