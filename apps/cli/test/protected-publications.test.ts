import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCli, putStringRewrites, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack } from './relay-stack.js';

/**
 * Protected publications (SPEC.md client rules 16 and 13) through the BUILT binary against
 * relay-server and forge-sim: a recording fake gh shows the argv gh runs, what it reads from each
 * snapshot and the snapshot's modes while it runs, and its environment; afterwards the test
 * checks that no snapshot directory is left in TMPDIR.
 */
let cli: BuiltCli;
let stack: RelayStack;
let root: string;
const SHA = '0123456789abcdef0123456789abcdef01234567';

/**
 * The fake gh: argv one per line, GH_HOST/GH_REPO, for every snapshot argument
 * (`--body-file=…`, `--notes-file=…`, `key=@…`) its path, file mode, directory mode and text;
 * its standard input (FAKE_GH_STDIN set); `alias list` prints FAKE_GH_ALIASES; optional sleep (FAKE_GH_SLEEP), stdout (FAKE_GH_STDOUT,
 * printf %b) and exit (FAKE_GH_EXIT).
 */
function writeFakeGh(dir: string): string {
  const path = join(dir, 'fake-gh');
  const out = join(dir, 'gh');
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      'if [ "$1 $2" = "alias list" ] && [ -n "$FAKE_GH_ALIASES" ]; then',
      '  printf "%s" "$FAKE_GH_ALIASES"; exit 0',
      'fi',
      `: > "${out}-argv"`,
      `: > "${out}-snapshots"`,
      `for a in "$@"; do printf '%s\\n' "$a" >> "${out}-argv"; done`,
      `printf 'GH_HOST=%s\\nGH_REPO=%s\\n' "\${GH_HOST-unset}" "\${GH_REPO-unset}" > "${out}-env"`,
      'for a in "$@"; do',
      '  case "$a" in',
      '    --body-file=/*|--notes-file=/*) f="${a#*=}" ;;',
      '    *=@/*) f="${a#*=@}" ;;',
      '    *) continue ;;',
      '  esac',
      `  printf '%s %s %s\\n' "$f" "$(stat -c %a "$f")" "$(stat -c %a "$(dirname "$f")")" >> "${out}-snapshots"`,
      `  cat "$f" > "${out}-text-$(basename "$f")"`,
      'done',
      `if [ -n "$FAKE_GH_STDIN" ]; then cat > "${out}-stdin"; fi`,
      `if [ -n "$FAKE_GH_SLEEP" ]; then : > "${out}-started"; sleep "$FAKE_GH_SLEEP"; fi`,
      'if [ -n "$FAKE_GH_STDOUT" ]; then printf "%b" "$FAKE_GH_STDOUT"; fi',
      'exit "${FAKE_GH_EXIT:-0}"',
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return path;
}

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `relay native …` with stdin `input`; `onSpawn` may signal it. Resolves on exit. */
function relay(
  argv: readonly string[],
  extra: Record<string, string> = {},
  input = '',
  onSpawn?: (pid: number) => void,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli.bin, 'native', ...argv], {
      cwd: work,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: stack.env.RELAY_CONFIG_DIR ?? '',
        ...env,
        ...extra,
      },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    // relay stops reading stdin past the content budget: a larger input may meet a closed pipe.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
    child.once('error', reject);
    if (child.pid !== undefined) onSpawn?.(child.pid);
    child.once('exit', (code, signal) => {
      // The exit, not the close: a killed relay leaves a sleeping gh holding its pipes.
      setTimeout(() => {
        resolve({
          code,
          signal,
          stdout: Buffer.concat(out).toString('utf8'),
          stderr: Buffer.concat(err).toString('utf8'),
        });
      }, 50);
    });
  });
}

let env: Record<string, string>;
let work: string;
let tmp: string;

function ghFile(name: string): string | undefined {
  const file = join(root, `gh-${name}`);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

function ghArgv(): string[] | undefined {
  return ghFile('argv')?.split('\n').slice(0, -1);
}

/** What gh saw of each snapshot while it ran: path, modes, text. */
function snapshots(): { path: string; fileMode: string; dirMode: string; text: string }[] {
  const lines = ghFile('snapshots')?.split('\n').slice(0, -1) ?? [];
  return lines.map((line) => {
    const [path = '', fileMode = '', dirMode = ''] = line.split(' ');
    const name = path.slice(path.lastIndexOf('/') + 1);
    return { path, fileMode, dirMode, text: ghFile(`text-${name}`) ?? '' };
  });
}

/** The argv gh ran, snapshot paths shown as `<snapshot>`. */
function shownArgv(): string[] | undefined {
  return ghArgv()?.map((arg) =>
    arg.replace(/\/[^ ]*relay-publication-[^/]+\/[a-z0-9-]+$/, '<snapshot>'),
  );
}

function leftoverSnapshots(): string[] {
  return readdirSync(tmp).filter((name) => name.startsWith('relay-publication-'));
}

beforeAll(async () => {
  cli = await buildCli('relay-protected-publications-cli');
  stack = await startRelayStack({
    bin: cli.bin,
    env: (dir) => ({ RELAY_NATIVE_CLI: writeFakeGh(dir) }),
  });
  root = stack.dir;
  await putStringRewrites(stack, [
    { pattern: 'project-falcon', replacement: 'project-x' },
    { pattern: 'falc[o0]n-[0-9]+', replacement: 'bird' },
  ]);
}, 120_000);
afterAll(async () => {
  await stack.close();
  cli.remove();
});

beforeEach(() => {
  for (const name of readdirSync(root)) {
    if (name.startsWith('gh-')) rmSync(join(root, name));
  }
  work = join(root, 'work');
  tmp = join(root, 'tmp');
  mkdirSync(work, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(root, 'gh-argv'), 'not run\n');
  env = { ...stack.env, RELAY_QUIET_FALLBACK: '1', TMPDIR: tmp };
});

describe('modeled publications are rewritten into private snapshots', () => {
  it('issue create: the title inline, the body through a 0600 snapshot in a 0700 directory, removed afterwards', async () => {
    const result = await relay([
      'issue',
      'create',
      '-R',
      'acme/widgets',
      '--title',
      'about project-falcon',
      '--body',
      'see falc0n-42 and project-falcon',
      '-l',
      'bug',
    ]);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(shownArgv()).toEqual([
      'issue',
      'create',
      '-R',
      'acme/widgets',
      '--title=about project-x',
      '--body-file=<snapshot>',
      '-l',
      'bug',
    ]);
    expect(snapshots()).toMatchObject([
      { fileMode: '600', dirMode: '700', text: 'see bird and project-x' },
    ]);
    expect(existsSync(snapshots()[0]?.path ?? '')).toBe(false);
    expect(leftoverSnapshots()).toEqual([]);
  });

  it('issue comment with --body-file - reads standard input into the snapshot', async () => {
    const result = await relay(
      ['issue', 'comment', '3', '-R', 'acme/widgets', '--body-file', '-'],
      {},
      'piped project-falcon\n',
    );
    expect(result.code).toBe(0);
    expect(shownArgv()).toEqual([
      'issue',
      'comment',
      '-R',
      'acme/widgets',
      '--body-file=<snapshot>',
      '--',
      '3',
    ]);
    expect(snapshots().map((s) => s.text)).toEqual(['piped project-x\n']);
  });

  it('pr create with a body file, pr review and pr edit', async () => {
    writeFileSync(join(work, 'body.md'), 'fixes falcon-7\n');
    expect((await relay(['pr', 'create', '-t', 'T', '-F', 'body.md', '-B', 'main'])).code).toBe(0);
    expect(shownArgv()).toEqual([
      'pr',
      'create',
      '--title=T',
      '--body-file=<snapshot>',
      '-B',
      'main',
    ]);
    expect(snapshots().map((s) => s.text)).toEqual(['fixes bird\n']);

    expect(
      (await relay(['pr', 'review', '7', '--request-changes', '-b', 'no project-falcon'])).code,
    ).toBe(0);
    expect(shownArgv()).toEqual([
      'pr',
      'review',
      '--request-changes',
      '--body-file=<snapshot>',
      '--',
      '7',
    ]);
    expect(snapshots().map((s) => s.text)).toEqual(['no project-x']);

    expect((await relay(['pr', 'edit', '7', '--title', 'project-falcon v2'])).code).toBe(0);
    expect(shownArgv()).toEqual(['pr', 'edit', '--title=project-x v2', '--', '7']);
  });

  it('release create: a draft of an existing tag, notes in a snapshot, assets checked, a label rewritten', async () => {
    writeFileSync(join(work, 'app.tgz'), 'bytes');
    const result = await relay([
      'release',
      'create',
      'v1.0.0',
      'app.tgz#the project-falcon build',
      '--draft',
      '--verify-tag',
      '-n',
      'project-falcon notes',
      '-t',
      'v1',
    ]);
    expect(result.code).toBe(0);
    expect(shownArgv()).toEqual([
      'release',
      'create',
      '--draft',
      '--verify-tag',
      '--notes-file=<snapshot>',
      '--title=v1',
      '--',
      'v1.0.0',
      'app.tgz#the project-x build',
    ]);
    expect(snapshots().map((s) => s.text)).toEqual(['project-x notes']);
  });

  it('an allowlisted gh api write passes its fields through snapshots', async () => {
    const result = await relay([
      'api',
      '-X',
      'POST',
      'repos/acme/widgets/issues/3/comments',
      '-f',
      'body=hello project-falcon',
    ]);
    expect(result.code).toBe(0);
    expect(shownArgv()).toEqual([
      'api',
      '--method',
      'POST',
      'repos/acme/widgets/issues/3/comments',
      '-F',
      'body=@<snapshot>',
    ]);
    expect(snapshots().map((s) => s.text)).toEqual(['hello project-x']);
  });

  it('passes clean content unchanged', async () => {
    expect((await relay(['issue', 'comment', '3', '--body', 'all clear'])).code).toBe(0);
    expect(snapshots().map((s) => s.text)).toEqual(['all clear']);
  });

  it("returns gh's exit code and still removes the snapshots when gh fails", async () => {
    const result = await relay(['issue', 'comment', '3', '--body', 'x'], { FAKE_GH_EXIT: '3' });
    expect(result.code).toBe(3);
    expect(snapshots()).toHaveLength(1);
    expect(existsSync(snapshots()[0]?.path ?? '')).toBe(false);
    expect(leftoverSnapshots()).toEqual([]);
  });

  it.each<NodeJS.Signals>(['SIGTERM', 'SIGINT'])(
    'removes the snapshots when relay gets %s while gh runs, and ends by that signal',
    async (signal) => {
      const result = await relay(
        ['issue', 'comment', '3', '--body', 'x'],
        { FAKE_GH_SLEEP: '2' },
        '',
        (pid) => {
          const poll = setInterval(() => {
            if (existsSync(join(root, 'gh-started'))) {
              clearInterval(poll);
              expect(leftoverSnapshots()).toHaveLength(1);
              process.kill(pid, signal);
            }
          }, 20);
        },
      );
      expect(result.signal).toBe(signal);
      expect(leftoverSnapshots()).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 2200));
    },
    20_000,
  );
});

describe('every modeled shape rewrites, refuses rule JSON, and passes clean content', () => {
  const RULE_JSON = '{"pattern":"project-falcon","replacement":"project-x"}';
  it.each<[string, (text: string) => string[], (file: string) => string[]]>([
    [
      'issue edit',
      (t) => ['issue', 'edit', '3', '--body', t],
      (f) => ['issue', 'edit', `--body-file=${f}`, '--', '3'],
    ],
    [
      'pr comment',
      (t) => ['pr', 'comment', '9', '-b', t],
      (f) => ['pr', 'comment', `--body-file=${f}`, '--', '9'],
    ],
    [
      'release edit',
      (t) => ['release', 'edit', 'v1', '--notes', t],
      (f) => ['release', 'edit', `--notes-file=${f}`, '--', 'v1'],
    ],
    [
      'gh api issue edit',
      (t) => ['api', '-X', 'PATCH', 'repos/acme/widgets/issues/3', '-f', `body=${t}`],
      (f) => ['api', '--method', 'PATCH', 'repos/acme/widgets/issues/3', '-F', `body=@${f}`],
    ],
    [
      'gh api review',
      (t) => [
        'api',
        'repos/acme/widgets/pulls/9/reviews',
        '-f',
        'event=COMMENT',
        '-f',
        `body=${t}`,
      ],
      (f) => [
        'api',
        '--method',
        'POST',
        'repos/acme/widgets/pulls/9/reviews',
        '-f',
        'event=COMMENT',
        '-F',
        `body=@${f}`,
      ],
    ],
  ])('%s', async (_name, argvOf, expectedOf) => {
    expect((await relay(argvOf('ship project-falcon'))).code).toBe(0);
    expect(shownArgv()).toEqual(expectedOf('<snapshot>'));
    expect(snapshots().map((s) => s.text)).toEqual(['ship project-x']);

    expect((await relay(argvOf('clean text'))).code).toBe(0);
    expect(snapshots().map((s) => s.text)).toEqual(['clean text']);

    rmSync(join(root, 'gh-argv'));
    const refused = await relay(argvOf(`rules: ${RULE_JSON}`));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /contains an active string-rewrite rule \(string_rewrite_blocked\)\n$/,
    );
    expect(existsSync(join(root, 'gh-argv'))).toBe(false);
    expect(leftoverSnapshots()).toEqual([]);
  });
});

describe('refusals: gh never runs', () => {
  it.each<[string, string[], number, string]>([
    [
      'a label matching the policy',
      ['issue', 'create', '-t', 'T', '-b', 'B', '-l', 'project-falcon'],
      1,
      'relay: refused: a value of the command matches the string-rewrite policy (string_rewrite_blocked)\n',
    ],
    [
      'active rule JSON in the body',
      ['issue', 'comment', '3', '-b', 'policy: {"pattern": "falc[o0]n-[0-9]+"}'],
      1,
      'relay: refused: the body contains an active string-rewrite rule (string_rewrite_blocked)\n',
    ],
    [
      'a release create without --draft',
      ['release', 'create', 'v1', '--verify-tag', '-n', 'N'],
      2,
      'relay: refused: release create needs --draft and --verify-tag (a protected release is created as a draft of an existing tag) (usage_error)\n',
    ],
    [
      'an exact-head merge with a short sha',
      ['pr', 'merge', '1', '-R', 'acme/widgets', '--squash', '--match-head-commit', 'abc123'],
      2,
      'relay: refused: --match-head-commit needs a full lowercase 40-hex commit sha for an exact-head squash merge (usage_error)\n',
    ],
    [
      "a release create that publishes the local tag's annotation",
      ['release', 'create', 'v1', '--draft', '--verify-tag', '--notes-from-tag'],
      2,
      'relay: refused: release create runs only in its modeled shape (a tag, assets, known flags, no prompts, one title and one notes source) (usage_error)\n',
    ],
    [
      'an unmodeled command whose argument matches',
      ['issue', 'create', '--editor', '-t', 'project-falcon'],
      1,
      'relay: refused: argument 5 matches the string-rewrite policy (string_rewrite_blocked)\n',
    ],
  ])('%s', async (_name, argv, code, stderr) => {
    const result = await relay(argv);
    expect(result).toMatchObject({ code, stdout: '', stderr });
    expect(ghArgv()).toEqual(['not run']);
  });

  it('a release asset with an invalid name, or past the 1 GiB bound (a sparse file)', async () => {
    writeFileSync(join(work, 'bad name.tgz'), 'x');
    let result = await relay(['release', 'upload', 'v1', 'bad name.tgz']);
    expect(result.stderr).toBe(
      'relay: refused: the name of release asset 1 is not 1 to 255 ASCII letters, digits, internal periods, underscores or hyphens (usage_error)\n',
    );
    writeFileSync(join(work, 'big.bin'), '');
    truncateSync(join(work, 'big.bin'), 1024 * 1024 * 1024 + 1);
    result = await relay(['release', 'upload', 'v1', 'big.bin']);
    expect(result).toMatchObject({
      code: 2,
      stderr: 'relay: refused: release asset 1 is larger than 1 GiB (usage_error)\n',
    });
    truncateSync(join(work, 'big.bin'), 1024 * 1024 * 1024);
    expect((await relay(['release', 'upload', 'v1', 'big.bin'])).code).toBe(0);
    expect(shownArgv()).toEqual(['release', 'upload', '--', 'v1', 'big.bin']);
  });

  it('a body file past the 1 MiB budget, at it passes', async () => {
    writeFileSync(join(work, 'big.md'), 'a'.repeat(1024 * 1024 + 1));
    const result = await relay(['issue', 'comment', '3', '-F', 'big.md']);
    expect(result).toMatchObject({
      code: 1,
      stderr:
        'relay: refused: the body exceeds the 1 MiB content budget (string_rewrite_blocked)\n',
    });
    expect(ghArgv()).toEqual(['not run']);
    writeFileSync(join(work, 'big.md'), 'a'.repeat(1024 * 1024));
    expect((await relay(['issue', 'comment', '3', '-F', 'big.md'])).code).toBe(0);
  });

  it('a body on stdin past the 1 MiB budget is refused (read no further), at it passes', async () => {
    const result = await relay(
      ['issue', 'comment', '3', '-F', '-'],
      {},
      'a'.repeat(8 * 1024 * 1024),
    );
    expect(result).toMatchObject({
      code: 1,
      stderr:
        'relay: refused: the body exceeds the 1 MiB content budget (string_rewrite_blocked)\n',
    });
    expect(ghArgv()).toEqual(['not run']);
    expect(
      (await relay(['issue', 'comment', '3', '-F', '-'], {}, 'a'.repeat(1024 * 1024))).code,
    ).toBe(0);
  });
});

describe('unmodeled commands: best-effort filtering', () => {
  it('checks a content file of an unmodeled command and refuses a match', async () => {
    writeFileSync(join(work, 'b.md'), 'about project-falcon');
    const result = await relay(['issue', 'create', '--editor', '--body-file', 'b.md']);
    expect(result).toMatchObject({
      code: 1,
      stderr:
        'relay: refused: a content file matches the string-rewrite policy (string_rewrite_blocked)\n',
    });
    expect(ghArgv()).toEqual(['not run']);
  });

  it('checks the files of gist create: a match refuses, clean files run gh', async () => {
    writeFileSync(join(work, 'leak.txt'), 'see project-falcon');
    writeFileSync(join(work, 'fine.txt'), 'fine');
    const refused = await relay(['gist', 'create', '-d', 'notes', 'fine.txt', 'leak.txt']);
    expect(refused).toMatchObject({
      code: 1,
      stderr:
        'relay: refused: a content file matches the string-rewrite policy (string_rewrite_blocked)\n',
    });
    expect(ghArgv()).toEqual(['not run']);
    expect((await relay(['gist', 'create', '-d', 'notes', 'fine.txt'])).code).toBe(0);
    expect(ghArgv()).toEqual(['gist', 'create', '-d', 'notes', 'fine.txt']);
  });

  it('checks the JSON strings of gh api --input decoded, as the forge reads them', async () => {
    writeFileSync(join(work, 'in.json'), '{"body":"about project-f\\u0061lcon"}');
    const argv = ['api', 'repos/acme/widgets/issues/3/comments', '--input', 'in.json'];
    expect(await relay(argv)).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        'relay: refused: a content file matches the string-rewrite policy (string_rewrite_blocked)\n',
    });
    expect(ghArgv()).toEqual(['not run']);
    const stdin = await relay(['api', 'graphql', '--input', '-'], {}, '{"q":"\\u0066alcon-7"}');
    expect(stdin.code).toBe(1);
    expect(ghArgv()).toEqual(['not run']);
    writeFileSync(join(work, 'in.json'), '{"body":"caf\\u00e9"}');
    expect((await relay(argv)).code).toBe(0);
    expect(shownArgv()).toEqual([...argv.slice(0, -1), '<snapshot>']);
  });

  it('checks the escaped strings of a GraphQL query decoded, as the forge reads them', async () => {
    const mutation = (body: string) =>
      `# "\n mutation { addComment(input: {subjectId: "I_1", body: "${body}"}) { clientMutationId } }`;
    const refused =
      'relay: refused: argument 4 matches the string-rewrite policy (string_rewrite_blocked)\n';
    for (const body of ['project-f\\u0061lcon', 'falc\\u{6F}n-7']) {
      const argv = ['api', 'graphql', '-f', `query=${mutation(body)}`];
      expect(await relay(argv)).toMatchObject({ code: 1, stdout: '', stderr: refused });
      expect(ghArgv()).toEqual(['not run']);
    }
    writeFileSync(join(work, 'q.graphql'), mutation('project-f\\u0061lcon'));
    expect((await relay(['api', 'graphql', '-F', 'query=@q.graphql'])).code).toBe(1);
    expect(ghArgv()).toEqual(['not run']);
    writeFileSync(join(work, 'in.json'), JSON.stringify({ query: mutation('falc\\u006fn-7') }));
    expect((await relay(['api', 'graphql', '--input', 'in.json'])).code).toBe(1);
    expect(ghArgv()).toEqual(['not run']);
    const clean = ['api', 'graphql', '-f', `query=${mutation('caf\\u00e9')}`];
    expect((await relay(clean)).code).toBe(0);
    // The fake gh records one line per argument: the query's line break splits it.
    expect(ghArgv()?.slice(0, 3)).toEqual(['api', 'graphql', '-f']);
  });

  it('checks base64 content decoded, as the contents API commits it', async () => {
    const leak = Buffer.from('about project-falcon').toString('base64');
    const put = ['api', '-X', 'PUT', 'repos/acme/widgets/contents/a.md', '-f', 'message=m'];
    const refused = { code: 1, stdout: '' };
    expect(await relay([...put, '-f', `content=${leak}`])).toMatchObject({
      ...refused,
      stderr:
        'relay: refused: argument 8 matches the string-rewrite policy (string_rewrite_blocked)\n',
    });
    expect(ghArgv()).toEqual(['not run']);
    writeFileSync(join(work, 'a.b64'), `${leak}\n`);
    expect(await relay([...put, '-F', 'content=@a.b64'])).toMatchObject(refused);
    expect(ghArgv()).toEqual(['not run']);
    writeFileSync(join(work, 'in.json'), JSON.stringify({ message: 'm', content: leak }));
    expect(
      await relay(['api', '-X', 'PUT', 'repos/acme/widgets/contents/a.md', '--input', 'in.json']),
    ).toMatchObject(refused);
    expect(ghArgv()).toEqual(['not run']);
    const clean = [...put, '-f', `content=${Buffer.from('fine text').toString('base64')}`];
    expect((await relay(clean)).code).toBe(0);
    expect(ghArgv()).toEqual(clean);
  });

  it('checks a percent-encoded gh api endpoint decoded, as the forge reads it', async () => {
    for (const endpoint of [
      'repos/acme/widgets/issues?labels=project%2Dfalcon',
      'repos/acme/widgets/issues?q=x+falc%6Fn-1',
      'repos/acme/project%2dfalcon',
    ]) {
      const result = await relay(['api', endpoint, '-H', 'X-Trace: 1']);
      expect(result).toMatchObject({
        code: 1,
        stdout: '',
        stderr:
          'relay: refused: argument 2 matches the string-rewrite policy (string_rewrite_blocked)\n',
      });
      expect(ghArgv()).toEqual(['not run']);
    }
    const clean = ['api', 'repos/acme/widgets/issues?labels=a%20b', '-H', 'X-Trace: 1'];
    expect((await relay(clean)).code).toBe(0);
    expect(ghArgv()).toEqual(clean);
  });

  it("checks gist create's standard input and hands gh the checked text as its standard input", async () => {
    const refused = {
      code: 1,
      stdout: '',
      stderr:
        'relay: refused: a content file matches the string-rewrite policy (string_rewrite_blocked)\n',
    };
    for (const argv of [
      ['gist', 'create'],
      ['gist', 'create', '-d', 'notes', '-'],
    ]) {
      expect(await relay(argv, { FAKE_GH_STDIN: '1' }, 'see project-falcon\n')).toMatchObject(
        refused,
      );
      expect(ghArgv()).toEqual(['not run']);
      expect(leftoverSnapshots()).toEqual([]);
    }
    const clean = await relay(
      ['gist', 'create', '-f', 'a.txt', '-'],
      { FAKE_GH_STDIN: '1' },
      'ok\n',
    );
    expect(clean.code).toBe(0);
    expect(ghArgv()).toEqual(['gist', 'create', '-f', 'a.txt', '-']);
    expect(ghFile('stdin')).toBe('ok\n');
    expect(leftoverSnapshots()).toEqual([]);
  });

  it('checks the standard input of workflow run --json and variable set, and an env file', async () => {
    const refused = {
      code: 1,
      stdout: '',
      stderr:
        'relay: refused: a content file matches the string-rewrite policy (string_rewrite_blocked)\n',
    };
    writeFileSync(join(work, 'vars.env'), 'A=falcon-9\n');
    for (const [argv, input] of [
      [['workflow', 'run', 'ci.yml', '--json'], '{"note":"project-falcon"}'],
      [['variable', 'set', 'NOTE'], 'project-falcon\n'],
      [['variable', 'set', '--env-file', 'vars.env'], ''],
    ] as const) {
      expect(await relay(argv, { FAKE_GH_STDIN: '1' }, input)).toMatchObject(refused);
      expect(ghArgv()).toEqual(['not run']);
    }
    const clean = ['variable', 'set', 'NOTE', '-R', 'acme/widgets'];
    expect((await relay(clean, { FAKE_GH_STDIN: '1' }, 'fine\n')).code).toBe(0);
    expect(ghArgv()).toEqual(clean);
    expect(ghFile('stdin')).toBe('fine\n');
    expect(leftoverSnapshots()).toEqual([]);
  });

  it('checks the files of gist edit: the source, standard input, the file of --add', async () => {
    writeFileSync(join(work, 'leak.txt'), 'see project-falcon');
    writeFileSync(join(work, 'fine.txt'), 'fine');
    const refused =
      'relay: refused: a content file matches the string-rewrite policy (string_rewrite_blocked)\n';
    for (const [argv, input] of [
      [['gist', 'edit', 'abc', 'leak.txt'], ''],
      [['gist', 'edit', 'abc', '-a', 'leak.txt'], ''],
      [['gist', 'edit', 'abc', '-f', 'a.txt', '-'], 'falcon-12'],
    ] as const) {
      expect(await relay(argv, {}, input)).toMatchObject({ code: 1, stderr: refused });
      expect(ghArgv()).toEqual(['not run']);
    }
    expect((await relay(['gist', 'edit', 'abc', '--add', 'new.txt', 'fine.txt'])).code).toBe(0);
    expect(shownArgv()).toEqual(['gist', 'edit', 'abc', '--add', 'new.txt', '<snapshot>']);
  });

  it('hands gh a private snapshot of each content file it checked, not the file', async () => {
    writeFileSync(join(work, 'notes.md'), 'checked text');
    const argv = [
      'api',
      'repos/acme/widgets/releases',
      '-F',
      'body=@notes.md',
      '-f',
      'tag_name=v1',
    ];
    expect((await relay(argv)).code).toBe(0);
    expect(shownArgv()).toEqual([
      'api',
      'repos/acme/widgets/releases',
      '-F',
      'body=@<snapshot>',
      '-f',
      'tag_name=v1',
    ]);
    expect(snapshots()).toMatchObject([{ fileMode: '600', dirMode: '700', text: 'checked text' }]);
    expect(leftoverSnapshots()).toEqual([]);
    const merge = ['pr', 'merge', '3', '--body-file', 'notes.md', '--merge'];
    expect((await relay(merge)).code).toBe(0);
    expect(shownArgv()).toEqual(['pr', 'merge', '3', '--body-file', '<snapshot>', '--merge']);
  });

  it('reads the command as cobra does: flags before the command words change nothing', async () => {
    writeFileSync(join(work, 'leak.txt'), 'see project-falcon');
    writeFileSync(join(work, 'in.json'), '{"body":"see project-falcon"}');
    const refused =
      'relay: refused: a content file matches the string-rewrite policy (string_rewrite_blocked)\n';
    for (const argv of [
      ['-d', 'notes', 'gist', 'create', 'leak.txt'],
      ['-X', 'POST', 'api', 'repos/acme/widgets/issues/3/comments', '--input', 'in.json'],
      ['-X', 'POST', 'api', 'repos/acme/widgets/releases', '--field', 'body=@leak.txt'],
    ]) {
      expect(await relay(argv)).toMatchObject({ code: 1, stdout: '', stderr: refused });
      expect(ghArgv()).toEqual(['not run']);
    }
    const modeled = ['-R', 'acme/widgets', 'issue', 'comment', '3', '--body', 'a project-falcon'];
    expect((await relay(modeled)).code).toBe(0);
    expect(shownArgv()).toEqual([
      'issue',
      'comment',
      '-R',
      'acme/widgets',
      '--body-file=<snapshot>',
      '--',
      '3',
    ]);
    expect(snapshots().map((s) => s.text)).toEqual(['a project-x']);
    writeFileSync(join(work, 'in.json'), '{"body":"fine"}');
    const clean = [
      '-X',
      'POST',
      'api',
      'repos/acme/widgets/issues/3/comments',
      '--input',
      'in.json',
    ];
    expect((await relay(clean)).code).toBe(0);
    expect(shownArgv()).toEqual([...clean.slice(0, -1), '<snapshot>']);
  });

  it('passes standard input of an unmodeled gh api through a checked snapshot', async () => {
    const result = await relay(['api', 'graphql', '-F', 'query=@-'], {}, '{ viewer { login } }');
    expect(result.code).toBe(0);
    expect(shownArgv()).toEqual(['api', 'graphql', '-F', 'query=@<snapshot>']);
    expect(snapshots().map((s) => s.text)).toEqual(['{ viewer { login } }']);
  });
});

describe('gh aliases: the expansion gh will run is checked', () => {
  const aliases = [
    'co: pr checkout',
    `ic: 'issue comment 3 --body "about project-f\\alcon"'`,
    'cc: issue comment 3 --body project-falc$1',
    'sh: \'!gh issue comment 3 --body "falcon-$1"\'',
    '',
  ].join('\n');
  const refused =
    'relay: refused: the gh alias expansion matches the string-rewrite policy (string_rewrite_blocked)\n';

  it.each<[string, string[]]>([
    ['a backslash gh unquotes', ['ic']],
    ['an argument gh substitutes into the expansion', ['cc', 'on']],
    ['a shell alias', ['sh', '7']],
    ['an alias after flags (cobra skips them)', ['-R', 'acme/widgets', 'ic']],
  ])('refuses %s; gh never runs', async (_name, argv) => {
    const result = await relay(argv, { FAKE_GH_ALIASES: aliases });
    expect(result).toMatchObject({ code: 1, stdout: '', stderr: refused });
    expect(ghArgv()).toEqual(['not run']);
  });

  it('runs an alias whose expansion passes, and an extension or typo unchanged', async () => {
    for (const argv of [
      ['co', '12'],
      ['cc', 'ery'],
      ['my-extension', 'x'],
    ]) {
      expect((await relay(argv, { FAKE_GH_ALIASES: aliases })).code).toBe(0);
      expect(ghArgv()).toEqual(argv);
    }
  });
});

describe('native children: the public host forced, GH_REPO removed', () => {
  it.each<[string, string[]]>([
    ['a modeled publication', ['issue', 'comment', '3', '-b', 'x']],
    ['an unmodeled command', ['repo', 'clone', 'acme/widgets']],
    ['an exempt invocation', ['auth', 'status']],
  ])('%s', async (_name, argv) => {
    expect((await relay(argv, { GH_HOST: 'ghe.example', GH_REPO: 'other/repo' })).code).toBe(0);
    expect(ghFile('env')).toBe('GH_HOST=github.com\nGH_REPO=unset\n');
  });
});

describe('the exact-head squash merge (rules 16 and 13)', () => {
  const merge = [
    'pr',
    'merge',
    '12',
    '-R',
    'acme/widgets',
    '--squash',
    '--match-head-commit',
    SHA,
    '--subject',
    'project-falcon',
    '--body',
    'done',
  ];
  const headers = [
    'HTTP/2.0 200 OK',
    'X-Github-Request-Id: E5B8:3C1F1',
    'X-Ratelimit-Limit: 5000',
    'X-Ratelimit-Remaining: 4990',
    'X-Ratelimit-Reset: 1700000000',
    'X-Ratelimit-Resource: core',
    'X-Ratelimit-Used: 10',
  ];

  it('runs the immediate merge endpoint with the sha, subject and body in snapshots', async () => {
    const result = await relay(merge);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(shownArgv()).toEqual([
      'api',
      '--silent',
      '--method',
      'PUT',
      'repos/acme/widgets/pulls/12/merge',
      '-f',
      'merge_method=squash',
      '-f',
      `sha=${SHA}`,
      '-F',
      'commit_title=@<snapshot>',
      '-F',
      'commit_message=@<snapshot>',
    ]);
    expect(snapshots().map((s) => s.text)).toEqual(['project-x', 'done']);
  });

  it('RELAY_DIAGNOSTICS=1 captures the header block and prints the record on stderr only', async () => {
    const block = `${headers[0] ?? ''}\\n${headers
      .slice(1)
      .map((line) => `${line}\\r\\n`)
      .join('')}\\r\\n`;
    const result = await relay(merge, { RELAY_DIAGNOSTICS: '1', FAKE_GH_STDOUT: block });
    expect(result).toMatchObject({
      code: 0,
      stdout: '',
      stderr:
        'relay: merge diagnostics: status=200 request_id=E5B8:3C1F1 resource=core limit=5000 remaining=4990 used=10 reset=1700000000 retry_after=-\n',
    });
    expect(ghArgv()?.slice(0, 3)).toEqual(['api', '--include', '--silent']);
  });

  it("an invalid block prints the fixed unavailable line; gh's exit code stays", async () => {
    const block = `HTTP/2.0 409 Conflict\\nX-Ratelimit-Used: 1\\r\\nX-Ratelimit-Used: 2\\r\\n\\r\\n`;
    const result = await relay(merge, {
      RELAY_DIAGNOSTICS: '1',
      FAKE_GH_STDOUT: block,
      FAKE_GH_EXIT: '1',
    });
    expect(result).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'relay: merge diagnostics: unavailable\n',
    });
  });

  it('RELAY_DIAGNOSTICS other than 1 prints nothing', async () => {
    const result = await relay(merge, { RELAY_DIAGNOSTICS: 'true' });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(ghArgv()?.[1]).toBe('--silent');
  });
});
