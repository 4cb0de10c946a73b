import { err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';

/** The forge host the relay serves. */
export const GITHUB_HOST = 'github.com';

/** A repository as gh names it: host, owner, name. */
export interface GhRepository {
  /** Normalized host (lower case, no `www.`, `*.github.com` → `github.com`). */
  readonly host: string;
  readonly owner: string;
  readonly name: string;
}

/** One git remote of the working directory, as `git config` lists it. */
export interface GitRemote {
  readonly name: string;
  /** `remote.<name>.url`. */
  readonly fetchUrl?: string;
  /** `remote.<name>.pushurl`, used when the fetch URL does not name a repository. */
  readonly pushUrl?: string;
  /** `remote.<name>.gh-resolved` (`base` or `OWNER/REPO`, written by `gh repo set-default`). */
  readonly resolved?: string;
}

/** Where the selected repository came from, in gh's order. */
export type RepoSource = 'flag' | 'argument' | 'GH_REPO' | 'git_remote';

/** A selected repository and its source. */
export interface RepoSelection {
  readonly repo: GhRepository;
  readonly source: RepoSource;
}

/** Why no repository could be selected the way gh would (gh itself prints an error then). */
export type RepoSelectionError =
  | { readonly code: 'invalid_repo'; readonly value: string }
  | { readonly code: 'no_git_remotes' }
  | { readonly code: 'no_matching_remote'; readonly host: string };

/** What the resolver reads: the `-R` value, the environment, the working directory's remotes. */
export interface RepoSelectorInput {
  /** The last `-R/--repo` value, when given. */
  readonly flag?: string;
  /** The environment (GH_REPO, GH_HOST). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The git remotes of the working directory, in `git config` order. */
  readonly remotes: readonly GitRemote[];
}

/** gh's host normalization (`ghinstance.NormalizeHostname`). */
export function normalizeHost(host: string): string {
  const lower = host.toLowerCase().replace(/^www\./, '');
  return lower.endsWith(`.${GITHUB_HOST}`) ? GITHUB_HOST : lower;
}

/** The default host for a bare `OWNER/REPO`: GH_HOST, else github.com. */
export function defaultHost(env: Readonly<Record<string, string | undefined>>): string {
  // Verbatim, as gh's config reads it (the planner hands a GH_HOST with spaces to gh).
  const host = env.GH_HOST;
  return host === undefined || host === '' ? GITHUB_HOST : normalizeHost(host);
}

const SCP_LIKE = /^([\w.-]+@)?([\w.-]+):(?!\/\/)(.*)$/;

/** Whether `value` is a URL in git's sense (gh's `git.IsURL`): `scheme://…` or `user@host:path`. */
function isGitUrl(value: string): boolean {
  return value.includes('://') || /^[\w.-]+@[\w.-]+:/.test(value);
}

/**
 * Parses a git URL (`https://github.com/o/r.git`, `ssh://git@github.com/o/r`,
 * `git@github.com:o/r.git`, `git://…`) into a repository: its path must be exactly
 * `OWNER/REPO` (a trailing `.git` dropped), as gh's `ghrepo.FromURL` requires.
 */
export function parseGitUrl(url: string): GhRepository | undefined {
  let host: string;
  let path: string;
  if (url.includes('://')) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    host = parsed.hostname;
    path = decodeURIComponent(parsed.pathname);
  } else {
    const match = SCP_LIKE.exec(url);
    if (match === null) return undefined;
    host = match[2] ?? '';
    path = match[3] ?? '';
  }
  if (host === '') return undefined;
  const parts = path.replace(/^\/+|\/+$/g, '').split('/');
  if (parts.length !== 2) return undefined;
  const [owner = '', rawName = ''] = parts;
  const name = rawName.endsWith('.git') ? rawName.slice(0, -4) : rawName;
  if (owner === '' || name === '') return undefined;
  return { host: normalizeHost(host), owner, name };
}

/**
 * Parses a repository as `-R/--repo` and GH_REPO take it (go-gh `repository.Parse`):
 * `OWNER/REPO` (on the default host), `HOST/OWNER/REPO`, or a URL.
 *
 * @returns the repository, or `undefined` when gh would reject the value
 */
export function parseRepoSelector(
  value: string,
  env: Readonly<Record<string, string | undefined>>,
): GhRepository | undefined {
  if (isGitUrl(value)) return parseGitUrl(value);
  const parts = value.split('/');
  if (parts.some((part) => part === '')) return undefined;
  if (parts.length === 2) {
    const [owner = '', name = ''] = parts;
    return { host: defaultHost(env), owner, name };
  }
  if (parts.length === 3) {
    const [host = '', owner = '', name = ''] = parts;
    return { host: normalizeHost(host), owner, name };
  }
  return undefined;
}

/** gh's remote ranking: `upstream`, then `github`, then `origin`, then the rest. */
function remoteRank(name: string): number {
  switch (name.toLowerCase()) {
    case 'upstream':
      return 3;
    case 'github':
      return 2;
    case 'origin':
      return 1;
    default:
      return 0;
  }
}

interface RepoRemote {
  readonly remote: GitRemote;
  readonly repo: GhRepository;
}

/**
 * The repository gh picks from the git remotes when it cannot prompt: remotes naming a
 * repository (fetch URL, else push URL), ranked `upstream` > `github` > `origin` > others (a
 * stable sort: ties keep git's order); with GH_HOST set only remotes on that host; a remote
 * marked `gh-resolved` wins (`base` = its own repository, `OWNER/REPO` = that repository on
 * the remote's host); else the first.
 */
export function selectRemoteRepository(
  remotes: readonly GitRemote[],
  env: Readonly<Record<string, string | undefined>>,
): Result<GhRepository, RepoSelectionError> {
  const named: RepoRemote[] = [];
  for (const remote of remotes) {
    const repo =
      (remote.fetchUrl === undefined ? undefined : parseGitUrl(remote.fetchUrl)) ??
      (remote.pushUrl === undefined ? undefined : parseGitUrl(remote.pushUrl));
    if (repo !== undefined) named.push({ remote, repo });
  }
  if (named.length === 0) return err({ code: 'no_git_remotes' });
  const ranked = named
    .map((entry, position) => ({ entry, position }))
    .sort(
      (a, b) =>
        remoteRank(b.entry.remote.name) - remoteRank(a.entry.remote.name) ||
        a.position - b.position,
    )
    .map(({ entry }) => entry);
  const hostVariable = env.GH_HOST;
  const candidates =
    hostVariable === undefined || hostVariable === ''
      ? ranked
      : ranked.filter(({ repo }) => repo.host === normalizeHost(hostVariable));
  if (candidates.length === 0) {
    return err({ code: 'no_matching_remote', host: normalizeHost(hostVariable ?? '') });
  }
  for (const { remote, repo } of candidates) {
    const resolved = remote.resolved?.trim();
    if (resolved === undefined || resolved === '') continue;
    if (resolved === 'base') return ok(repo);
    const [owner = '', name = '', ...rest] = resolved.split('/');
    if (owner === '' || name === '' || rest.length > 0) {
      return err({ code: 'invalid_repo', value: resolved });
    }
    return ok({ host: repo.host, owner, name });
  }
  const first = candidates[0];
  return first === undefined ? err({ code: 'no_git_remotes' }) : ok(first.repo);
}

/**
 * Selects the repository a gh command acts on, in gh's order: `-R/--repo`, else GH_REPO,
 * else the git remotes ({@link selectRemoteRepository}). Pure: the environment and the
 * remotes are data.
 *
 * @example
 * ```ts
 * selectRepository({ flag: 'acme/widgets', env: {}, remotes: [] });
 * // { ok: true, value: { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, source: 'flag' } }
 * ```
 */
export function selectRepository(
  input: RepoSelectorInput,
): Result<RepoSelection, RepoSelectionError> {
  const explicit =
    input.flag !== undefined && input.flag !== ''
      ? { value: input.flag, source: 'flag' as const }
      : input.env.GH_REPO !== undefined && input.env.GH_REPO !== ''
        ? { value: input.env.GH_REPO, source: 'GH_REPO' as const }
        : undefined;
  if (explicit !== undefined) {
    const repo = parseRepoSelector(explicit.value, input.env);
    if (repo === undefined) return err({ code: 'invalid_repo', value: explicit.value });
    return ok({ repo, source: explicit.source });
  }
  const remote = selectRemoteRepository(input.remotes, input.env);
  return remote.ok ? ok({ repo: remote.value, source: 'git_remote' }) : remote;
}
