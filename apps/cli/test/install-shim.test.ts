import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, startStubRelay } from './cli-harness.js';
import type { StubRelay } from './cli-harness.js';

/**
 * `relay install-shim` through the BUILT binary (tsdown into a directory of its own) in a
 * temporary HOME, proven with a real zsh: `command -v gh` in `zsh -c` and `zsh -l -c`, and gh
 * run through the shim reaching a recording fake native gh (the pinned path). zsh is required:
 * CI installs it (.ci/run); locally the suite is skipped, by name, only when zsh is absent and
 * CI is not set.
 */
const appDir = dirname(dirname(fileURLToPath(import.meta.url)));
const ZSH =
  spawnSync('sh', ['-c', 'command -v zsh'], { encoding: 'utf8' }).stdout.trim() || undefined;
const SKIP_WITHOUT_ZSH = ZSH === undefined && process.env.CI === undefined;
const zsh = ZSH ?? 'zsh';
const BASE_PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;

let outDir: string | undefined;
let bin: string;

interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(
  file: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

/** Every file and link under `dir` with its bytes (or link target): the tree's fingerprint. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const child = join(path, name);
      const info = lstatSync(child);
      const key = child.slice(dir.length);
      if (info.isSymbolicLink()) out[key] = `-> ${readlinkSync(child)}`;
      else if (info.isDirectory()) {
        out[`${key}/`] = '';
        walk(child);
      } else out[key] = `${readFileSync(child).toString('latin1')} @${String(info.mtimeMs)}`;
    }
  };
  walk(dir);
  return out;
}

beforeAll(async () => {
  if (SKIP_WITHOUT_ZSH) return;
  outDir = mkdtempSync(join(tmpdir(), 'relay-install-shim-'));
  const built = await run(
    'pnpm',
    ['exec', 'tsdown', '--logLevel', 'error', '--out-dir', outDir],
    { ...process.env } as Record<string, string>,
    appDir,
  );
  if (built.code !== 0) throw new Error(`tsdown exited ${String(built.code)}: ${built.stderr}`);
  bin = join(outDir, 'main.js');
}, 120_000);
afterAll(() => {
  if (outDir !== undefined) rmSync(outDir, { recursive: true, force: true });
});

describe.skipIf(!SKIP_WITHOUT_ZSH)('relay install-shim with a real zsh', () => {
  it('is skipped: zsh is not installed here and CI is not set (CI installs zsh)', () => {
    expect(ZSH).toBeUndefined();
  });
});

describe.skipIf(SKIP_WITHOUT_ZSH)(
  'relay install-shim (built binary, real zsh, temporary HOME)',
  () => {
    let dir: ReturnType<typeof createTempDir>;
    let home: string;
    let nativeBin: string;
    let env: Record<string, string>;
    /** A relay login whose pool has an empty string-rewrite policy (client rule 15). */
    let stub: StubRelay;

    beforeAll(async () => {
      stub = await startStubRelay(() => ({ status: 500, json: {} }));
    });
    afterAll(async () => {
      await stub.close();
    });

    const shimDir = () => join(home, '.local', 'share', 'relay', 'bin');
    const shim = () => join(shimDir(), 'gh');
    const relay = (args: readonly string[], extra: Record<string, string> = {}) =>
      run(process.execPath, [bin, ...args], { ...env, ...extra }, home);
    const inZsh = (args: readonly string[], extra: Record<string, string> = {}) =>
      run(zsh, args, { ...env, ...extra }, home);

    beforeEach(() => {
      dir = createTempDir();
      home = join(dir.path, 'home');
      nativeBin = join(dir.path, 'native-bin');
      mkdirSync(home);
      mkdirSync(nativeBin);
      // The fake native gh: records its argv, prints on both streams, exits FAKE_GH_EXIT.
      writeFileSync(
        join(nativeBin, 'gh'),
        [
          '#!/bin/sh',
          `printf '%s\\n' "$@" > "${dir.path}/native-argv"`,
          'echo "native gh $*"',
          'echo "native stderr" >&2',
          'exit "${FAKE_GH_EXIT:-0}"',
          '',
        ].join('\n'),
      );
      chmodSync(join(nativeBin, 'gh'), 0o755);
      env = {
        HOME: home,
        // The temporary HOME is compared file by file; relay's V8 compile cache (which lives in
        // ~/.cache/relay, outside every file install-shim manages) would only add noise.
        NODE_DISABLE_COMPILE_CACHE: '1',
        SHELL: zsh,
        PATH: `${nativeBin}:${BASE_PATH}`,
        RELAY_QUIET_FALLBACK: '1',
        RELAY_URL: stub.url,
        RELAY_TOKEN: 'rly_test-token',
        RELAY_POOL: 'team',
      };
    });
    afterEach(() => {
      dir.remove();
    });

    it('installs, verifies in zsh -c and zsh -l -c, and gh runs relay, which runs the pinned native gh', async () => {
      const installed = await relay(['install-shim']);
      expect(installed.stderr).toBe('');
      expect(installed.code).toBe(0);
      expect(installed.stdout).toContain(`link ${shim()} -> ${realpathSync(bin)}\n`);
      expect(installed.stdout).toContain(`verified: zsh -c: gh is ${shim()}\n`);
      expect(installed.stdout).toContain(`verified: zsh -l -c: gh is ${shim()}\n`);
      expect(readlinkSync(shim())).toBe(realpathSync(bin));
      expect(statSync(bin).mode & 0o111).not.toBe(0);
      const zshenv = readFileSync(join(home, '.zshenv'), 'utf8');
      expect(zshenv).toContain(`export RELAY_NATIVE_CLI='${join(nativeBin, 'gh')}'\n`);
      expect(readFileSync(join(home, '.zlogin'), 'utf8')).toBe(zshenv);

      for (const mode of [['-c'], ['-l', '-c']]) {
        const where = await inZsh([...mode, 'command -v gh; print -r -- $RELAY_NATIVE_CLI']);
        expect(where.stdout).toBe(`${shim()}\n${join(nativeBin, 'gh')}\n`);
      }
      // `gh --version` through the shim: relay native --version, which delegates (help).
      const version = await inZsh(['-c', 'gh --version'], { FAKE_GH_EXIT: '3' });
      expect(version).toEqual({
        code: 3,
        stdout: 'native gh --version\n',
        stderr: 'native stderr\n',
      });
      expect(readFileSync(join(dir.path, 'native-argv'), 'utf8')).toBe('--version\n');
      // `gh api` with a write through the shim in a login shell: rule 7, the native gh runs it
      // (a shape rule 16 does not model, so it reaches gh with its argv unchanged once checked).
      const api = await inZsh(['-l', '-c', 'gh api -X POST repos/acme/widgets/labels -f name=x']);
      expect(api.code).toBe(0);
      expect(api.stdout).toBe('native gh api -X POST repos/acme/widgets/labels -f name=x\n');
      // Without the pin (a shell that did not read the block), the shim still skips itself.
      const unpinned = await run(
        shim(),
        ['--version'],
        { ...env, PATH: `${shimDir()}:${env.PATH ?? ''}` },
        home,
      );
      expect(unpinned.stdout).toBe('native gh --version\n');
      // The pin pointing at the shim itself is refused, never a loop.
      const loop = await run(shim(), ['--version'], { ...env, RELAY_NATIVE_CLI: shim() }, home);
      expect(loop.code).toBe(1);
      expect(loop.stderr).toMatch(/native_cli_missing/);
    }, 60_000);

    it('a second run changes nothing and says so', async () => {
      writeFileSync(join(home, '.zshenv'), 'export EDITOR=vi');
      expect((await relay(['install-shim'])).code).toBe(0);
      const before = snapshot(dir.path);
      const again = await relay(['install-shim']);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(
        /^relay install-shim: already installed; nothing changed\.\nverified: zsh -c: gh is /,
      );
      expect(snapshot(dir.path)).toEqual(before);
    }, 60_000);

    it('--dry-run prints the plan and the block and touches nothing', async () => {
      writeFileSync(join(home, '.zshenv'), 'export EDITOR=vi\n');
      const before = snapshot(dir.path);
      const dry = await relay(['install-shim', '--dry-run']);
      expect(dry.code).toBe(0);
      expect(dry.stdout).toContain('nothing was changed');
      expect(dry.stdout).toContain(`  append the managed block to ${join(home, '.zshenv')}\n`);
      expect(dry.stdout).toContain(
        `  append the managed block to ${join(home, '.zlogin')} (new file)\n`,
      );
      expect(dry.stdout).toContain('    # >>> relay install-shim v1 >>>\n');
      expect(snapshot(dir.path)).toEqual(before);
    }, 60_000);

    it("--dry-run touches nothing with Node's compile cache enabled either", async () => {
      const { NODE_DISABLE_COMPILE_CACHE: _disabled, ...cached } = env;
      const before = snapshot(dir.path);
      const dry = await run(process.execPath, [bin, 'install-shim', '--dry-run'], cached, home);
      expect(dry.code).toBe(0);
      expect(snapshot(dir.path)).toEqual(before);
      // The same environment does give other commands their cache (the test can see one).
      await run(process.execPath, [bin, 'health'], cached, home);
      expect(existsSync(join(home, '.cache', 'relay', 'node-compile-cache'))).toBe(true);
    }, 60_000);

    it.each([
      ['absent files stay absent', undefined, undefined],
      ['files without a final newline and CRLF', 'export A=1', 'export B=2\r\nexport C=3\r\n'],
      ['an empty file and a CRLF file without a final newline', '', 'x=1\r\ny=2'],
    ])(
      '--remove restores the startup files byte for byte: %s',
      async (_name, zshenv, zlogin) => {
        if (zshenv !== undefined) writeFileSync(join(home, '.zshenv'), zshenv, 'latin1');
        if (zlogin !== undefined) writeFileSync(join(home, '.zlogin'), zlogin, 'latin1');
        const strip = (tree: Record<string, string>) =>
          Object.fromEntries(
            Object.entries(tree).map(([key, value]) => [key, value.replace(/ @[\d.]+$/, '')]),
          );
        const before = strip(snapshot(home));
        expect((await relay(['install-shim'])).code).toBe(0);
        const removed = await relay(['install-shim', '--remove']);
        expect(removed.code).toBe(0);
        expect(removed.stdout).toContain(`remove link ${shim()}\n`);
        const after = strip(snapshot(home));
        // The data directories relay created (.local/share/relay) are gone; .local/share stays.
        delete after['/.local/'];
        delete after['/.local/share/'];
        expect(after).toEqual(before);
        const again = await relay(['install-shim', '--remove']);
        expect(again.stdout).toBe('relay install-shim --remove: not installed; nothing changed.\n');
      },
      60_000,
    );

    it('refuses a relative ZDOTDIR (zsh reads it from each working directory): exit 2, nothing written', async () => {
      const before = snapshot(dir.path);
      const refused = await relay(['install-shim'], { ZDOTDIR: 'dots' });
      expect(refused).toMatchObject({
        code: 2,
        stdout: '',
        stderr:
          'relay: ZDOTDIR is not an absolute path ("dots"): zsh reads it from each shell\'s working directory. Set an absolute ZDOTDIR (or unset it), then install. (zdotdir_relative)\n',
      });
      expect(snapshot(dir.path)).toEqual(before);
      const zdotdir = join(home, 'dots');
      mkdirSync(zdotdir);
      expect((await relay(['install-shim'], { ZDOTDIR: zdotdir })).code).toBe(0);
      expect(readFileSync(join(zdotdir, '.zshenv'), 'utf8')).toContain(
        '# >>> relay install-shim v1 >>>',
      );
    }, 60_000);

    it('keeps the shim first when .zprofile prepends another gh (login shells: the .zlogin block)', async () => {
      const other = join(dir.path, 'brew-bin');
      mkdirSync(other);
      writeFileSync(join(other, 'gh'), '#!/bin/sh\necho brew gh\n');
      chmodSync(join(other, 'gh'), 0o755);
      writeFileSync(join(home, '.zprofile'), `export PATH='${other}':$PATH\n`);
      const installed = await relay(['install-shim']);
      expect(installed.code).toBe(0);
      expect((await inZsh(['-l', '-c', 'command -v gh'])).stdout).toBe(`${shim()}\n`);
      // A reordering after the block (a later line appended to .zlogin) fails verification.
      writeFileSync(join(home, '.zlogin'), `export PATH='${other}':$PATH\n`, { flag: 'a' });
      const broken = await relay(['install-shim']);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toBe(
        `relay: Installed, but zsh -l -c resolves gh to ${join(other, 'gh')} (RELAY_NATIVE_CLI=${join(nativeBin, 'gh')}): a startup file or a system file reorders PATH after the managed block. (shim_verification_failed)\n`,
      );
    }, 60_000);

    it('re-pins by updating the block in place; --remove after the update still restores the bytes', async () => {
      writeFileSync(join(home, '.zshenv'), 'export A=1');
      const other = join(dir.path, 'other-gh');
      writeFileSync(other, '#!/bin/sh\necho other gh\n');
      chmodSync(other, 0o755);
      expect((await relay(['install-shim'])).code).toBe(0);
      const repinned = await relay(['install-shim'], { RELAY_NATIVE_CLI: other });
      expect(repinned.code).toBe(0);
      expect(repinned.stdout).toContain(`  update the managed block in ${join(home, '.zshenv')}\n`);
      expect(repinned.stdout).toContain(`  update the managed block in ${join(home, '.zlogin')}\n`);
      expect((await inZsh(['-l', '-c', 'gh --version'])).stdout).toBe('other gh\n');
      expect((await relay(['install-shim', '--remove'])).code).toBe(0);
      expect(readFileSync(join(home, '.zshenv'), 'latin1')).toBe('export A=1');
      expect(existsSync(join(home, '.zlogin'))).toBe(false);
    }, 60_000);

    it('honours ZDOTDIR and XDG_DATA_HOME', async () => {
      const zdotdir = join(dir.path, 'zdot');
      const data = join(dir.path, 'data');
      mkdirSync(zdotdir);
      const extra = { ZDOTDIR: zdotdir, XDG_DATA_HOME: data };
      const installed = await relay(['install-shim'], extra);
      expect(installed.code).toBe(0);
      expect(readlinkSync(join(data, 'relay', 'bin', 'gh'))).toBe(realpathSync(bin));
      expect(existsSync(join(zdotdir, '.zshenv'))).toBe(true);
      expect(existsSync(join(home, '.zshenv'))).toBe(false);
      expect((await inZsh(['-c', 'command -v gh'], extra)).stdout).toBe(
        `${join(data, 'relay', 'bin', 'gh')}\n`,
      );
    }, 60_000);

    it.each<[string, string[], Record<string, string>, string]>([
      [
        '--shell bash',
        ['--shell', 'bash'],
        {},
        'relay: Only zsh is supported, not bash. (shell_unsupported)\n',
      ],
      [
        '$SHELL bash',
        [],
        { SHELL: '/bin/bash' },
        'relay: Only zsh is supported, not bash. (shell_unsupported)\n',
      ],
      [
        '$SHELL unset',
        [],
        { SHELL: '' },
        'relay: $SHELL is unset, so the shell is unknown: only zsh is supported (pass --shell zsh). (shell_unsupported)\n',
      ],
    ])(
      'refuses other shells with one line and exit 2: %s',
      async (_name, args, extra, line) => {
        const before = snapshot(dir.path);
        const refused = await relay(['install-shim', ...args], extra);
        expect(refused).toEqual({ code: 2, stdout: '', stderr: line });
        expect(snapshot(dir.path)).toEqual(before);
      },
      60_000,
    );
  },
);

// zsh must be present where CI runs: a missing zsh fails there instead of skipping.
describe.runIf(process.env.CI !== undefined)('CI prerequisites', () => {
  it('zsh is installed', () => {
    expect(ZSH).toBeDefined();
  });
});
