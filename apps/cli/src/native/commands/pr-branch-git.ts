import type { CliDependencies } from '../../cli-dependencies.js';
import {
  GIT_CURRENT_BRANCH_ARGS,
  branchConfigArgs,
  needsRemotes,
  parseBranchConfig,
  parseCurrentBranch,
  selectCurrentBranchPr,
} from '../argv/current-branch-pr.js';
import type { CurrentBranchSelection } from '../argv/current-branch-pr.js';
import { GIT_REMOTE_CONFIG_ARGS, parseGitRemoteConfig } from '../argv/git-remote-config.js';
import type { GhRepository } from '../argv/repo-selector.js';

interface GitOutput {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs git in the working directory; `undefined` when it cannot start. */
async function runGit(
  deps: CliDependencies,
  args: readonly string[],
): Promise<GitOutput | undefined> {
  try {
    const result = await deps.runProcess('git', args, { env: deps.env });
    return {
      code: result.code,
      stdout: Buffer.from(result.stdout).toString('utf8'),
      stderr: Buffer.from(result.stderr).toString('utf8'),
    };
  } catch {
    return undefined;
  }
}

/**
 * The current branch's PR selector from git, as gh's finder reads it: `git symbolic-ref
 * --quiet HEAD` (a failure without stderr is gh's "not on any branch"; any other failure runs
 * gh), the branch's `remote`/`merge` configuration (a failing read is an empty one, as in gh),
 * and the git remotes only when the configuration names one
 * ({@link selectCurrentBranchPr} decides).
 *
 * @param repo - the base repository (its owner decides `owner:branch`)
 */
export async function readCurrentBranchSelection(
  deps: CliDependencies,
  repo: GhRepository,
): Promise<CurrentBranchSelection> {
  const head = await runGit(deps, GIT_CURRENT_BRANCH_ARGS);
  if (head === undefined || head.code === null) return { kind: 'unmodelled' };
  if (head.code !== 0) {
    return head.stderr === '' ? { kind: 'not_on_branch' } : { kind: 'unmodelled' };
  }
  const branch = parseCurrentBranch(head.stdout);
  if (branch === undefined) return { kind: 'unmodelled' };
  const configOutput = await runGit(deps, branchConfigArgs(branch));
  const config = parseBranchConfig(configOutput?.code === 0 ? configOutput.stdout : '');
  let remotes: ReturnType<typeof parseGitRemoteConfig> = [];
  if (needsRemotes(config)) {
    const listed = await runGit(deps, GIT_REMOTE_CONFIG_ARGS);
    if (listed?.code === 0) remotes = parseGitRemoteConfig(listed.stdout);
  }
  return selectCurrentBranchPr({ branch, config, remotes, baseOwner: repo.owner });
}
