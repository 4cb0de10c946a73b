/**
 * The data of a modeled publication (SPEC.md client rule 16): what the native gh is about to
 * publish, as a template of its argv with holes for the content the policy rewrites. Built by
 * pure classifiers (`publication-commands.ts`, `publication-raw-rest.ts`,
 * `merge-exact-head.ts`), sanitized by `publication-content.ts`, run by
 * `publication-dispatch.ts`.
 */

/** Where a content text comes from. */
export type ContentSource =
  | { readonly kind: 'inline'; readonly value: string }
  /** A file named on the command line (`--body-file path`, `-F key=@path`). */
  | { readonly kind: 'file'; readonly path: string }
  /** Standard input (`--body-file -`). */
  | { readonly kind: 'stdin' };

/** One content text of a publication: rewritten by the policy before gh sees it. */
export interface ContentField {
  /** What it is, for messages: `title`, `body`, `notes`, `asset label`, `field body`, … */
  readonly name: string;
  readonly source: ContentSource;
}

/**
 * One token of the argv the native gh runs:
 * - `literal`: a token of the user's argv (or built from it: a path, a sha), checked against
 *   the policy and passed as is;
 * - `fixed`: relay's own vocabulary (`--body-file`, `api`, `--method`), passed as is;
 * - `inline`: `prefix` + the sanitized text of `field` in one token (`--title=…`);
 * - `snapshot`: `prefix` + the path of the private snapshot file of `field` (`body=@/tmp/…`).
 */
export type ArgvPart =
  | { readonly kind: 'literal'; readonly value: string }
  | { readonly kind: 'fixed'; readonly value: string }
  | { readonly kind: 'inline'; readonly field: number; readonly prefix: string }
  | { readonly kind: 'snapshot'; readonly field: number; readonly prefix: string };

/** A release asset named on the command line (`path` or `path#label`). */
export interface AssetReference {
  /** The file path (before `#`). */
  readonly path: string;
  /** The name the asset gets on the forge: the path's last element. */
  readonly basename: string;
}

/** Which modeled publication a plan is. */
export type PublicationKind =
  | 'issue create'
  | 'issue edit'
  | 'issue comment'
  | 'pr create'
  | 'pr edit'
  | 'pr comment'
  | 'pr review'
  | 'release create'
  | 'release edit'
  | 'release upload'
  | 'api'
  | 'pr merge';

/** A modeled publication: the argv template, its content and its assets. */
export interface PublicationPlan {
  readonly kind: PublicationKind;
  readonly parts: readonly ArgvPart[];
  readonly fields: readonly ContentField[];
  readonly assets: readonly AssetReference[];
  /**
   * Set for the exact-head squash merge: the native gh runs `gh api` against the immediate
   * merge endpoint, the final PR-merge dispatch of client rule 13.
   */
  readonly merge?: true;
}

/** Why a publication shape is refused outright (SPEC.md client rule 16's structural rules). */
export type StructuralRefusalCode =
  | 'release_create_requires_draft_and_verify_tag'
  | 'release_create_shape'
  | 'exact_head_merge_sha'
  | 'exact_head_merge_repository'
  | 'exact_head_merge_shape';

/** The verdict of a classifier on one gh argv. */
export type PublicationClassification =
  | { readonly kind: 'modeled'; readonly plan: PublicationPlan }
  | { readonly kind: 'refused'; readonly code: StructuralRefusalCode }
  /** Not a modeled shape: the best-effort path (client rule 16, "unmodeled native commands"). */
  | { readonly kind: 'unmodeled' };

/** The classification of anything not modeled. */
export const UNMODELED: PublicationClassification = { kind: 'unmodeled' };

/** Messages of {@link StructuralRefusalCode} (no content in them). */
export const STRUCTURAL_REFUSAL_MESSAGES: Readonly<Record<StructuralRefusalCode, string>> = {
  release_create_requires_draft_and_verify_tag:
    'refused: release create needs --draft and --verify-tag (a protected release is created as a draft of an existing tag)',
  release_create_shape:
    'refused: release create runs only in its modeled shape (a tag, assets, known flags, no prompts, one title and one notes source)',
  exact_head_merge_sha:
    'refused: --match-head-commit needs a full lowercase 40-hex commit sha for an exact-head squash merge',
  exact_head_merge_repository:
    'refused: an exact-head squash merge needs a pull request number with -R OWNER/REPO, or a pull request URL',
  exact_head_merge_shape:
    'refused: an exact-head squash merge takes only --squash, --match-head-commit, --subject, --body, --body-file and -R',
};
