import { GITHUB_HOST, parseGitUrl } from './repo-selector.js';
import type { GitRemote } from './repo-selector.js';

/**
 * The pull request selector gh's finder reads from the current branch (cli/cli v2.60
 * `parseCurrentBranch`), from git's outputs as data:
 * - `branch.<name>.merge` = `refs/pull/<N>/head` (a branch made by `gh pr checkout`): PR N of
 *   the base repository, no lookup;
 * - else the branch's remote (`branch.<name>.remote`, a URL or a remote's name) gives the
 *   owner of the branch it pushes to; with an owner, a merge ref `refs/heads/<X>` renames the
 *   branch to X, and an owner other than the base repository's makes it `<owner>:<branch>`;
 * - without an owner, the branch's own name. The selector is then looked up by head.
 */

/** `git symbolic-ref --quiet HEAD` (gh's `CurrentBranch`). */
export const GIT_CURRENT_BRANCH_ARGS: readonly string[] = ['symbolic-ref', '--quiet', 'HEAD'];

/**
 * gh's error when HEAD is not on a branch (`git symbolic-ref --quiet` failed without a word on
 * stderr): the factory's wrap of git's `not on any branch`; printed with its newline, exit 1.
 */
export const NOT_ON_BRANCH_ERROR =
  'could not determine current branch: failed to run git: not on any branch\n';

/** The most digits of a served PR number (beyond, JavaScript numbers stop being exact). */
const MAX_NUMBER_DIGITS = 15;

const PR_HEAD_REF = /^refs\/pull\/(\d+)\/head$/;

/** Remote URL schemes gh's `git.ParseURL` reads as URLs (case-sensitive, as gh). */
const MODELLED_URL_SCHEME = /^(?:https?|ssh|git|git\+ssh|git\+https):\/\/[^/]/;
/**
 * `[user@]host:path` (gh's scp-like form, read as `ssh://[user@]host/path`); a `host` that is
 * one of gh's protocol names (`http:a/b`) is a URL to gh, not scp-like.
 */
const SCP_LIKE =
  /^(?!(?:ssh|git\+ssh|git|https?|git\+https|ftps?|file):)(?:[\w.-]+@)?[\w.-]+:(?!\/\/)[^\\]*$/;

/** Go's `regexp.QuoteMeta`. */
function quoteMeta(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

/** `git config --get-regexp ^branch\.<name>\.(remote|merge)$` (gh's `ReadBranchConfig`). */
export function branchConfigArgs(branch: string): string[] {
  return ['config', '--get-regexp', `^${quoteMeta(`branch.${branch}.`)}(remote|merge)$`];
}

/** The branch `git symbolic-ref --quiet HEAD` printed (first line, `refs/heads/` dropped). */
export function parseCurrentBranch(stdout: string): string | undefined {
  const line = stdout.split('\n')[0] ?? '';
  const branch = line.startsWith('refs/heads/') ? line.slice('refs/heads/'.length) : line;
  return branch === '' ? undefined : branch;
}

/** A branch's configuration as gh's `ReadBranchConfig` keeps it. */
export interface BranchConfig {
  /** `branch.<name>.remote` naming a remote (not a URL, not a filesystem path). */
  readonly remoteName?: string;
  /** `branch.<name>.remote` given as a URL (it contains `:`). */
  readonly remoteUrl?: string;
  /** `branch.<name>.merge` (the last one), `''` when none. */
  readonly mergeRef: string;
}

/** gh's `isFilesystemPath`. */
function isFilesystemPath(value: string): boolean {
  return value === '.' || value.startsWith('./') || value.startsWith('/');
}

/**
 * Parses `git config --get-regexp '^branch\.<name>\.(remote|merge)$'` output (`key value`
 * lines) as gh's `ReadBranchConfig`: for each `remote`, a value with `:` is a URL, else a
 * value that is not a filesystem path is a remote's name; the last `merge` wins. `''` (git
 * failed or found nothing) is an empty configuration.
 */
export function parseBranchConfig(stdout: string): BranchConfig {
  let remoteName: string | undefined;
  let remoteUrl: string | undefined;
  let mergeRef = '';
  const text = stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout;
  for (const line of text.split('\n')) {
    const space = line.indexOf(' ');
    if (space < 0) continue;
    const value = line.slice(space + 1);
    const key = line.slice(0, space).split('.').at(-1);
    if (key === 'merge') {
      mergeRef = value;
    } else if (key === 'remote') {
      if (value.includes(':')) remoteUrl = value;
      else if (!isFilesystemPath(value)) remoteName = value;
    }
  }
  return {
    ...(remoteName === undefined ? {} : { remoteName }),
    ...(remoteUrl === undefined ? {} : { remoteUrl }),
    mergeRef,
  };
}

/** What the current branch selects. */
export type CurrentBranchSelection =
  /** The branch merges `refs/pull/<N>/head`: PR N, no lookup. */
  | { readonly kind: 'number'; readonly number: number }
  /** A head to look up: `branch` or `owner:branch` (gh's `HeadLabel` form). */
  | { readonly kind: 'branch'; readonly selector: string }
  /** HEAD is not on a branch: gh's {@link NOT_ON_BRANCH_ERROR}. */
  | { readonly kind: 'not_on_branch' }
  /** A configuration whose reading by gh is not reproduced exactly: gh runs. */
  | { readonly kind: 'unmodelled' };

/** What {@link selectCurrentBranchPr} reads. */
export interface CurrentBranchInput {
  /** The current branch ({@link parseCurrentBranch}). */
  readonly branch: string;
  /** Its configuration ({@link parseBranchConfig}). */
  readonly config: BranchConfig;
  /** The git remotes (needed only when the configuration names a remote). */
  readonly remotes: readonly GitRemote[];
  /** The owner of the base repository (the selected one). */
  readonly baseOwner: string;
}

/** Whether {@link selectCurrentBranchPr} needs the git remotes for this configuration. */
export function needsRemotes(config: BranchConfig): boolean {
  return config.remoteUrl === undefined && config.remoteName !== undefined;
}

type Owner = { readonly kind: 'owner'; readonly owner: string | undefined } | 'unmodelled';

/**
 * The owner of the branch's push target: from a remote URL (gh's `git.ParseURL` then
 * `ghrepo.FromURL`, any host), or from the remote of that name (gh's remotes of known hosts:
 * only github.com is modelled). A URL or remote whose reading by gh is not reproduced is
 * `unmodelled`; a remote name git does not have gives no owner, as in gh.
 */
function branchOwner(config: BranchConfig, remotes: readonly GitRemote[]): Owner {
  if (config.remoteUrl !== undefined) {
    const url = config.remoteUrl;
    // Go's url.Parse and WHATWG URL agree on these forms; others (an upper-case scheme, which
    // gh's ParseURL reads as scp-like, `file:`, Windows paths) are not modelled.
    const modelled = url.includes('://') ? MODELLED_URL_SCHEME.test(url) : SCP_LIKE.test(url);
    const repo = modelled ? parseGitUrl(url) : undefined;
    return repo === undefined ? 'unmodelled' : { kind: 'owner', owner: repo.owner };
  }
  if (config.remoteName === undefined) return { kind: 'owner', owner: undefined };
  const remote = remotes.find((candidate) => candidate.name === config.remoteName);
  if (remote === undefined) return { kind: 'owner', owner: undefined };
  const repo =
    (remote.fetchUrl === undefined ? undefined : parseGitUrl(remote.fetchUrl)) ??
    (remote.pushUrl === undefined ? undefined : parseGitUrl(remote.pushUrl));
  // gh keeps only remotes of hosts it knows (hosts.yml, ssh aliases): github.com is modelled.
  if (repo?.host !== GITHUB_HOST) return 'unmodelled';
  return { kind: 'owner', owner: repo.owner };
}

/**
 * The current branch's PR selector, as gh v2.60's `parseCurrentBranch`. Pure.
 *
 * @example
 * ```ts
 * selectCurrentBranchPr({
 *   branch: 'fix',
 *   config: { remoteName: 'fork', mergeRef: 'refs/heads/fix-1' },
 *   remotes: [{ name: 'fork', fetchUrl: 'git@github.com:hubot/widgets.git' }],
 *   baseOwner: 'acme',
 * }); // { kind: 'branch', selector: 'hubot:fix-1' }
 * ```
 */
export function selectCurrentBranchPr(input: CurrentBranchInput): CurrentBranchSelection {
  const { config } = input;
  const pullRef = PR_HEAD_REF.exec(config.mergeRef);
  if (pullRef !== null) {
    const digits = pullRef[1] ?? '';
    const number = digits.length > MAX_NUMBER_DIGITS ? 0 : Number(digits);
    // refs/pull/0/head sends gh's finder on with an empty branch: not modelled.
    return number > 0 ? { kind: 'number', number } : { kind: 'unmodelled' };
  }
  const owner = branchOwner(config, input.remotes);
  if (owner === 'unmodelled') return { kind: 'unmodelled' };
  if (owner.owner === undefined) return { kind: 'branch', selector: input.branch };
  const branch = config.mergeRef.startsWith('refs/heads/')
    ? config.mergeRef.slice('refs/heads/'.length)
    : input.branch;
  if (branch === '') return { kind: 'unmodelled' };
  if (owner.owner.toLowerCase() === input.baseOwner.toLowerCase()) {
    return { kind: 'branch', selector: branch };
  }
  return { kind: 'branch', selector: `${owner.owner}:${branch}` };
}
