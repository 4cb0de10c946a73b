/**
 * Why a `relay native` invocation needs no string-rewrite policy (SPEC.md client rule 15):
 * - `empty`: `relay native` with no argument (gh prints its usage);
 * - `help`: exactly one of `--help`, `-h`, `help`;
 * - `version`: exactly one of `--version`, `version`;
 * - `topic_help`: gh's built-in help topics, `help <topic>`, `<topic>`, `<topic> --help|-h`;
 * - `auth_bootstrap`: `auth login`, `auth status`, `auth token` (with any flags), which must
 *   work before a relay login exists (`relay login` needs gh's own login first).
 */
export type ExemptionReason = 'empty' | 'help' | 'version' | 'topic_help' | 'auth_bootstrap';

/** Whether an invocation is protected by the outbound string guard. */
export type InvocationProtection =
  { readonly kind: 'protected' } | { readonly kind: 'exempt'; readonly reason: ExemptionReason };

/** gh v2.60.0's help topics (pkg/cmd/root/help_topic.go): static text, no network. */
export const GH_HELP_TOPICS: readonly string[] = [
  'mintty',
  'environment',
  'reference',
  'formatting',
  'exit-codes',
];

/**
 * The `gh auth` verbs needed to bootstrap: `login` (gh's own login, before `relay login` can
 * read its token), `status` and `token` (inspect it). Narrow on purpose: `logout`, `refresh`,
 * `switch` and `setup-git` change state and are not needed before a relay login.
 */
export const AUTH_BOOTSTRAP_VERBS: readonly string[] = ['login', 'status', 'token'];

const HELP_FLAGS = ['--help', '-h'];
const PROTECTED: InvocationProtection = { kind: 'protected' };

function exempt(reason: ExemptionReason): InvocationProtection {
  return { kind: 'exempt', reason };
}

/**
 * Classifies one `relay native <gh argv>` invocation: every invocation is protected except the
 * exemptions of {@link ExemptionReason}, matched on exact tokens (no abbreviations, no flags
 * before the command; anything else is protected, the safe side).
 *
 * @param argv - gh's argv, exactly as given to `relay native`
 * @example
 * ```ts
 * classifyNativeInvocation(['--version']); // { kind: 'exempt', reason: 'version' }
 * classifyNativeInvocation(['issue', 'create', '--body', 'x']); // { kind: 'protected' }
 * ```
 */
export function classifyNativeInvocation(argv: readonly string[]): InvocationProtection {
  const [first, second] = argv;
  if (first === undefined) return exempt('empty');
  if (argv.length === 1) {
    if (first === 'help' || HELP_FLAGS.includes(first)) return exempt('help');
    if (first === '--version' || first === 'version') return exempt('version');
    if (GH_HELP_TOPICS.includes(first)) return exempt('topic_help');
    return PROTECTED;
  }
  if (argv.length === 2 && second !== undefined) {
    if (first === 'help' && GH_HELP_TOPICS.includes(second)) return exempt('topic_help');
    if (GH_HELP_TOPICS.includes(first) && HELP_FLAGS.includes(second)) return exempt('topic_help');
  }
  if (first === 'auth' && second !== undefined && AUTH_BOOTSTRAP_VERBS.includes(second)) {
    return exempt('auth_bootstrap');
  }
  return PROTECTED;
}
