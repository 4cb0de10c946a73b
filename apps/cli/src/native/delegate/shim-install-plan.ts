import { join } from 'node:path';
import { err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';
import type { CliEnv } from '../../cli-dependencies.js';
import { locateShimBlock, renderShimBlock, toByteString } from './shim-startup-block.js';
import type { ByteString } from './shim-startup-block.js';

/** The zsh startup files that carry the managed block, in the order zsh reads them. */
export const SHIM_STARTUP_FILES = ['.zshenv', '.zlogin'] as const;

/** The shim's file name: the native CLI's. */
export const SHIM_NAME = 'gh';

/** The install record's file name, in the relay data directory (beside `bin/`). */
export const SHIM_RECORD_NAME = 'install-shim.json';

/** Where the shim, its record and the startup files live. */
export interface ShimPaths {
  /** `$XDG_DATA_HOME/relay`, else `~/.local/share/relay`. */
  readonly dataDir: string;
  /** `<dataDir>/bin`: the directory put first on PATH. */
  readonly shimDir: string;
  /** `<shimDir>/gh`: the symlink to `relay`. */
  readonly shimPath: string;
  /** `<dataDir>/install-shim.json`. */
  readonly recordPath: string;
  /** `$ZDOTDIR/.zshenv` and `$ZDOTDIR/.zlogin` (ZDOTDIR else the home directory). */
  readonly startupFiles: readonly string[];
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * The installer's paths: the data directory is `$XDG_DATA_HOME/relay` (an absolute
 * XDG_DATA_HOME only, as the XDG spec says), else `~/.local/share/relay`; the startup files
 * are in ZDOTDIR, else the home directory. Blank variables count as unset.
 */
export function resolveShimPaths(env: CliEnv, homeDir: string): ShimPaths {
  const xdg = nonBlank(env.XDG_DATA_HOME);
  const dataHome = xdg?.startsWith('/') === true ? xdg : join(homeDir, '.local', 'share');
  const dataDir = join(dataHome, 'relay');
  const shimDir = join(dataDir, 'bin');
  const zdotdir = nonBlank(env.ZDOTDIR) ?? homeDir;
  return {
    dataDir,
    shimDir,
    shimPath: join(shimDir, SHIM_NAME),
    recordPath: join(dataDir, SHIM_RECORD_NAME),
    startupFiles: SHIM_STARTUP_FILES.map((name) => join(zdotdir, name)),
  };
}

/** What is at the shim's path. */
export type ShimLinkState =
  | { readonly kind: 'absent' }
  | { readonly kind: 'symlink'; readonly target: string }
  | { readonly kind: 'other' };

/** What the installer inserted into one startup file, so that `--remove` takes exactly it out. */
export interface ShimRecordFile {
  readonly path: string;
  /** The file did not exist: removing the block deletes it when nothing else is left. */
  readonly created: boolean;
  /** `"\n"` when the file did not end in a newline and one was added before the block, else `""`. */
  readonly separator: '' | '\n';
}

/** The install record (`install-shim.json`). */
export interface ShimRecord {
  readonly schema_version: 1;
  readonly shim: string;
  readonly startup_files: readonly ShimRecordFile[];
}

/** Everything the plan depends on, read by the shell before anything is changed. */
export interface ShimFacts {
  readonly paths: ShimPaths;
  /** The real path of the running `relay` script: the symlink's target. */
  readonly relayPath: string;
  /** The real native gh to pin (never the shim). */
  readonly nativeCli: string;
  /** What is at `paths.shimPath`. */
  readonly shim: ShimLinkState;
  /** Whether `paths.shimDir` exists. */
  readonly shimDirExists: boolean;
  /** Each file of `paths.startupFiles` and every file the record names: bytes, or absent. */
  readonly startupContents: ReadonlyMap<string, ByteString | undefined>;
  /** The install record, when there is one. */
  readonly record: ShimRecord | undefined;
}

/** One change to the file system. */
export type ShimAction =
  | { readonly kind: 'create_directory'; readonly path: string }
  | {
      readonly kind: 'link';
      readonly path: string;
      readonly target: string;
      /** The symlink it replaces (its old target). */
      readonly replaces?: string;
    }
  | { readonly kind: 'unlink'; readonly path: string }
  | {
      readonly kind: 'write_startup_file';
      readonly path: string;
      readonly content: ByteString;
      readonly change: 'append_block' | 'update_block' | 'remove_block';
      /** The file is new (append) or was created by the installer and is gone afterwards. */
      readonly created: boolean;
    }
  | { readonly kind: 'delete_startup_file'; readonly path: string }
  | { readonly kind: 'write_record'; readonly path: string; readonly record: ShimRecord }
  | { readonly kind: 'delete_record'; readonly path: string }
  | { readonly kind: 'remove_directory_if_empty'; readonly path: string };

/** A plan: the actions in order (none when everything is already as planned) and the block. */
export interface ShimPlan {
  readonly actions: readonly ShimAction[];
  /** The managed block written into each startup file (UTF-8 text); `''` for a removal. */
  readonly block: string;
}

/** Why a plan cannot be made; nothing has been changed. */
export type ShimPlanError =
  | { readonly code: 'shim_path_occupied'; readonly path: string }
  | { readonly code: 'startup_block_damaged'; readonly path: string };

function recordEntry(record: ShimRecord | undefined, path: string): ShimRecordFile | undefined {
  return record?.startup_files.find((file) => file.path === path);
}

function planStartupFile(
  path: string,
  content: ByteString | undefined,
  block: ByteString,
  previous: ShimRecordFile | undefined,
): Result<{ action?: ShimAction; entry: ShimRecordFile }, ShimPlanError> {
  if (content === undefined) {
    return ok({
      action: {
        kind: 'write_startup_file',
        path,
        content: block,
        change: 'append_block',
        created: true,
      },
      entry: { path, created: true, separator: '' },
    });
  }
  const located = locateShimBlock(content);
  if (!located.ok) return err({ code: 'startup_block_damaged', path });
  const location = located.value;
  if (location === undefined) {
    const separator = content === '' || content.endsWith('\n') ? '' : '\n';
    return ok({
      action: {
        kind: 'write_startup_file',
        path,
        content: content + separator + block,
        change: 'append_block',
        created: false,
      },
      entry: { path, created: false, separator },
    });
  }
  // Without a record of the insertion (it was deleted), the block alone is relay's.
  const entry = previous ?? { path, created: false, separator: '' };
  const current = content.slice(location.start, location.end);
  if (current === block) return ok({ entry });
  const updated = content.slice(0, location.start) + block + content.slice(location.end);
  return ok({
    action: {
      kind: 'write_startup_file',
      path,
      content: updated,
      change: 'update_block',
      created: false,
    },
    entry,
  });
}

function sameRecord(a: ShimRecord | undefined, b: ShimRecord): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Plans an install from the facts: the shim directory and symlink (a symlink elsewhere is
 * replaced; anything else at the shim's path is refused), the managed block appended to each
 * startup file (a newline first when the file does not end in one) or updated in place when
 * stale, and the record of what was inserted. Every step already in place is left out, so that
 * a second install plans no action at all.
 *
 * @returns the plan, or `shim_path_occupied` / `startup_block_damaged` (nothing planned)
 */
export function planShimInstall(facts: ShimFacts): Result<ShimPlan, ShimPlanError> {
  const { paths } = facts;
  const block = renderShimBlock({ shimDir: paths.shimDir, nativeCli: facts.nativeCli });
  const blockBytes = toByteString(block);
  const actions: ShimAction[] = [];
  if (!facts.shimDirExists) actions.push({ kind: 'create_directory', path: paths.shimDir });
  switch (facts.shim.kind) {
    case 'absent':
      actions.push({ kind: 'link', path: paths.shimPath, target: facts.relayPath });
      break;
    case 'symlink':
      if (facts.shim.target !== facts.relayPath) {
        actions.push({
          kind: 'link',
          path: paths.shimPath,
          target: facts.relayPath,
          replaces: facts.shim.target,
        });
      }
      break;
    case 'other':
      return err({ code: 'shim_path_occupied', path: paths.shimPath });
  }
  const entries: ShimRecordFile[] = [];
  for (const path of paths.startupFiles) {
    const planned = planStartupFile(
      path,
      facts.startupContents.get(path),
      blockBytes,
      recordEntry(facts.record, path),
    );
    if (!planned.ok) return planned;
    if (planned.value.action !== undefined) actions.push(planned.value.action);
    entries.push(planned.value.entry);
  }
  // Files of an earlier install elsewhere (another ZDOTDIR) stay recorded for --remove.
  for (const file of facts.record?.startup_files ?? []) {
    if (!paths.startupFiles.includes(file.path)) entries.push(file);
  }
  const record: ShimRecord = { schema_version: 1, shim: paths.shimPath, startup_files: entries };
  if (!sameRecord(facts.record, record)) {
    actions.push({ kind: 'write_record', path: paths.recordPath, record });
  }
  return ok({ actions, block });
}

function planBlockRemoval(
  path: string,
  content: ByteString | undefined,
  entry: ShimRecordFile | undefined,
): Result<ShimAction | undefined, ShimPlanError> {
  if (content === undefined) return ok(undefined);
  const located = locateShimBlock(content);
  if (!located.ok) return err({ code: 'startup_block_damaged', path });
  const location = located.value;
  if (location === undefined) return ok(undefined);
  const separator = entry?.separator ?? '';
  const start =
    separator !== '' &&
    content.slice(location.start - separator.length, location.start) === separator
      ? location.start - separator.length
      : location.start;
  const rest = content.slice(0, start) + content.slice(location.end);
  if (entry?.created === true && rest === '') return ok({ kind: 'delete_startup_file', path });
  return ok({
    kind: 'write_startup_file',
    path,
    content: rest,
    change: 'remove_block',
    created: entry?.created ?? false,
  });
}

/**
 * Plans `--remove`: each recorded startup file (else the current ones) loses exactly what was
 * inserted — the block and the newline added before it — so that an untouched file gets its
 * original bytes back, and a file the installer created is deleted when nothing else is left;
 * then the symlink, the record, and the shim and data directories when empty. Nothing
 * installed plans no action.
 *
 * @returns the plan, or `startup_block_damaged` (nothing planned)
 */
export function planShimRemoval(
  facts: Omit<ShimFacts, 'nativeCli' | 'relayPath'>,
): Result<ShimPlan, ShimPlanError> {
  const { paths, record } = facts;
  const files = record?.startup_files.map((file) => file.path) ?? paths.startupFiles;
  const actions: ShimAction[] = [];
  for (const path of files) {
    const planned = planBlockRemoval(
      path,
      facts.startupContents.get(path),
      recordEntry(record, path),
    );
    if (!planned.ok) return planned;
    if (planned.value !== undefined) actions.push(planned.value);
  }
  if (facts.shim.kind === 'symlink') actions.push({ kind: 'unlink', path: paths.shimPath });
  if (record !== undefined) actions.push({ kind: 'delete_record', path: paths.recordPath });
  if (actions.length > 0 && facts.shimDirExists) {
    actions.push({ kind: 'remove_directory_if_empty', path: paths.shimDir });
    actions.push({ kind: 'remove_directory_if_empty', path: paths.dataDir });
  }
  return ok({ actions, block: '' });
}

/** One line describing `action` (the plan that `--dry-run` prints and an install reports). */
export function describeShimAction(action: ShimAction): string {
  switch (action.kind) {
    case 'create_directory':
      return `create directory ${action.path}`;
    case 'link':
      return action.replaces === undefined
        ? `link ${action.path} -> ${action.target}`
        : `relink ${action.path} -> ${action.target} (was -> ${action.replaces})`;
    case 'unlink':
      return `remove link ${action.path}`;
    case 'write_startup_file':
      switch (action.change) {
        case 'append_block':
          return `append the managed block to ${action.path}${action.created ? ' (new file)' : ''}`;
        case 'update_block':
          return `update the managed block in ${action.path}`;
        case 'remove_block':
          return `remove the managed block from ${action.path}`;
      }
      break;
    case 'delete_startup_file':
      return `delete ${action.path} (relay created it; nothing else is in it)`;
    case 'write_record':
      return `write the install record ${action.path}`;
    case 'delete_record':
      return `delete the install record ${action.path}`;
    case 'remove_directory_if_empty':
      return `remove directory ${action.path} if empty`;
  }
}
