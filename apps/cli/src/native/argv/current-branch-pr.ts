/**
 * The pull request gh's finder reads from the current branch without an API call (cli/cli
 * v2.60 `parseCurrentBranch`): when git's `branch.<name>.merge` is `refs/pull/<N>/head` (a
 * branch made by `gh pr checkout`), the PR is N of the base repository. Any other branch is
 * looked up by head name through GraphQL, which the relay does not reproduce.
 */

/** `git symbolic-ref --quiet HEAD` (gh's `CurrentBranch`). */
export const GIT_CURRENT_BRANCH_ARGS: readonly string[] = ['symbolic-ref', '--quiet', 'HEAD'];

/** The most digits of a served PR number (beyond, JavaScript numbers stop being exact). */
const MAX_NUMBER_DIGITS = 15;

const PR_HEAD_REF = /^refs\/pull\/(\d+)\/head$/;

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
  const line = stdout.split('\n')[0]?.replace(/\r$/, '') ?? '';
  const branch = line.startsWith('refs/heads/') ? line.slice('refs/heads/'.length) : line;
  return branch === '' ? undefined : branch;
}

/**
 * The PR number of a branch configuration (`branch.<name>.merge` = `refs/pull/<N>/head`, the
 * last `merge` line winning as in gh); `undefined` otherwise.
 */
export function pullNumberOfBranchConfig(stdout: string): number | undefined {
  let mergeRef = '';
  for (const line of stdout.split('\n')) {
    const space = line.indexOf(' ');
    if (space < 0) continue;
    const key = line.slice(0, space);
    if (key.split('.').at(-1) === 'merge') mergeRef = line.slice(space + 1);
  }
  const digits = PR_HEAD_REF.exec(mergeRef)?.[1];
  if (digits === undefined || digits.length > MAX_NUMBER_DIGITS) return undefined;
  const number = Number(digits);
  return number > 0 ? number : undefined;
}
