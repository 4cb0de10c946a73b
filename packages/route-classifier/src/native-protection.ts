import { isLogin, isNumericId, isRepoName } from './param-patterns.js';

/**
 * The subresources of `/repos/{owner}/{repo}/branches/{branch}/protection` that SPEC.md rule 10
 * recognizes (and answers `local_credentials_required`). No other protection suffix is admitted.
 */
export const BRANCH_PROTECTION_SUBRESOURCES = [
  'enforce_admins',
  'required_status_checks',
  'required_status_checks/contexts',
  'required_pull_request_reviews',
  'required_signatures',
  'restrictions',
  'restrictions/apps',
  'restrictions/teams',
  'restrictions/users',
] as const;

/** One subresource of a branch protection. */
export type BranchProtectionSubresource = (typeof BRANCH_PROTECTION_SUBRESOURCES)[number];

/** The route kinds of the native-protection shapes. */
export type NativeProtectionKind =
  'branch_protection' | 'repo_ruleset_list' | 'repo_ruleset_view' | 'branch_rules';

/** A path that has one of the native-protection shapes of SPEC.md rule 10. */
export interface NativeProtectionMatch {
  readonly kind: NativeProtectionKind;
  readonly owner: string;
  readonly repo: string;
  /** The branch as it appears in the path (percent-encoding kept), when the shape has one. */
  readonly branch: string | undefined;
  /** The ruleset id of `repo_ruleset_view`. */
  readonly rulesetId: string | undefined;
  /** The protection subresource, when the path names one. */
  readonly subresource: BranchProtectionSubresource | undefined;
}

// Longest suffixes first, so that `restrictions/apps` is not read as branch `…/restrictions`.
const SUFFIXES: readonly (readonly string[])[] = [
  ...BRANCH_PROTECTION_SUBRESOURCES.map((sub) => sub.split('/')).sort(
    (a, b) => b.length - a.length,
  ),
  [],
];

/**
 * Matches the native-protection shapes on the raw segments of a path (the path split on '/',
 * without the empty first element). The branch may span several segments and may hold `%2F`;
 * its structure is checked by the path validator.
 */
export function matchNativeProtectionShape(
  segments: readonly string[],
): NativeProtectionMatch | undefined {
  const [root, owner, repo, resource] = segments;
  if (root !== 'repos' || owner === undefined || repo === undefined || resource === undefined) {
    return undefined;
  }
  if (!isLogin(owner) || !isRepoName(repo)) return undefined;
  const base = { owner, repo, branch: undefined, rulesetId: undefined, subresource: undefined };
  if (resource === 'rulesets') {
    if (segments.length === 4) return { ...base, kind: 'repo_ruleset_list' };
    const id = segments[4];
    if (segments.length === 5 && id !== undefined && isNumericId(id)) {
      return { ...base, kind: 'repo_ruleset_view', rulesetId: id };
    }
    return undefined;
  }
  if (resource === 'rules') {
    if (segments[4] !== 'branches' || segments.length < 6) return undefined;
    return { ...base, kind: 'branch_rules', branch: segments.slice(5).join('/') };
  }
  if (resource !== 'branches') return undefined;
  for (const suffix of SUFFIXES) {
    const tail = ['protection', ...suffix];
    const branchEnd = segments.length - tail.length;
    if (branchEnd < 5) continue;
    if (tail.every((literal, index) => segments[branchEnd + index] === literal)) {
      return {
        ...base,
        kind: 'branch_protection',
        branch: segments.slice(4, branchEnd).join('/'),
        subresource:
          suffix.length === 0 ? undefined : (suffix.join('/') as BranchProtectionSubresource),
      };
    }
  }
  return undefined;
}
