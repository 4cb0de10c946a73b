import { basename, dirname, isAbsolute } from 'node:path';
import { err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';
import type { CliDependencies } from '../../cli-dependencies.js';
import { CliError } from '../../cli-error.js';
import { locateNativeCli } from '../../native-cli.js';
import type { ShimFileSystem } from './shim-file-system.js';
import { planShimInstall, planShimRemoval, resolveShimPaths } from './shim-install-plan.js';
import type {
  ShimAction,
  ShimFacts,
  ShimPaths,
  ShimPlan,
  ShimRecord,
} from './shim-install-plan.js';
import type { ByteString } from './shim-startup-block.js';
import { verifyShim } from './shim-verification.js';
import type { ShimVerification } from './shim-verification.js';

/** The one shell the installer supports. */
export const SUPPORTED_SHIM_SHELL = 'zsh';

/** The installer's failures and the exit code of each (nothing is changed unless noted). */
export const INSTALL_SHIM_ERRORS = {
  /** `--shell` names another shell, or (without `--shell`) $SHELL is not zsh or is unset. */
  shell_unsupported: { exitCode: 2 },
  /**
   * ZDOTDIR is set to a relative path, a blank one or one with surrounding blanks: zsh reads its startup
   * files relative to each shell's working directory, so no file relay could write is read by
   * every shell, and a relative path in the install record would not find it for `--remove`.
   */
  zdotdir_relative: { exitCode: 2 },
  /** No zsh to verify with ($SHELL, else PATH). */
  zsh_missing: { exitCode: 1 },
  /** No real native gh to pin (RELAY_NATIVE_CLI is not executable, or no gh on PATH). */
  native_cli_missing: { exitCode: 1 },
  /** The running relay's own path is unknown, or not executable (run from source). */
  relay_path_unknown: { exitCode: 1 },
  /** Something that is not a symlink is at the shim's path. */
  shim_path_occupied: { exitCode: 1 },
  /** A startup file has a begin or end marker without its pair, or two blocks. */
  startup_block_damaged: { exitCode: 1 },
  /** Installed, but a verification shell does not resolve gh to the shim (changes stay). */
  shim_verification_failed: { exitCode: 1 },
} as const;

/** A code of {@link INSTALL_SHIM_ERRORS}. */
export type InstallShimErrorCode = keyof typeof INSTALL_SHIM_ERRORS;

/** A failure of the installer: its code and what it concerns. */
export interface InstallShimError {
  readonly code: InstallShimErrorCode;
  /** The shell refused, the file or path concerned, or the native CLI's failure message. */
  readonly subject?: string;
  /** The verification shells' findings (`shim_verification_failed`). */
  readonly verifications?: readonly ShimVerification[];
}

/** Options of {@link runShimInstaller}. */
export interface InstallShimOptions {
  /** `--shell`; absent: $SHELL's name (ignored by `remove`). */
  readonly shell?: string | undefined;
  /** Print the plan, change nothing. */
  readonly dryRun: boolean;
  /** Uninstall instead. */
  readonly remove: boolean;
}

/** What the installer did. */
export interface InstallShimReport {
  /** `installed`/`removed`: actions ran; `unchanged`: nothing to do; `dry_run`: nothing ran. */
  readonly outcome: 'installed' | 'removed' | 'unchanged' | 'dry_run';
  readonly remove: boolean;
  readonly paths: ShimPaths;
  readonly plan: ShimPlan;
  /** The pinned native gh (install only). */
  readonly nativeCli?: string;
  /** The verification shells' findings (install, not a dry run). */
  readonly verifications: readonly ShimVerification[];
}

/** The effects of the installer: the CLI's, a file system, and the running script's path. */
export interface ShimInstallerHost {
  readonly deps: CliDependencies;
  readonly fs: ShimFileSystem;
}

function checkShell(
  options: InstallShimOptions,
  env: CliDependencies['env'],
): InstallShimError | undefined {
  if (options.shell !== undefined) {
    return options.shell === SUPPORTED_SHIM_SHELL
      ? undefined
      : { code: 'shell_unsupported', subject: options.shell };
  }
  if (options.remove) return undefined;
  const shell = env.SHELL?.trim() ?? '';
  if (shell === '') return { code: 'shell_unsupported' };
  const name = basename(shell);
  return name === SUPPORTED_SHIM_SHELL ? undefined : { code: 'shell_unsupported', subject: name };
}

async function findZsh(host: ShimInstallerHost): Promise<string | undefined> {
  const shell = host.deps.env.SHELL?.trim() ?? '';
  if (isAbsolute(shell) && basename(shell) === SUPPORTED_SHIM_SHELL) {
    if (await host.fs.isExecutable(shell)) return shell;
  }
  return host.deps.findExecutable(SUPPORTED_SHIM_SHELL, host.deps.env);
}

/**
 * The real gh as DESIGN.md §3 finds it, where anything in the shim directory also counts as
 * the shim: a `gh` left there by another relay (an older install elsewhere) is never pinned.
 */
async function findNativeCli(
  host: ShimInstallerHost,
  paths: ShimPaths,
): Promise<Result<string, InstallShimError>> {
  const { deps } = host;
  const isRelayShim = async (path: string) =>
    dirname(path) === paths.shimDir || (await deps.isRelayShim(path));
  let path: string;
  try {
    path = await locateNativeCli({ ...deps, isRelayShim });
  } catch (error) {
    if (error instanceof CliError) {
      return err({ code: 'native_cli_missing', subject: error.message });
    }
    throw error;
  }
  if (!(await host.fs.isExecutable(path))) {
    return err({ code: 'native_cli_missing', subject: `${path} is not an executable file.` });
  }
  return ok(path);
}

function parseRecord(bytes: Uint8Array | undefined): ShimRecord | undefined {
  if (bytes === undefined) return undefined;
  try {
    const value = JSON.parse(Buffer.from(bytes).toString('utf8')) as Partial<ShimRecord>;
    if (value.schema_version !== 1 || !Array.isArray(value.startup_files)) return undefined;
    return value as ShimRecord;
  } catch {
    return undefined;
  }
}

async function readFacts(
  host: ShimInstallerHost,
  paths: ShimPaths,
): Promise<Omit<ShimFacts, 'nativeCli' | 'relayPath'>> {
  const { fs } = host;
  const record = parseRecord(await fs.readFile(paths.recordPath));
  const files = new Set([
    ...paths.startupFiles,
    ...(record?.startup_files ?? []).map((f) => f.path),
  ]);
  const startupContents = new Map<string, ByteString | undefined>();
  for (const path of files) {
    const bytes = await fs.readFile(path);
    startupContents.set(
      path,
      bytes === undefined ? undefined : Buffer.from(bytes).toString('latin1'),
    );
  }
  return {
    paths,
    shim: await fs.inspectLink(paths.shimPath),
    shimDirExists: await fs.isDirectory(paths.shimDir),
    startupContents,
    record,
  };
}

async function applyAction(fs: ShimFileSystem, action: ShimAction): Promise<void> {
  switch (action.kind) {
    case 'create_directory':
      await fs.makeDirectory(action.path);
      return;
    case 'link':
      await fs.link(action.path, action.target);
      return;
    case 'unlink':
    case 'delete_startup_file':
    case 'delete_record':
      await fs.deleteFile(action.path);
      return;
    case 'write_startup_file':
      await fs.writeFile(action.path, Buffer.from(action.content, 'latin1'));
      return;
    case 'write_record':
      await fs.writeFile(action.path, Buffer.from(`${JSON.stringify(action.record, null, 2)}\n`));
      return;
    case 'remove_directory_if_empty':
      await fs.removeDirectoryIfEmpty(action.path);
      return;
  }
}

/** Runs the actions of `plan` in order. */
export async function applyShimPlan(fs: ShimFileSystem, plan: ShimPlan): Promise<void> {
  for (const action of plan.actions) await applyAction(fs, action);
}

/**
 * `relay install-shim`: checks the shell, reads the facts (paths, the running relay's real
 * path, the real native gh, the symlink, the startup files, the record), plans, and — unless a
 * dry run — applies the plan and verifies it in a non-interactive and a login zsh. A second
 * install plans nothing and changes nothing (it still verifies). `remove` plans and applies the
 * uninstall instead (no shell needed).
 *
 * @returns the report, or an {@link InstallShimError} (nothing changed, except after
 *   `shim_verification_failed`)
 */
export async function runShimInstaller(
  host: ShimInstallerHost,
  options: InstallShimOptions,
): Promise<Result<InstallShimReport, InstallShimError>> {
  const { deps, fs } = host;
  const shellError = checkShell(options, deps.env);
  if (shellError !== undefined) return err(shellError);
  const paths = resolveShimPaths(deps.env, deps.homeDir);
  const facts = await readFacts(host, paths);
  if (options.remove) {
    const planned = planShimRemoval(facts);
    if (!planned.ok) return err({ code: planned.error.code, subject: planned.error.path });
    const plan = planned.value;
    if (!options.dryRun) await applyShimPlan(fs, plan);
    const outcome = options.dryRun
      ? 'dry_run'
      : plan.actions.length === 0
        ? 'unchanged'
        : 'removed';
    return ok({ outcome, remove: true, paths, plan, verifications: [] });
  }
  // A set but blank ZDOTDIR is no home directory to zsh: it reads `/.zshenv`, never `~/.zshenv`.
  const zdotdir = deps.env.ZDOTDIR;
  if (zdotdir !== undefined && !isAbsolute(zdotdir)) {
    return err({ code: 'zdotdir_relative', subject: zdotdir });
  }
  const zsh = await findZsh(host);
  if (zsh === undefined) return err({ code: 'zsh_missing' });
  const relayPath = deps.selfPath === undefined ? undefined : await fs.realPath(deps.selfPath);
  if (relayPath === undefined) return err({ code: 'relay_path_unknown' });
  if (!(await fs.isExecutable(relayPath))) {
    return err({ code: 'relay_path_unknown', subject: relayPath });
  }
  const nativeCli = await findNativeCli(host, paths);
  if (!nativeCli.ok) return nativeCli;
  const planned = planShimInstall({ ...facts, relayPath, nativeCli: nativeCli.value });
  if (!planned.ok) return err({ code: planned.error.code, subject: planned.error.path });
  const plan = planned.value;
  const base = { remove: false, paths, plan, nativeCli: nativeCli.value };
  if (options.dryRun) return ok({ ...base, outcome: 'dry_run', verifications: [] });
  await applyShimPlan(fs, plan);
  const verifications = await verifyShim(deps, zsh, {
    shimPath: paths.shimPath,
    nativeCli: nativeCli.value,
  });
  if (verifications.some((verification) => !verification.ok)) {
    return err({ code: 'shim_verification_failed', subject: paths.shimPath, verifications });
  }
  const outcome = plan.actions.length === 0 ? 'unchanged' : 'installed';
  return ok({ ...base, outcome, verifications });
}
