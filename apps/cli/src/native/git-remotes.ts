import type { CliDependencies } from '../cli-dependencies.js';
import { GIT_REMOTE_CONFIG_ARGS, parseGitRemoteConfig } from './argv/git-remote-config.js';
import type { GitRemote } from './argv/repo-selector.js';

/**
 * Reads the working directory's git remotes (`git config --get-regexp …` in the current
 * directory); none when git is missing or this is not a repository. A module of its own, so
 * that `relay native api` reads the remotes without loading the dispatcher and its gh tables.
 */
export async function readGitRemotes(deps: CliDependencies): Promise<GitRemote[]> {
  try {
    const result = await deps.runProcess('git', GIT_REMOTE_CONFIG_ARGS, { env: deps.env });
    if (result.code !== 0) return [];
    return parseGitRemoteConfig(Buffer.from(result.stdout).toString('utf8'));
  } catch {
    return [];
  }
}
