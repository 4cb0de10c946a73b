import { isFlagTrue, parsePublicationArgv, singleValue } from './publication-flag-grammar.js';
import type { PublicationFlagSpec } from './publication-flag-grammar.js';
import type {
  ArgvPart,
  ContentField,
  PublicationClassification,
  StructuralRefusalCode,
} from './publication-model.js';
import { UNMODELED } from './publication-model.js';

/** gh v2.60.0's `pr merge` flags (pkg/cmd/pr/merge/merge.go) and the persistent `-R`. */
const MERGE_FLAGS: readonly PublicationFlagSpec[] = [
  { long: 'repo', short: 'R', kind: 'string' },
  { long: 'admin', kind: 'bool' },
  { long: 'delete-branch', short: 'd', kind: 'bool' },
  { long: 'body', short: 'b', kind: 'string' },
  { long: 'body-file', short: 'F', kind: 'string' },
  { long: 'subject', short: 't', kind: 'string' },
  { long: 'merge', short: 'm', kind: 'bool' },
  { long: 'rebase', short: 'r', kind: 'bool' },
  { long: 'squash', short: 's', kind: 'bool' },
  { long: 'auto', kind: 'bool' },
  { long: 'disable-auto', kind: 'bool' },
  { long: 'match-head-commit', kind: 'string' },
  { long: 'author-email', short: 'A', kind: 'string' },
];

/** The flags an exact-head squash merge may carry. */
const EXACT_HEAD_FLAGS = new Set([
  'repo',
  'body',
  'body-file',
  'subject',
  'squash',
  'match-head-commit',
]);

/** A full commit sha as the merge endpoint's `sha` takes it: 40 lowercase hex digits. */
export const FULL_SHA = /^[0-9a-f]{40}$/;
const OWNER = '[A-Za-z0-9][A-Za-z0-9-]{0,38}';
const NAME = '(?!\\.\\.?$)[A-Za-z0-9._-]{1,100}';
const REPO_FLAG = new RegExp(`^(?:github\\.com/)?(${OWNER})/(${NAME})$`);
const PR_URL = new RegExp(`^https://github\\.com/(${OWNER})/(${NAME})/pull/([1-9][0-9]{0,18})/?$`);
const PR_NUMBER = /^[1-9][0-9]{0,18}$/;

function refused(code: StructuralRefusalCode): PublicationClassification {
  return { kind: 'refused', code };
}

/** The pull request's `owner/name` and number, from `-R` and a number, or from a PR URL. */
function locate(
  selector: string | undefined,
  repo: string | undefined | null,
): { repo: string; number: string } | null {
  if (selector === undefined || repo === null) return null;
  if (repo === undefined) {
    const url = PR_URL.exec(selector);
    return url === null ? null : { repo: `${url[1] ?? ''}/${url[2] ?? ''}`, number: url[3] ?? '' };
  }
  const flag = REPO_FLAG.exec(repo);
  if (flag === null || !PR_NUMBER.test(selector)) return null;
  return { repo: `${flag[1] ?? ''}/${flag[2] ?? ''}`, number: selector };
}

/**
 * Classifies `gh pr merge` argv (SPEC.md client rule 16): `pr merge … --squash
 * --match-head-commit <sha>` is the exact-head squash merge, converted to the immediate merge
 * endpoint — `gh api --silent --method PUT repos/OWNER/REPO/pulls/N/merge -f
 * merge_method=squash -f sha=<sha>` plus `-F commit_title=@<snapshot>` (`--subject`) and
 * `-F commit_message=@<snapshot>` (`--body`, `--body-file`) — so that the forge merges exactly
 * that head or nothing, now (no auto-merge, no merge queue). gh's own non-TTY `pr merge` prints
 * nothing on success, and `--silent` keeps it so.
 *
 * Decisions: an exact-head squash merge whose sha is not 40 lowercase hex digits, whose pull
 * request is not a number with `-R OWNER/REPO` (or a pull request URL), or which adds any other
 * flag (`--admin`, `--auto`, `--delete-branch`, `--author-email`, another method) is refused —
 * never run as gh's own merge, which would not be the exact-head endpoint. Every other
 * `pr merge` (no `--match-head-commit`, or not `--squash`) is not modeled: best effort.
 *
 * @param argv - gh's argv (`pr merge …`)
 */
export function classifyExactHeadMerge(argv: readonly string[]): PublicationClassification {
  if (argv[0] !== 'pr' || argv[1] !== 'merge') return UNMODELED;
  const parsed = parsePublicationArgv(argv, 2, MERGE_FLAGS);
  if (parsed === null) return UNMODELED;
  const sha = singleValue(parsed, 'match-head-commit');
  if (sha === undefined || !isFlagTrue(parsed, 'squash')) return UNMODELED;
  if (sha === null || !FULL_SHA.test(sha)) return refused('exact_head_merge_sha');
  const extra = parsed.occurrences.some(
    ({ spec, value }) =>
      !EXACT_HEAD_FLAGS.has(spec.long) || (spec.long === 'squash' && value !== 'true'),
  );
  const subject = singleValue(parsed, 'subject');
  const body = singleValue(parsed, 'body');
  const bodyFile = singleValue(parsed, 'body-file');
  if (extra || subject === null || body === null || bodyFile === null) {
    return refused('exact_head_merge_shape');
  }
  if (body !== undefined && bodyFile !== undefined) return refused('exact_head_merge_shape');
  if (parsed.positionals.length !== 1) return refused('exact_head_merge_repository');
  const target = locate(parsed.positionals[0]?.value, singleValue(parsed, 'repo'));
  if (target === null) return refused('exact_head_merge_repository');

  const parts: ArgvPart[] = [
    { kind: 'fixed', value: 'api' },
    { kind: 'fixed', value: '--silent' },
    { kind: 'fixed', value: '--method' },
    { kind: 'fixed', value: 'PUT' },
    { kind: 'literal', value: `repos/${target.repo}/pulls/${target.number}/merge` },
    { kind: 'fixed', value: '-f' },
    { kind: 'fixed', value: 'merge_method=squash' },
    { kind: 'fixed', value: '-f' },
    { kind: 'literal', value: `sha=${sha}` },
  ];
  const fields: ContentField[] = [];
  if (subject !== undefined) {
    fields.push({ name: 'subject', source: { kind: 'inline', value: subject } });
    parts.push(
      { kind: 'fixed', value: '-F' },
      { kind: 'snapshot', field: 0, prefix: 'commit_title=@' },
    );
  }
  const message = body ?? bodyFile;
  if (message !== undefined) {
    const source =
      body !== undefined
        ? ({ kind: 'inline', value: body } as const)
        : message === '-'
          ? ({ kind: 'stdin' } as const)
          : ({ kind: 'file', path: message } as const);
    const field = fields.push({ name: 'body', source }) - 1;
    parts.push(
      { kind: 'fixed', value: '-F' },
      { kind: 'snapshot', field, prefix: 'commit_message=@' },
    );
  }
  return { kind: 'modeled', plan: { kind: 'pr merge', parts, fields, assets: [], merge: true } };
}
