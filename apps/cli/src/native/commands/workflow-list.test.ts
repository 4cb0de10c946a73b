import { describe, expect, it } from 'vitest';
import type { JqRunner } from '../export/export-output.js';
import { createFakeRunPort } from './run-fake-port.js';
import { restWorkflow } from './run-fixtures.js';
import { runWorkflowList } from './workflow-list.js';

const REPO = {
  repo: { host: 'github.com', owner: 'OWNER', name: 'REPO' },
  source: 'flag' as const,
};
const WORKFLOWS = '/repos/OWNER/REPO/actions/workflows';
const noJq: JqRunner = () => Promise.resolve('missing');

// workflow/list/list_test.go's workflows.
const WORKFLOW_SET = [
  restWorkflow(707, 'Go', 'active', '.github/workflows/go.yml'),
  restWorkflow(666, 'Linter', 'active', '.github/workflows/lint.yml'),
  restWorkflow(451, 'Release', 'disabled_manually', '.github/workflows/release.yml'),
];
const port = (workflows: readonly unknown[] = WORKFLOW_SET) =>
  createFakeRunPort({
    [`${WORKFLOWS}?page=1`]: {
      body: { total_count: workflows.length, workflows },
      route: 'workflow_list',
    },
  });
const plan = (flags: Record<string, readonly string[]> = {}) => ({ flags, repo: REPO });

describe('gh workflow list through the relay port', () => {
  it('list_test.go "lists worrkflows nontty": disabled hidden, one read of per_page 50', async () => {
    const relay = port();
    expect(await runWorkflowList(relay, plan(), noJq)).toEqual({
      kind: 'done',
      code: 0,
      stdout: 'Go\tactive\t707\nLinter\tactive\t666\n',
      stderr: '',
    });
    expect(relay.reads).toEqual([{ path: WORKFLOWS, query: { per_page: '50', page: '1' } }]);
  });

  it('--all shows disabled workflows; --limit is per_page and applies before the filter', async () => {
    expect(await runWorkflowList(port(), plan({ all: ['true'] }), noJq)).toMatchObject({
      stdout: 'Go\tactive\t707\nLinter\tactive\t666\nRelease\tdisabled_manually\t451\n',
    });
    const relay = port([WORKFLOW_SET[2]]);
    expect(await runWorkflowList(relay, plan({ limit: ['1'] }), noJq)).toEqual({
      kind: 'done',
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect(relay.reads[0]?.query).toEqual({ per_page: '1', page: '1' });
  });

  it('--json: gh’s StructExportData maps; none left is no output even with --json', async () => {
    expect(await runWorkflowList(port(), plan({ json: ['state,id,path'] }), noJq)).toMatchObject({
      stdout:
        '[{"id":707,"path":".github/workflows/go.yml","state":"active"},{"id":666,"path":".github/workflows/lint.yml","state":"active"}]\n',
    });
    expect(await runWorkflowList(port([]), plan({ json: ['id'] }), noJq)).toMatchObject({
      stdout: '',
      code: 0,
    });
  });

  it.each([
    [{ limit: ['0'] }, 'invalid_usage'],
    [{ limit: ['101'] }, 'unsupported_flag'],
  ])('limit %o runs gh', async (flags, reason) => {
    expect(await runWorkflowList(port(), plan(flags), noJq)).toEqual({ kind: 'delegate', reason });
  });

  it('a workflow id beyond 2^53−1 runs gh', async () => {
    const relay = createFakeRunPort({
      [`${WORKFLOWS}?page=1`]: {
        text: '{"total_count":1,"workflows":[{"id":18014398509481985,"name":"x","state":"active"}]}',
      },
    });
    expect(await runWorkflowList(relay, plan(), noJq)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_shape',
    });
  });
});
