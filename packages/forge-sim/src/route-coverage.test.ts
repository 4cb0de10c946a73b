import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createForgeSim, type ForgeSim } from './forge-sim.js';
import { seedDemoWorld, type DemoWorldIds } from './world/demo-world.js';
import { createSimClock } from './world/sim-clock.js';

interface RouteRow {
  readonly kind: string;
  readonly template: string;
}

const ROUTES: RouteRow[] = readFileSync(
  new URL('./__fixtures__/route-map.tsv', import.meta.url),
  'utf8',
)
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [kind = '', template = ''] = line.split('\t');
    return { kind, template };
  });

/** Fills a route-map template with names from the demo world. */
function instantiate(row: RouteRow, ids: DemoWorldIds): string {
  const byKind: Record<string, Record<string, string>> = {
    commit_view_ref: { ref: 'feature/sprockets' },
    commit_statuses_ref: { ref: 'feature/sprockets' },
    commit_check_runs_ref: { ref: 'feature/sprockets' },
    commit_check_suites_ref: { ref: 'feature/sprockets' },
    commit_status_ref: { ref: 'feature/sprockets' },
    git_ref: { ref: 'heads/main' },
    git_matching_refs: { ref: 'tags/v' },
    repo_comment: { comment_id: String(ids.commitCommentId) },
    pr_review_comment_view: { comment_id: String(ids.reviewCommentId) },
    pr_review_comment_reactions: { comment_id: String(ids.reviewCommentId) },
  };
  const values: Record<string, string> = {
    username: 'alice',
    org: 'acme',
    owner: 'acme',
    repo: 'widgets',
    gist_id: ids.gistId,
    license: 'mit',
    name: row.kind === 'label_view' ? 'bug' : 'Node',
    ref: ids.headSha,
    commit_sha: row.kind === 'git_commit' ? ids.headSha : ids.headSha,
    comment_id: String(ids.issueCommentId),
    basehead: 'main...feature/sprockets',
    path: 'src/index.ts',
    dir: 'docs',
    pull_number: String(ids.pullNumber),
    review_id: String(ids.reviewId),
    run_id: String(ids.runId),
    job_id: String(ids.jobId),
    check_run_id: String(ids.checkRunId),
    issue_number: String(ids.issueNumber),
    event_id: String(ids.issueEventId),
    assignee: 'alice',
    milestone_number: '1',
    branch: 'main',
    ruleset_id: String(ids.rulesetId),
    file_sha: ids.blobSha,
    tag_sha: ids.tagObjectSha,
    tree_sha: ids.treeSha,
    workflow_id: 'ci.yml',
    release_id: String(ids.releaseId),
    tag: 'v1.0.0',
    asset_id: String(ids.assetId),
    ...byKind[row.kind],
  };
  return row.template.replace(
    /\{([a-z_]+)\}/g,
    (_, key: string) => values[key] ?? `MISSING_${key}`,
  );
}

describe('every route kind of route-map.tsv', () => {
  let sim: ForgeSim;
  let ids: DemoWorldIds;
  let token: string;

  beforeAll(async () => {
    sim = await createForgeSim({
      clock: createSimClock({ start: Date.parse('2026-03-02T10:00:00Z') }),
      statsDelayMs: 0,
    });
    ids = seedDemoWorld(sim.world);
    token = sim.tokens.addPat({ login: 'alice' }).token;
  });
  afterAll(async () => {
    await sim.close();
  });

  it.each(ROUTES.map((r) => [r.kind, r.template, r] as const))(
    '%s answers %s',
    async (_kind, _template, row) => {
      const path = instantiate(row, ids);
      expect(path).not.toContain('MISSING_');
      const query = row.kind.startsWith('search_') ? '?q=widgets' : '';
      const res = await fetch(`${sim.urls.api}${path}${query}`, {
        headers: { authorization: `token ${token}` },
        redirect: 'manual',
      });
      const expected = row.kind === 'job_logs' ? [302] : [200, 202, 204];
      expect({ path, status: res.status }).toEqual({
        path,
        status: expect.toSatisfy((s: number) => expected.includes(s)),
      });
      expect(res.headers.get('x-ratelimit-resource')).toMatch(/^(core|search|code_search)$/);
      if (res.status === 200) {
        expect(res.headers.get('content-type')).toContain('application/json');
        if (row.kind !== 'rate_limit') expect(res.headers.get('etag')).toMatch(/^W\/"[0-9a-f]+"$/);
        const body: unknown = await res.json();
        expect(body).not.toBeNull();
        const text = JSON.stringify(body);
        expect(text).not.toContain('api.github.com');
      } else {
        await res.arrayBuffer();
      }
    },
  );
});
