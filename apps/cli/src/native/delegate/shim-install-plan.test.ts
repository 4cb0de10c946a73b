import { describe, expect, it } from 'vitest';
import { planShimInstall, planShimRemoval, resolveShimPaths } from './shim-install-plan.js';
import type { ShimFacts, ShimRecord } from './shim-install-plan.js';
import { locateShimBlock, quoteForZsh, renderShimBlock } from './shim-startup-block.js';
import { toRelayArgv } from './shim-argv.js';

const paths = resolveShimPaths({}, '/home/u');
const ZSHENV = '/home/u/.zshenv';
const ZLOGIN = '/home/u/.zlogin';
const BLOCK = renderShimBlock({ shimDir: paths.shimDir, nativeCli: '/usr/bin/gh' });

function facts(overrides: Partial<ShimFacts> = {}): ShimFacts {
  return {
    paths,
    relayPath: '/opt/relay/dist/main.js',
    nativeCli: '/usr/bin/gh',
    shim: { kind: 'absent' },
    shimDirExists: false,
    startupContents: new Map(),
    record: undefined,
    ...overrides,
  };
}

describe('resolveShimPaths', () => {
  it.each<[Record<string, string>, string, string]>([
    [{}, '/home/u/.local/share/relay/bin/gh', '/home/u/.zshenv'],
    [{ XDG_DATA_HOME: '/data', ZDOTDIR: '/z' }, '/data/relay/bin/gh', '/z/.zshenv'],
    [
      { XDG_DATA_HOME: 'relative', ZDOTDIR: ' ' },
      '/home/u/.local/share/relay/bin/gh',
      '/home/u/.zshenv',
    ],
  ])('%j → %s, %s', (env, shim, zshenv) => {
    const resolved = resolveShimPaths(env, '/home/u');
    expect(resolved.shimPath).toBe(shim);
    expect(resolved.startupFiles[0]).toBe(zshenv);
    expect(resolved.startupFiles[1]).toBe(zshenv.replace('.zshenv', '.zlogin'));
  });
});

describe('the managed block', () => {
  it('quotes for zsh and carries versioned markers', () => {
    expect(quoteForZsh("/a b/it's")).toBe(`'/a b/it'\\''s'`);
    expect(BLOCK.split('\n')[0]).toBe('# >>> relay install-shim v1 >>>');
    expect(BLOCK).toContain(`export RELAY_NATIVE_CLI='/usr/bin/gh'\n`);
    expect(BLOCK).toContain(`path=('${paths.shimDir}' \${path:#'${paths.shimDir}'})\n`);
    expect(BLOCK.endsWith('# <<< relay install-shim v1 <<<\n')).toBe(true);
  });

  it.each([
    ['a begin marker alone', '# >>> relay install-shim v1 >>>\nx\n'],
    ['an end marker alone', 'x\n# <<< relay install-shim v1 <<<\n'],
    ['two blocks', BLOCK + BLOCK],
    ['markers out of order', '# <<< relay install-shim v1 <<<\n# >>> relay install-shim v1 >>>\n'],
  ])('locateShimBlock refuses %s', (_name, content) => {
    expect(locateShimBlock(content)).toEqual({
      ok: false,
      error: { code: 'startup_block_damaged' },
    });
  });

  it('locates a block ending the file without a newline', () => {
    const content = `a\n${BLOCK.slice(0, -1)}`;
    expect(locateShimBlock(content)).toEqual({
      ok: true,
      value: { start: 2, end: content.length, version: 1 },
    });
  });
});

describe('planShimInstall', () => {
  it('a fresh install: directory, link, both blocks (new files), the record', () => {
    const plan = planShimInstall(facts());
    expect(plan.ok && plan.value.actions).toEqual([
      { kind: 'create_directory', path: paths.shimDir },
      { kind: 'link', path: paths.shimPath, target: '/opt/relay/dist/main.js' },
      {
        kind: 'write_startup_file',
        path: ZSHENV,
        content: BLOCK,
        change: 'append_block',
        created: true,
      },
      {
        kind: 'write_startup_file',
        path: ZLOGIN,
        content: BLOCK,
        change: 'append_block',
        created: true,
      },
      {
        kind: 'write_record',
        path: paths.recordPath,
        record: {
          schema_version: 1,
          shim: paths.shimPath,
          startup_files: [
            { path: ZSHENV, created: true, separator: '' },
            { path: ZLOGIN, created: true, separator: '' },
          ],
        },
      },
    ]);
  });

  it.each([
    ['ends in a newline', 'export A=1\n', ''],
    ['ends without a newline', 'export A=1', '\n'],
    ['is CRLF', 'export A=1\r\n', ''],
    ['is CRLF without a final newline', 'export A=1\r\nB=2', '\n'],
    ['is empty', '', ''],
  ])('appends after a file that %s (separator %j)', (_name, content, separator) => {
    const plan = planShimInstall(facts({ startupContents: new Map([[ZSHENV, content]]) }));
    expect(plan.ok && plan.value.actions[2]).toEqual({
      kind: 'write_startup_file',
      path: ZSHENV,
      content: content + separator + BLOCK,
      change: 'append_block',
      created: false,
    });
  });

  it('plans nothing when everything is in place', () => {
    const record: ShimRecord = {
      schema_version: 1,
      shim: paths.shimPath,
      startup_files: [
        { path: ZSHENV, created: false, separator: '\n' },
        { path: ZLOGIN, created: true, separator: '' },
      ],
    };
    const plan = planShimInstall(
      facts({
        shim: { kind: 'symlink', target: '/opt/relay/dist/main.js' },
        shimDirExists: true,
        startupContents: new Map([
          [ZSHENV, `x\n${BLOCK}`],
          [ZLOGIN, BLOCK],
        ]),
        record,
      }),
    );
    expect(plan).toEqual({ ok: true, value: { actions: [], block: BLOCK } });
  });

  it('updates a stale block in place and relinks a moved relay', () => {
    const stale = renderShimBlock({ shimDir: paths.shimDir, nativeCli: '/old/gh' }).replaceAll(
      'v1',
      'v0',
    );
    const plan = planShimInstall(
      facts({
        shim: { kind: 'symlink', target: '/old/relay/main.js' },
        shimDirExists: true,
        startupContents: new Map([
          [ZSHENV, `before\n${stale}after\n`],
          [ZLOGIN, BLOCK],
        ]),
      }),
    );
    expect(plan.ok && plan.value.actions.slice(0, 2)).toEqual([
      {
        kind: 'link',
        path: paths.shimPath,
        target: '/opt/relay/dist/main.js',
        replaces: '/old/relay/main.js',
      },
      {
        kind: 'write_startup_file',
        path: ZSHENV,
        content: `before\n${BLOCK}after\n`,
        change: 'update_block',
        created: false,
      },
    ]);
  });

  it('refuses a file at the shim path and a damaged block', () => {
    expect(planShimInstall(facts({ shim: { kind: 'other' } }))).toEqual({
      ok: false,
      error: { code: 'shim_path_occupied', path: paths.shimPath },
    });
    const damaged = new Map([[ZLOGIN, '# >>> relay install-shim v1 >>>\n']]);
    expect(planShimInstall(facts({ startupContents: damaged }))).toEqual({
      ok: false,
      error: { code: 'startup_block_damaged', path: ZLOGIN },
    });
  });
});

describe('planShimRemoval', () => {
  it('takes out exactly what was inserted, deletes created files, then link and record', () => {
    const record: ShimRecord = {
      schema_version: 1,
      shim: paths.shimPath,
      startup_files: [
        { path: ZSHENV, created: false, separator: '\n' },
        { path: ZLOGIN, created: true, separator: '' },
      ],
    };
    const plan = planShimRemoval(
      facts({
        shim: { kind: 'symlink', target: '/x' },
        shimDirExists: true,
        startupContents: new Map([
          [ZSHENV, `a\r\nb\n${BLOCK}`],
          [ZLOGIN, BLOCK],
        ]),
        record,
      }),
    );
    expect(plan.ok && plan.value.actions).toEqual([
      {
        kind: 'write_startup_file',
        path: ZSHENV,
        content: 'a\r\nb',
        change: 'remove_block',
        created: false,
      },
      { kind: 'delete_startup_file', path: ZLOGIN },
      { kind: 'unlink', path: paths.shimPath },
      { kind: 'delete_record', path: paths.recordPath },
      { kind: 'remove_directory_if_empty', path: paths.shimDir },
      { kind: 'remove_directory_if_empty', path: paths.dataDir },
    ]);
  });

  it('without a record removes the block alone; nothing installed plans nothing', () => {
    const plan = planShimRemoval(facts({ startupContents: new Map([[ZSHENV, `a\n${BLOCK}b\n`]]) }));
    expect(plan.ok && plan.value.actions).toEqual([
      {
        kind: 'write_startup_file',
        path: ZSHENV,
        content: 'a\nb\n',
        change: 'remove_block',
        created: false,
      },
    ]);
    expect(planShimRemoval(facts())).toEqual({ ok: true, value: { actions: [], block: '' } });
  });
});

describe('toRelayArgv (argv0)', () => {
  it.each<[string | undefined, string[], string[]]>([
    ['/home/u/.local/share/relay/bin/gh', ['pr', 'view'], ['native', 'pr', 'view']],
    ['/usr/local/bin/gh', ['--version'], ['native', '--version']],
    ['/usr/local/bin/relay', ['whoami'], ['whoami']],
    ['/opt/relay/dist/main.js', ['--version'], ['--version']],
    ['/opt/ghx', [], []],
    [undefined, ['x'], ['x']],
  ])('%s %j → %j', (script, args, expected) => {
    expect(toRelayArgv(script, args)).toEqual(expected);
  });
});
