import { describe, expect, it } from 'vitest';
import { createFakeRunPort } from './run-fake-port.js';
import { TEST_RUNS, TEST_RUN_END, restWorkflow } from './run-fixtures.js';
import { classifyWorkflowSelector, equalFoldAscii } from './workflow-finder.js';
import { runWorkflowView } from './workflow-view.js';

const REPO = {
  repo: { host: 'github.com', owner: 'OWNER', name: 'REPO' },
  source: 'flag' as const,
};
const WORKFLOWS = '/repos/OWNER/REPO/actions/workflows';
const options = { env: {}, now: Date.parse(TEST_RUN_END) };
const A_WORKFLOW = restWorkflow(123, 'a workflow', 'active', '.github/workflows/flow.yml');
const plan = (args: readonly string[], flags: Record<string, readonly string[]> = {}) => ({
  args,
  flags,
  repo: REPO,
});

describe('gh workflow view through the relay port', () => {
  it('view_test.go "workflow info" without a terminal: raw table with status, conclusion, elapsed', async () => {
    const port = createFakeRunPort({
      [`${WORKFLOWS}/123`]: { body: A_WORKFLOW, route: 'workflow_view' },
      [`${WORKFLOWS}/123/runs`]: {
        body: { total_count: 10, workflow_runs: TEST_RUNS.slice(0, 4) },
        route: 'workflow_run_list',
      },
    });
    expect(await runWorkflowView(port, plan(['123']), options)).toEqual({
      kind: 'done',
      code: 0,
      stdout: [
        'a workflow - flow.yml',
        'ID: 123',
        '',
        'Total runs 10',
        'Recent runs',
        'completed\ttimed_out\tcool commit\ta workflow\ttrunk\tpush\t4m34s\t1',
        'in_progress\t\tcool commit\ta workflow\ttrunk\tpush\t4m34s\t2',
        'completed\tsuccess\tcool commit\ta workflow\ttrunk\tpush\t4m34s\t3',
        'completed\tcancelled\tcool commit\ta workflow\ttrunk\tpush\t4m34s\t4',
        '',
        'To see more runs for this workflow, try: gh run list --workflow flow.yml',
        'To see the YAML for this workflow, try: gh workflow view flow.yml --yaml',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(port.reads).toEqual([
      { path: `${WORKFLOWS}/123` },
      { path: `${WORKFLOWS}/123/runs`, query: { per_page: '5', exclude_pull_requests: 'true' } },
    ]);
  });

  it('no runs: no table, no run list hint', async () => {
    const port = createFakeRunPort({
      [`${WORKFLOWS}?page=1`]: { body: { workflows: [A_WORKFLOW] } },
      [`${WORKFLOWS}/123/runs`]: { body: { total_count: 0, workflow_runs: [] } },
    });
    expect(await runWorkflowView(port, plan(['A Workflow']), options)).toMatchObject({
      stdout:
        'a workflow - flow.yml\nID: 123\n\nTotal runs 0\n\nTo see the YAML for this workflow, try: gh workflow view flow.yml --yaml\n',
    });
  });

  it('by name only active workflows match (gh’s error otherwise)', async () => {
    const port = createFakeRunPort({
      [`${WORKFLOWS}?page=1`]: {
        body: { workflows: [{ ...A_WORKFLOW, state: 'disabled_manually' }] },
      },
    });
    expect(await runWorkflowView(port, plan(['a workflow']), options)).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr: 'could not find any workflows named a workflow\n',
    });
  });

  it.each([
    [{ yaml: ['true'] }, 'unsupported_flag'],
    [{ ref: ['main'] }, 'invalid_usage'],
  ])('%o runs gh', async (flags, reason) => {
    const port = createFakeRunPort({});
    expect(await runWorkflowView(port, plan(['123'], flags), options)).toEqual({
      kind: 'delegate',
      reason,
    });
  });
});

describe('gh’s workflow selector (FindWorkflow) and name matching (EqualFold)', () => {
  it.each([
    ['123', 'by_id'],
    ['0', 'by_id'],
    ['ci.yml', 'by_id'],
    ['Release.YAML', 'by_id'],
    ['007', 'unproved'],
    ['+5', 'unproved'],
    ['dir/ci.yml', 'unproved'],
    ['my ci.yml', 'unproved'],
    ['99999999999999999999', 'by_name'],
    ['CI', 'by_name'],
    ['ci.yml.bak', 'by_name'],
  ])('%s → %s', (selector, kind) => {
    expect(classifyWorkflowSelector(selector)).toBe(kind);
  });

  it.each([
    ['CI', 'ci', true],
    ['\u212aube', 'kube', true],
    ['Te\u017ft', 'TEST', true],
    ['Caf\u00e9', 'cafe', false],
    ['build', 'Build ', false],
    ['x', '\u00e9', undefined],
  ])('EqualFold(%j, %j) = %s', (name, selector, same) => {
    expect(equalFoldAscii(name, selector)).toBe(same);
  });
});
