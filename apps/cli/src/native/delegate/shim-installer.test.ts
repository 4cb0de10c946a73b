import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFakeDependencies } from '../../../test/cli-harness.js';
import type { FakeOptions } from '../../../test/cli-harness.js';
import type { ProcessOutput } from '../../cli-dependencies.js';
import type { ShimFileSystem } from './shim-file-system.js';
import { formatInstallShimError, formatInstallShimReport } from './shim-install-report.js';
import { INSTALL_SHIM_ERRORS, runShimInstaller } from './shim-installer.js';
import type { InstallShimOptions } from './shim-installer.js';
import type { ShimLinkState } from './shim-install-plan.js';

const HOME = '/home/u';
const SHIM = '/home/u/.local/share/relay/bin/gh';
const RELAY = '/opt/relay/dist/main.js';
const NATIVE = '/usr/bin/gh';

/** An in-memory file system: files as bytes, symlinks as targets, directories as a set. */
function createMemoryFileSystem(files: Record<string, string> = {}) {
  const contents = new Map<string, Buffer>(
    Object.entries(files).map(([path, text]) => [path, Buffer.from(text, 'latin1')]),
  );
  const links = new Map<string, string>();
  const directories = new Set<string>(['/', '/home', HOME, '/usr/bin', '/opt/relay/dist']);
  const writes: string[] = [];
  const fs: ShimFileSystem = {
    readFile: (path) => Promise.resolve(contents.get(path)),
    inspectLink: (path): Promise<ShimLinkState> => {
      const target = links.get(path);
      if (target !== undefined) return Promise.resolve({ kind: 'symlink', target });
      return Promise.resolve(contents.has(path) ? { kind: 'other' } : { kind: 'absent' });
    },
    realPath: (path) => Promise.resolve(path === RELAY || contents.has(path) ? path : undefined),
    isExecutable: (path) => Promise.resolve([NATIVE, RELAY, '/bin/zsh'].includes(path)),
    isDirectory: (path) => Promise.resolve(directories.has(path)),
    makeDirectory: (path) => {
      for (let dir = path; !directories.has(dir); dir = dirname(dir)) directories.add(dir);
      writes.push(`mkdir ${path}`);
      return Promise.resolve();
    },
    writeFile: (path, content) => {
      contents.set(path, Buffer.from(content));
      writes.push(`write ${path}`);
      return Promise.resolve();
    },
    deleteFile: (path) => {
      contents.delete(path);
      links.delete(path);
      writes.push(`delete ${path}`);
      return Promise.resolve();
    },
    link: (path, target) => {
      links.set(path, target);
      writes.push(`link ${path}`);
      return Promise.resolve();
    },
    removeDirectoryIfEmpty: (path) => {
      const inside = [...contents.keys(), ...links.keys(), ...directories].some(
        (entry) => entry !== path && entry.startsWith(`${path}/`),
      );
      if (!inside) directories.delete(path);
      writes.push(`rmdir ${path}`);
      return Promise.resolve();
    },
  };
  return { fs, contents, links, directories, writes };
}

/** A zsh stand-in: prints what the verification script would, given the outcome wanted. */
function zshAnswering(gh: (args: readonly string[]) => string) {
  return (file: string, args: readonly string[]): Promise<ProcessOutput> =>
    Promise.resolve({
      code: 0,
      stdout: Buffer.from(
        `hello from .zprofile\nrelay-shim-gh=${gh(args)}\nrelay-shim-native=${NATIVE}\n`,
      ),
      stderr: new Uint8Array(),
    });
}

function setup(files: Record<string, string> = {}, options: FakeOptions = {}) {
  const memory = createMemoryFileSystem(files);
  const base = createFakeDependencies({
    env: { SHELL: '/bin/zsh', PATH: '/usr/bin' },
    executables: { gh: NATIVE },
    runProcess: zshAnswering(() => SHIM),
    ...options,
  });
  const deps = { ...base, homeDir: HOME, selfPath: RELAY };
  const run = (opts: Partial<InstallShimOptions> = {}) =>
    runShimInstaller({ deps, fs: memory.fs }, { dryRun: false, remove: false, ...opts });
  return { ...memory, deps: base, run };
}

function text(contents: Map<string, Buffer>, path: string): string | undefined {
  return contents.get(path)?.toString('latin1');
}

describe('runShimInstaller (in-memory file system, fake zsh)', () => {
  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['ending in a newline', 'export A=1\n'],
    ['without a final newline', 'export A=1'],
    ['CRLF', 'export A=1\r\nexport B=2\r\n'],
    ['CRLF without a final newline', 'export A=1\r\nexport B=2'],
    ['not UTF-8', 'export A=\xff\xfe\n# caf\xe9'],
  ])(
    'install then --remove gives back a .zshenv that is %s byte for byte',
    async (_name, original) => {
      const files: Record<string, string> = { '/home/u/.zlogin': 'zlogin\n' };
      if (original !== undefined) files['/home/u/.zshenv'] = original;
      const env = setup(files);
      const installed = await env.run();
      expect(installed.ok && installed.value.outcome).toBe('installed');
      expect(env.links.get(SHIM)).toBe(RELAY);
      const zshenv = text(env.contents, '/home/u/.zshenv') ?? '';
      expect(zshenv.startsWith(original ?? '')).toBe(true);
      expect(zshenv).toMatch(
        /# >>> relay install-shim v1 >>>\n[^]*# <<< relay install-shim v1 <<<\n$/,
      );
      const removed = await env.run({ remove: true });
      expect(removed.ok && removed.value.outcome).toBe('removed');
      expect(text(env.contents, '/home/u/.zshenv')).toBe(original);
      expect(text(env.contents, '/home/u/.zlogin')).toBe('zlogin\n');
      expect(env.links.size).toBe(0);
      expect([...env.contents.keys()].sort()).toEqual(Object.keys(files).sort());
      expect(env.directories.has('/home/u/.local/share/relay')).toBe(false);
    },
  );

  it('a second install changes nothing and says so; so does a second --remove', async () => {
    const env = setup({ '/home/u/.zshenv': 'x' });
    await env.run();
    const writes = env.writes.length;
    const again = await env.run();
    expect(again.ok && again.value.outcome).toBe('unchanged');
    expect(again.ok && formatInstallShimReport(again.value)).toMatch(
      /^relay install-shim: already installed; nothing changed\.\nverified: zsh -c: gh is /,
    );
    expect(env.writes.length).toBe(writes);
    await env.run({ remove: true });
    const removedWrites = env.writes.length;
    const removedAgain = await env.run({ remove: true });
    expect(removedAgain.ok && removedAgain.value.outcome).toBe('unchanged');
    expect(env.writes.length).toBe(removedWrites);
  });

  it('--dry-run prints the plan and the block and touches nothing (install and remove)', async () => {
    const env = setup({ '/home/u/.zshenv': 'x\n' });
    const dry = await env.run({ dryRun: true });
    expect(env.writes).toEqual([]);
    expect(env.deps.processRuns).toEqual([]);
    const printed = dry.ok ? formatInstallShimReport(dry.value) : '';
    expect(printed).toContain('nothing was changed');
    expect(printed).toContain(`  link ${SHIM} -> ${RELAY}\n`);
    expect(printed).toContain('  append the managed block to /home/u/.zshenv\n');
    expect(printed).toContain('  append the managed block to /home/u/.zlogin (new file)\n');
    expect(printed).toContain(`    export RELAY_NATIVE_CLI='${NATIVE}'\n`);
    await env.run();
    const writes = env.writes.length;
    const dryRemove = await env.run({ remove: true, dryRun: true });
    expect(env.writes.length).toBe(writes);
    expect(dryRemove.ok && formatInstallShimReport(dryRemove.value)).toContain(
      '  remove the managed block from /home/u/.zshenv\n',
    );
  });

  it('verifies in zsh -c and zsh -l -c with the current environment', async () => {
    const env = setup();
    await env.run();
    expect(env.deps.processRuns.map((run) => [run.file, ...run.args.slice(0, -1)])).toEqual([
      ['/bin/zsh', '-c'],
      ['/bin/zsh', '-l', '-c'],
    ]);
  });

  it('a login shell that resolves gh elsewhere fails verification (exit 1), changes kept', async () => {
    const env = setup(
      {},
      { runProcess: zshAnswering((args) => (args[0] === '-l' ? '/opt/homebrew/bin/gh' : SHIM)) },
    );
    const result = await env.run();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('shim_verification_failed');
    expect(INSTALL_SHIM_ERRORS[result.error.code].exitCode).toBe(1);
    expect(formatInstallShimError(result.error)).toMatch(
      /zsh -l -c resolves gh to \/opt\/homebrew\/bin\/gh .*\(shim_verification_failed\)\n$/,
    );
    expect(env.links.get(SHIM)).toBe(RELAY);
  });

  it.each<[string, Partial<InstallShimOptions>, Record<string, string>, string | undefined]>([
    ['--shell bash', { shell: 'bash' }, {}, 'Only zsh is supported, not bash.'],
    ['$SHELL bash without --shell', {}, { SHELL: '/bin/bash' }, 'Only zsh is supported, not bash.'],
    [
      '$SHELL fish, --remove --shell fish',
      { remove: true, shell: 'fish' },
      {},
      'Only zsh is supported, not fish.',
    ],
    ['$SHELL unset', {}, { SHELL: '' }, undefined],
  ])('refuses other shells: %s (exit 2, nothing touched)', async (_name, options, env, message) => {
    const fake = setup({}, { env: { PATH: '/usr/bin', ...env } });
    const result = await fake.run(options);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('shell_unsupported');
    expect(INSTALL_SHIM_ERRORS.shell_unsupported.exitCode).toBe(2);
    const line = formatInstallShimError(result.error);
    if (message !== undefined) expect(line).toBe(`relay: ${message} (shell_unsupported)\n`);
    expect(line.split('\n')).toHaveLength(2);
    expect(fake.writes).toEqual([]);
  });

  it('--shell zsh overrides a bash $SHELL; --remove needs no zsh $SHELL', async () => {
    const env = setup(
      {},
      {
        env: { SHELL: '/bin/bash', PATH: '/usr/bin' },
        executables: { gh: NATIVE, zsh: '/bin/zsh' },
      },
    );
    expect((await env.run({ shell: 'zsh' })).ok).toBe(true);
    expect((await env.run({ remove: true })).ok).toBe(true);
  });

  it.each<[string, FakeOptions, Record<string, string>, string]>([
    ['no gh at all', { executables: {} }, {}, 'native_cli_missing'],
    [
      'RELAY_NATIVE_CLI not executable',
      { env: { SHELL: '/bin/zsh', RELAY_NATIVE_CLI: '/nope/gh' } },
      {},
      'native_cli_missing',
    ],
    ['a file at the shim path', {}, { [SHIM]: 'mine' }, 'shim_path_occupied'],
    [
      'a damaged block',
      {},
      { '/home/u/.zlogin': '# <<< relay install-shim v1 <<<\n' },
      'startup_block_damaged',
    ],
    ['no zsh', { env: { SHELL: 'zsh' }, executables: { gh: NATIVE } }, {}, 'zsh_missing'],
    [
      'a relative ZDOTDIR',
      { env: { SHELL: '/bin/zsh', PATH: '/usr/bin', ZDOTDIR: 'dots' } },
      {},
      'zdotdir_relative',
    ],
    [
      'an empty ZDOTDIR (zsh then reads no startup file of the home directory)',
      { env: { SHELL: '/bin/zsh', PATH: '/usr/bin', ZDOTDIR: '' } },
      {},
      'zdotdir_relative',
    ],
    [
      'a blank ZDOTDIR',
      { env: { SHELL: '/bin/zsh', PATH: '/usr/bin', ZDOTDIR: '   ' } },
      {},
      'zdotdir_relative',
    ],
    [
      'a ZDOTDIR with a leading blank',
      { env: { SHELL: '/bin/zsh', PATH: '/usr/bin', ZDOTDIR: ' /home/u/dots' } },
      {},
      'zdotdir_relative',
    ],
  ])('fails before any change: %s (%s)', async (_name, options, files, code) => {
    const env = setup(files, options);
    const result = await env.run();
    expect(result.ok || result.error.code).toBe(code);
    expect(env.writes).toEqual([]);
  });

  it('a relative ZDOTDIR is refused with exit 2 and a line naming it; an absolute one is used', async () => {
    const relative = setup({}, { env: { SHELL: '/bin/zsh', PATH: '/usr/bin', ZDOTDIR: 'dots' } });
    const result = await relative.run({ dryRun: true });
    expect(result.ok || formatInstallShimError(result.error)).toBe(
      'relay: ZDOTDIR is not an absolute path ("dots"): zsh reads it from each shell\'s working directory. Set an absolute ZDOTDIR (or unset it), then install. (zdotdir_relative)\n',
    );
    expect(INSTALL_SHIM_ERRORS.zdotdir_relative.exitCode).toBe(2);
    const absolute = setup({}, { env: { SHELL: '/bin/zsh', PATH: '/usr/bin', ZDOTDIR: '/z' } });
    const installed = await absolute.run();
    expect(installed.ok && installed.value.paths.startupFiles).toEqual([
      '/z/.zshenv',
      '/z/.zlogin',
    ]);
  });

  it('refuses to link relay run from source (a script that is not executable)', async () => {
    const env = setup({ '/repo/src/main.ts': '' });
    const deps = { ...env.deps, homeDir: HOME, selfPath: '/repo/src/main.ts' };
    const result = await runShimInstaller({ deps, fs: env.fs }, { dryRun: false, remove: false });
    expect(result.ok || formatInstallShimError(result.error)).toBe(
      'relay: /repo/src/main.ts is not executable: run the built relay bin (not relay from source). (relay_path_unknown)\n',
    );
    expect(env.writes).toEqual([]);
  });

  it('never pins a gh in the shim directory (another relay left it), even first on PATH', async () => {
    const env = setup();
    const findExecutable = async (
      _name: string,
      _env: unknown,
      accept?: (path: string) => Promise<boolean>,
    ) => {
      for (const path of [SHIM, NATIVE])
        if (accept === undefined || (await accept(path))) return path;
      return undefined;
    };
    const deps = { ...env.deps, homeDir: HOME, selfPath: RELAY, findExecutable };
    const result = await runShimInstaller({ deps, fs: env.fs }, { dryRun: true, remove: false });
    expect(result.ok && result.value.nativeCli).toBe(NATIVE);
    const pinnedToShim = { ...deps, env: { SHELL: '/bin/zsh', RELAY_NATIVE_CLI: SHIM } };
    const refused = await runShimInstaller(
      { deps: pinnedToShim, fs: env.fs },
      { dryRun: true, remove: false },
    );
    expect(refused.ok || refused.error.code).toBe('native_cli_missing');
  });

  it('pins the gh that is not the shim', async () => {
    const env = setup({}, { executables: { gh: NATIVE } });
    const isRelayShim = (path: string) => Promise.resolve(path === SHIM);
    const deps = {
      ...env.deps,
      homeDir: HOME,
      selfPath: RELAY,
      isRelayShim,
      env: { SHELL: '/bin/zsh', RELAY_NATIVE_CLI: SHIM },
    };
    const result = await runShimInstaller({ deps, fs: env.fs }, { dryRun: true, remove: false });
    expect(result.ok || result.error).toMatchObject({ code: 'native_cli_missing' });
  });
});
