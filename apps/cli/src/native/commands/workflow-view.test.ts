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

  it.each([
    ['', {}],
    ['--yaml', { yaml: ['true'] }],
  ])(
    'an empty workflow argument %s: gh’s FindWorkflow error, no read, exit 1',
    async (_name, flags) => {
      const port = createFakeRunPort({});
      expect(await runWorkflowView(port, plan([''], flags), options)).toEqual({
        kind: 'done',
        code: 1,
        stdout: '',
        stderr: 'empty workflow selector\n',
      });
      expect(port.reads).toEqual([]);
    },
  );

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

  it('view_test.go "workflow with yaml" without a terminal: the raw file; --ref as the query', async () => {
    const answers = {
      [`${WORKFLOWS}/123`]: { body: A_WORKFLOW, route: 'workflow_view' },
      [`/repos/OWNER/REPO/contents/.github/workflows/flow.yml`]: {
        body: { content: 'bmFtZTogYSB3b3JrZmxvdwo=' },
        route: 'contents',
      },
    };
    const port = createFakeRunPort(answers);
    expect(await runWorkflowView(port, plan(['123'], { yaml: ['true'] }), options)).toEqual({
      kind: 'done',
      code: 0,
      stdout: 'name: a workflow\n',
      stderr: '',
    });
    const withRef = createFakeRunPort(answers);
    await runWorkflowView(withRef, plan(['123'], { yaml: ['true'], ref: ['456'] }), options);
    expect(withRef.reads[1]).toEqual({
      path: '/repos/OWNER/REPO/contents/.github/workflows/flow.yml',
      query: { ref: '456' },
    });
  });

  it.each([
    ['a file without a final newline gets one', 'bmFtZTogeA==', 'name: x\n'],
    [
      'controls in caret notation (go-gh byte sanitizer)',
      Buffer.from('a\u001bb\n').toString('base64'),
      'a^[b\n',
    ],
    ['base64 wrapped at 60 columns (Go skips the breaks)', 'bmFt\nZTogeA==', 'name: x\n'],
  ])('--yaml: %s', async (_name, content, stdout) => {
    const port = createFakeRunPort({
      [`${WORKFLOWS}/123`]: { body: A_WORKFLOW },
      [`/repos/OWNER/REPO/contents/.github/workflows/flow.yml`]: { body: { content } },
    });
    expect(await runWorkflowView(port, plan(['123'], { yaml: ['true'] }), options)).toMatchObject({
      stdout,
    });
  });

  it.each([
    [{}, 'could not find workflow file flow.yml, try specifying a branch or tag using `--ref`\n'],
    [
      { ref: ['v2'] },
      'could not find workflow file flow.yml on v2, try specifying a different ref\n',
    ],
  ])(
    'view_test.go "workflow with yaml not found" %o: gh’s error, exit 1',
    async (flags, stderr) => {
      const port = createFakeRunPort({
        [`${WORKFLOWS}/123`]: { body: A_WORKFLOW },
        [`/repos/OWNER/REPO/contents/.github/workflows/flow.yml`]: {
          status: 404,
          text: 'not Found',
        },
      });
      expect(
        await runWorkflowView(port, plan(['123'], { yaml: ['true'], ...flags }), options),
      ).toEqual({ kind: 'done', code: 1, stdout: '', stderr });
    },
  );

  it.each([[{ ref: ['main'] }, 'invalid_usage']])('%o runs gh', async (flags, reason) => {
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
