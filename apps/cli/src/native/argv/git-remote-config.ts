import type { GitRemote } from './repo-selector.js';

/** The `git config` call that lists the remotes the repository resolver reads. */
export const GIT_REMOTE_CONFIG_ARGS: readonly string[] = [
  'config',
  '--get-regexp',
  '^remote\\..*\\.(url|pushurl|gh-resolved)$',
];

/**
 * Parses the output of `git config --get-regexp '^remote\..*\.(url|pushurl|gh-resolved)$'`
 * (`remote.<name>.<key> <value>` lines, names may contain dots) into remotes in first-seen
 * order; the first `url`/`pushurl` of a remote counts, as in `git remote -v`.
 */
export function parseGitRemoteConfig(text: string): GitRemote[] {
  const remotes = new Map<
    string,
    { name: string; fetchUrl?: string; pushUrl?: string; resolved?: string }
  >();
  for (const line of text.split('\n')) {
    const match = /^remote\.(.+)\.(url|pushurl|gh-resolved) (.*)$/i.exec(line.trimEnd());
    if (match === null) continue;
    const [, name = '', key = '', value = ''] = match;
    let remote = remotes.get(name);
    if (remote === undefined) {
      remote = { name };
      remotes.set(name, remote);
    }
    const lower = key.toLowerCase();
    if (lower === 'url') remote.fetchUrl ??= value;
    else if (lower === 'pushurl') remote.pushUrl ??= value;
    else remote.resolved = value;
  }
  return [...remotes.values()];
}
