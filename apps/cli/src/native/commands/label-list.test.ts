import type { RelayEnvelope } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import type { JqRunner } from '../export/export-output.js';
import type { RelayPort, RelayRead } from '../relay-port.js';
import { runLabelList } from './label-list.js';

const REPO = {
  repo: { host: 'github.com', owner: 'OWNER', name: 'REPO' },
  source: 'flag' as const,
};

function label(id: number, name: string, description: string | null, color: string) {
  return {
    id,
    node_id: `LA_${id}`,
    url: `https://api.github.com/repos/OWNER/REPO/labels/${encodeURIComponent(name)}`,
    name,
    description,
    color,
    default: name === 'bug',
  };
}

function envelope(body: unknown, status = 200, link?: string): RelayEnvelope {
  return {
    status,
    headers: link === undefined ? {} : { link },
    body,
    body_encoding: 'json',
    relay: {
      pool: 'team',
      request_id: 'r',
      cacheable: true,
      cache: 'miss',
      route_kind: 'label_list',
    },
  } as unknown as RelayEnvelope;
}

/** A fake port answering pages in order and recording what was read. */
function fakePort(pages: readonly RelayEnvelope[]): RelayPort & { reads: RelayRead[] } {
  const reads: RelayRead[] = [];
  return {
    reads,
    read(request) {
      reads.push(request);
      const page = pages[reads.length - 1];
      if (page === undefined) throw new Error('unexpected read');
      return Promise.resolve({ kind: 'served', envelope: page });
    },
  };
}

const noJq: JqRunner = () => Promise.resolve('missing');
const LABELS = [
  label(3, 'docs', null, '0075ca'),
  label(1, 'bug', 'Something isn’t working', 'd73a4a'),
  label(2, 'good first issue', 'Good for newcomers', '7057ff'),
];

describe('gh label list through the relay port', () => {
  it('prints gh’s non-TTY table in creation order (label/list_test.go "lists labels" nontty)', async () => {
    const port = fakePort([envelope(LABELS)]);
    const outcome = await runLabelList(port, { flags: {}, repo: REPO }, noJq);
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stdout:
        'bug\tSomething isn’t working\t#d73a4a\ngood first issue\tGood for newcomers\t#7057ff\ndocs\t\t#0075ca\n',
      stderr: '',
    });
    expect(port.reads).toEqual([{ path: '/repos/OWNER/REPO/labels', query: { per_page: '100' } }]);
  });

  it('--order desc and --limit, over two pages', async () => {
    const port = fakePort([
      envelope(
        [LABELS[0]],
        200,
        '<https://api.github.com/repositories/1/labels?page=2>; rel="next"',
      ),
      envelope([LABELS[1], LABELS[2]]),
    ]);
    const outcome = await runLabelList(
      port,
      { flags: { order: ['Desc'], limit: ['0x2'] }, repo: REPO },
      noJq,
    );
    expect(outcome).toMatchObject({
      stdout: 'docs\t\t#0075ca\ngood first issue\tGood for newcomers\t#7057ff\n',
    });
    expect(port.reads[1]).toEqual({
      path: '/repos/OWNER/REPO/labels',
      query: { per_page: '100', page: '2' },
    });
  });

  it('--json prints sorted keys of the requested fields (gh’s shapes)', async () => {
    const outcome = await runLabelList(
      fakePort([envelope(LABELS.slice(1, 3))]),
      { flags: { json: ['url,name,id,isDefault,description,color'] }, repo: REPO },
      noJq,
    );
    expect(outcome).toMatchObject({
      code: 0,
      stdout:
        '[{"color":"d73a4a","description":"Something isn’t working","id":"LA_1","isDefault":true,"name":"bug","url":"https://github.com/OWNER/REPO/labels/bug"},' +
        '{"color":"7057ff","description":"Good for newcomers","id":"LA_2","isDefault":false,"name":"good first issue","url":"https://github.com/OWNER/REPO/labels/good%20first%20issue"}]\n',
    });
  });

  it('--jq runs over the export and prints gh’s result format', async () => {
    const jq: JqRunner = (filter, json) => {
      expect(filter).toBe('.[].name');
      expect(json).toBe('[{"name":"bug"},{"name":"good first issue"},{"name":"docs"}]\n');
      return Promise.resolve({ ok: true, text: 'docs\n' });
    };
    const outcome = await runLabelList(
      fakePort([envelope(LABELS)]),
      { flags: { json: ['name'], jq: ['.[].name'] }, repo: REPO },
      jq,
    );
    expect(outcome).toMatchObject({ stdout: 'docs\n' });
  });

  it('no labels: nothing printed, exit 0, also with --json (gh’s silent NoResultsError)', async () => {
    for (const flags of [{}, { json: ['name'] }]) {
      const outcome = await runLabelList(fakePort([envelope([])]), { flags, repo: REPO }, noJq);
      expect(outcome).toEqual({ kind: 'done', code: 0, stdout: '', stderr: '' });
    }
  });

  it('an unknown field prints gh’s error and exits 1 without reading', async () => {
    const port = fakePort([]);
    const outcome = await runLabelList(port, { flags: { json: ['nope'] }, repo: REPO }, noJq);
    expect(outcome).toMatchObject({ code: 1, stdout: '' });
    expect(
      outcome.kind === 'done' && outcome.stderr.startsWith('Unknown JSON field: "nope"\n'),
    ).toBe(true);
    expect(port.reads).toEqual([]);
  });

  it.each([
    [{ json: ['createdAt'] }, 'unsupported_flag'],
    [{ json: ['name,updatedAt'] }, 'unsupported_flag'],
    [{ search: ['bug'] }, 'unsupported_flag'],
    [{ sort: ['name'] }, 'unsupported_flag'],
    [{ sort: ['size'] }, 'invalid_usage'],
    [{ order: ['up'] }, 'invalid_usage'],
    [{ limit: ['0'] }, 'invalid_usage'],
    [{ limit: ['101'] }, 'unsupported_flag'],
    [{ json: ['a"b'] }, 'invalid_usage'],
    [{ json: ['name'], jq: ['.'] }, 'unsupported_flag'],
  ])('%j runs gh (%s)', async (flags, reason) => {
    const outcome = await runLabelList(fakePort([envelope(LABELS)]), { flags, repo: REPO }, noJq);
    expect(outcome).toEqual({ kind: 'delegate', reason });
  });

  it('a forge error, a label name whose URL escaping is unproved, or 11 pages run gh', async () => {
    const missing = await runLabelList(
      fakePort([envelope({ message: 'Not Found' }, 404)]),
      { flags: {}, repo: REPO },
      noJq,
    );
    expect(missing).toEqual({ kind: 'delegate', reason: 'unsupported_shape' });
    const odd = await runLabelList(
      fakePort([envelope([label(9, 'area:ui', null, 'fff')])]),
      { flags: { json: ['url'] }, repo: REPO },
      noJq,
    );
    expect(odd).toEqual({ kind: 'delegate', reason: 'unsupported_flag' });
    const next = '<https://api.github.com/x?page=2>; rel="next"';
    const long = await runLabelList(
      fakePort(Array.from({ length: 11 }, () => envelope([LABELS[0]], 200, next))),
      { flags: {}, repo: REPO },
      noJq,
    );
    expect(long).toEqual({ kind: 'delegate', reason: 'unsupported_shape' });
  });

  it('a relay fallback is handed back with its reason', async () => {
    const port: RelayPort = {
      read: () => Promise.resolve({ kind: 'fallback', reason: 'repo_not_public' }),
    };
    expect(await runLabelList(port, { flags: {}, repo: REPO }, noJq)).toEqual({
      kind: 'fallback',
      reason: 'repo_not_public',
    });
  });
});
