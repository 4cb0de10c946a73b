import type { RelayEnvelope } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import { parseGistSelector, renderGistFileNames } from '../export/gist-export.js';
import type { RelayPort, RelayRead, RelayReadResult } from '../relay-port.js';
import { runGistView } from './gist-view.js';

const ID = '5b0e0062eb8e9654adad7bb1d81cc75f';

function envelope(body: unknown, status = 200): RelayEnvelope {
  return {
    status,
    headers: {},
    body,
    body_encoding: 'json',
    relay: {
      pool: 'team',
      request_id: 'r',
      cacheable: true,
      cache: 'miss',
      route_kind: 'gist_view',
    },
  } as unknown as RelayEnvelope;
}

function fakePort(answer: RelayEnvelope | RelayReadResult): RelayPort & { reads: RelayRead[] } {
  const reads: RelayRead[] = [];
  return {
    reads,
    read(request) {
      reads.push(request);
      return Promise.resolve('kind' in answer ? answer : { kind: 'served', envelope: answer });
    },
  };
}

const gist = (names: readonly string[]) =>
  envelope({
    id: ID,
    description: 'some files',
    public: true,
    files: Object.fromEntries(names.map((name) => [name, { filename: name, content: 'x' }])),
  });

describe('gh gist view --files through the relay port', () => {
  it.each([
    ['one file, list files', ['cicada.txt'], 'cicada.txt\n'],
    ['multiple file, list files', ['foo.md', 'cicada.txt'], 'cicada.txt\nfoo.md\n'],
  ])('view_test.go "%s"', async (_name, names, stdout) => {
    const outcome = await runGistView(fakePort(gist(names)), {
      args: ['1234'],
      flags: { files: ['true'] },
    });
    expect(outcome).toEqual({ kind: 'done', code: 0, stdout, stderr: '' });
  });

  it('lists the file names sorted case-insensitively, no description', async () => {
    const port = fakePort(gist(['gistfile1.txt', 'gistfile0.txt', 'README.md', 'b.go']));
    const outcome = await runGistView(port, { args: [ID], flags: { files: ['true'] } });
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stdout: 'b.go\ngistfile0.txt\ngistfile1.txt\nREADME.md\n',
      stderr: '',
    });
    expect(port.reads).toEqual([{ path: `/gists/${ID}` }]);
  });

  it('reads the id of a gist URL', async () => {
    const port = fakePort(gist(['a']));
    await runGistView(port, {
      args: [`https://gist.github.com/octo/${ID}`],
      flags: { files: ['true'], raw: ['true'] },
    });
    expect(port.reads).toEqual([{ path: `/gists/${ID}` }]);
  });

  it('a gist the forge does not have: gh’s “not found”, exit 1', async () => {
    const outcome = await runGistView(fakePort(envelope({ message: 'Not Found' }, 404)), {
      args: [ID],
      flags: { files: ['true'] },
    });
    expect(outcome).toEqual({ kind: 'done', code: 1, stdout: '', stderr: 'not found\n' });
  });

  it('a secret gist (the relay’s repo_not_public) is handed back for gh to run', async () => {
    const outcome = await runGistView(fakePort({ kind: 'fallback', reason: 'repo_not_public' }), {
      args: [ID],
      flags: { files: ['true'] },
    });
    expect(outcome).toEqual({ kind: 'fallback', reason: 'repo_not_public' });
  });

  it.each([
    ['no argument (gh prompts)', [], { files: ['true'] }],
    ['an id the route does not take', ['not-an-id'], { files: ['true'] }],
    ['a percent-escaped URL', [`https://gist.github.com/octo/%35${ID}`], { files: ['true'] }],
  ])('runs gh without a read: %s', async (_name, args, flags) => {
    const port = fakePort(gist(['a']));
    const outcome = await runGistView(port, { args, flags });
    expect(outcome.kind).toBe('delegate');
    expect(port.reads).toEqual([]);
  });

  it.each([
    ['a 500', envelope({}, 500)],
    ['names equal but for case (Go’s map order decides)', gist(['A.txt', 'a.txt'])],
    // Go's ToLower (simple mapping, its Unicode tables) and JavaScript's differ for capitals.
    ['a non-ASCII capital', gist(['É.txt'])],
    ['a dotted capital I', gist(['\u0130.txt', 'b'])],
    ['a final sigma', gist(['ΑΣ', 'b'])],
    // Go's decoder reads a lone surrogate as U+FFFD.
    ['a lone surrogate', gist(['a\ud800', 'b'])],
  ])('runs gh for %s', async (_name, answer) => {
    const outcome = await runGistView(fakePort(answer), { args: [ID], flags: { files: ['true'] } });
    expect(outcome).toEqual({ kind: 'delegate', reason: 'unsupported_shape' });
  });
});

describe('gh’s GistIDFromURL', () => {
  it.each([
    [ID, ID],
    [`https://gist.github.com/${ID}`, ID],
    [`https://gist.github.com/octo/${ID}`, ID],
    [`https://gist.github.com/octo/${ID}/raw/file.txt`, ID],
    [`https://gist.github.com/octo/${ID}#file-a`, ID],
    ['https://gist.github.com/', undefined],
    [`https://gist.github.com/${ID}/`, undefined],
    [`octo/${ID}`, undefined],
  ])('%s → %s', (selector, id) => {
    expect(parseGistSelector(selector)).toBe(id);
  });

  it('sorts as strings.ToLower byte order', () => {
    expect(renderGistFileNames(['b', 'A_', 'a1', 'Z'])).toBe('a1\nA_\nb\nZ\n');
  });

  it('sorts names with lower-case or caseless non-ASCII characters by their UTF-8 bytes', () => {
    // é (C3 A9) after z; the fullwidth ｆ (EF BD 86) before the rocket (F0 9F 9A 80), which
    // UTF-16 order would put first; 日 (E6 97 A5) between them.
    expect(
      renderGistFileNames(['\u{1F680}.md', '\uFF46.txt', 'é.txt', 'Zeta', '日本.go', 'B']),
    ).toBe('B\nZeta\né.txt\n日本.go\n\uFF46.txt\n\u{1F680}.md\n');
  });
});

const gistOf = (description: string, files: Record<string, string>) =>
  envelope({
    id: '1234',
    description,
    files: Object.fromEntries(
      Object.entries(files).map(([name, content]) => [name, { filename: name, content }]),
    ),
  });

describe('gh gist view contents without a terminal (raw)', () => {
  it.each<[string, ReturnType<typeof gistOf>, Record<string, string[]>, string]>([
    ['one file', gistOf('', { 'cicada.txt': 'bwhiizzzbwhuiiizzzz' }), {}, 'bwhiizzzbwhuiiizzzz\n'],
    [
      'filename selected, raw',
      gistOf('', { 'cicada.txt': 'bwhiizzzbwhuiiizzzz', 'foo.md': '# foo' }),
      { filename: ['cicada.txt'] },
      'bwhiizzzbwhuiiizzzz\n',
    ],
    [
      'multiple files, trailing newlines',
      gistOf('', { 'cicada.txt': 'bwhiizzzbwhuiiizzzz\n', 'foo.txt': 'bar\n' }),
      {},
      'cicada.txt\n\nbwhiizzzbwhuiiizzzz\n\nfoo.txt\n\nbar\n',
    ],
    [
      'multiple files, raw',
      gistOf('some files', { 'cicada.txt': 'bwhiizzzbwhuiiizzzz', 'foo.md': '- foo' }),
      {},
      'some files\n\ncicada.txt\n\nbwhiizzzbwhuiiizzzz\n\nfoo.md\n\n- foo\n',
    ],
  ])('view_test.go "%s"', async (_name, answer, flags, stdout) => {
    const outcome = await runGistView(fakePort(answer), { args: ['1234'], flags });
    expect(outcome).toEqual({ kind: 'done', code: 0, stdout, stderr: '' });
  });

  it('non-ASCII names (lower-case or caseless): in UTF-8 byte order of the lowered names', async () => {
    const answer = gistOf('', { '\u{1F680}.md': 'r', 'ünï.txt': 'u', 'Zz.txt': 'z' });
    expect(await runGistView(fakePort(answer), { args: ['1234'], flags: {} })).toEqual({
      kind: 'done',
      code: 0,
      stdout: 'Zz.txt\n\nz\n\nünï.txt\n\nu\n\n\u{1F680}.md\n\nr\n',
      stderr: '',
    });
  });

  it('file names as gh’s sanitizer leaves them: an ESC in a name is `^[`', async () => {
    const answer = gistOf('', { 'a\u001bz.txt': 'A', 'b.txt': 'B' });
    expect(
      await runGistView(fakePort(answer), { args: ['1234'], flags: { files: ['true'] } }),
    ).toEqual({
      kind: 'done',
      code: 0,
      stdout: 'a^[z.txt\nb.txt\n',
      stderr: '',
    });
    expect(
      await runGistView(fakePort(answer), { args: ['1234'], flags: { filename: ['a^[z.txt'] } }),
    ).toEqual({ kind: 'done', code: 0, stdout: 'A\n', stderr: '' });
    // A C1 control (go-gh v2.11 maps U+0080…U+009F too): U+0085 is `^E`.
    expect(
      await runGistView(fakePort(gist(['a\u0085', 'b'])), {
        args: [ID],
        flags: { files: ['true'] },
      }),
    ).toEqual({ kind: 'done', code: 0, stdout: 'a^E\nb\n', stderr: '' });
    // Two keys the sanitizer makes one: gh's map keeps one of them.
    const merged = gistOf('', { 'a\u001b': 'A', 'a^[': 'B' });
    expect(await runGistView(fakePort(merged), { args: ['1234'], flags: {} })).toEqual({
      kind: 'delegate',
      reason: 'unsupported_shape',
    });
  });

  it('--filename wins over --files; a missing file is gh’s error', async () => {
    const answer = gistOf('d', { 'a.txt': 'A' });
    expect(
      await runGistView(fakePort(answer), {
        args: ['1234'],
        flags: { files: ['true'], filename: ['a.txt'] },
      }),
    ).toEqual({ kind: 'done', code: 0, stdout: 'A\n', stderr: '' });
    expect(
      await runGistView(fakePort(answer), { args: ['1234'], flags: { filename: ['b "x".txt'] } }),
    ).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr: 'gist has no such file: "b \\"x\\".txt"\n',
    });
  });

  it('a binary file (a binary byte, no signature): skipped among several, an error alone', async () => {
    const several = await runGistView(fakePort(gistOf('d', { 'a.bin': 'x\vy', 'b.txt': 'B' })), {
      args: ['1234'],
      flags: {},
    });
    expect(several).toEqual({
      kind: 'done',
      code: 0,
      stdout: 'd\n\na.bin\n\n(skipping rendering binary content)\n\nb.txt\n\nB\n',
      stderr: '',
    });
    const alone = await runGistView(fakePort(gistOf('d', { 'a.bin': 'x\vy' })), {
      args: ['1234'],
      flags: {},
    });
    expect(alone).toEqual({
      kind: 'done',
      code: 1,
      stdout: 'd\n\n',
      stderr: 'error: file is binary\n',
    });
  });

  it.each([
    ['a PDF signature', '%PDF-1.4 not really'],
    ['an exe signature', 'MZ is a prefix of Windows executables'],
    ['a bmp signature', 'BM'],
    ['a signature at an offset', `${'x'.repeat(128)}DICM`],
    ['a tar header checksum field', `${'x'.repeat(148)}0000644 ${'y'.repeat(400)}`],
  ])('runs gh when mimetype might not call it text: %s', async (_name, content) => {
    const outcome = await runGistView(fakePort(gistOf('', { 'a.txt': content })), {
      args: ['1234'],
      flags: {},
    });
    expect(outcome).toEqual({ kind: 'delegate', reason: 'unsupported_shape' });
  });
});
