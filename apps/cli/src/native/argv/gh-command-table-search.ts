/**
 * The flag tables of gh's search and gist reads that `relay native` serves (`search issues`,
 * `search prs`, `search repos`, `search code`, `search commits`, `gist view`, `gist list`), read
 * from cli/cli v2.60.0's `pkg/cmd/search/{issues,prs,repos,code,commits}` and
 * `pkg/cmd/gist/{view,list}`.
 * `gh-command-table.ts` spreads them into its `SERVED_COMMAND_FLAGS`; this module imports
 * only types from it (no import cycle at load).
 *
 * The search commands' `-R/--repo` is a string-slice *filter* (`repo:` qualifiers), not gh's
 * repository override: `repoOverride` is false, and none of these commands selects a
 * repository.
 */
import type { GhCommandSpec, GhFlagSpec, GhFlagType } from './gh-command-table.js';

/** The search and gist commands `relay native` serves. */
export type SearchCommandName =
  | 'search issues'
  | 'search prs'
  | 'search repos'
  | 'search code'
  | 'search commits'
  | 'gist view'
  | 'gist list';

interface Shape {
  readonly short?: string;
  readonly type: GhFlagType;
  readonly usage: string;
  readonly defaultValue: string;
  readonly values?: readonly string[];
}

const declare = (name: string, shape: Shape): GhFlagSpec => ({
  name,
  ...shape,
  takesValue: shape.type !== 'bool' && shape.type !== 'nilBool',
  repeatable: shape.type === 'stringSlice',
});
const shortOf = (short: string | undefined) => (short === undefined ? {} : { short });

/** `BoolVarP(…, false, usage)`. */
const bool = (name: string, short: string | undefined, usage: string): GhFlagSpec =>
  declare(name, { ...shortOf(short), type: 'bool', usage, defaultValue: 'false' });
/** gh's `cmdutil.NilBoolFlag` (pflag shows it as a boolean). */
const nilBool = (name: string, usage: string): GhFlagSpec =>
  declare(name, { type: 'nilBool', usage, defaultValue: 'false' });
/** `StringVarP(…, "", usage)`. */
const text = (name: string, short: string | undefined, usage: string): GhFlagSpec =>
  declare(name, { ...shortOf(short), type: 'string', usage, defaultValue: '' });
/** `StringSliceVarP(…, nil, usage)`. */
const list = (name: string, short: string | undefined, usage: string): GhFlagSpec =>
  declare(name, { ...shortOf(short), type: 'stringSlice', usage, defaultValue: '[]' });
/**
 * gh's `cmdutil.StringSliceEnumFlag`: pflag shows it as `strings` with no default (its empty
 * `DefValue` is a zero value, written `[]` here as for every slice). Parsed as a string slice
 * (gh's own value check is not reproduced: any use of these qualifier flags runs gh).
 */
const listOf = (name: string, values: readonly string[], usage: string): GhFlagSpec =>
  declare(name, {
    type: 'stringSlice',
    usage: `${usage}: {${values.join('|')}}`,
    defaultValue: '[]',
  });
/** gh's `cmdutil.StringEnumFlag`. */
const oneOf = (
  name: string,
  fallback: string,
  values: readonly string[],
  usage: string,
): GhFlagSpec =>
  declare(name, {
    type: 'enum',
    usage: `${usage}: {${values.join('|')}}`,
    defaultValue: fallback,
    values,
  });
/** `IntVarP(…, "limit", "L", 30, usage)`. */
const limit = (usage: string, defaultValue = '30'): GhFlagSpec =>
  declare('limit', { short: 'L', type: 'int', usage, defaultValue });

/** `--json`, `-q/--jq`, `-t/--template` (gh's `AddJSONFlags`). */
const SEARCH_JSON_FLAGS: readonly GhFlagSpec[] = [
  list('json', undefined, 'Output JSON with the specified `fields`'),
  text('jq', 'q', 'Filter JSON output using a jq `expression`'),
  text('template', 't', 'Format JSON output using a Go template; see "gh help formatting"'),
];

const WEB = bool('web', 'w', 'Open the search query in the web browser');
const REPO_FILTER = list('repo', 'R', 'Filter on repository');
const VISIBILITIES = ['public', 'private', 'internal'] as const;
const ORDERS = ['asc', 'desc'] as const;

/** cobra's `ArbitraryArgs` (the search commands set no `Args`): any number of keywords. */
const ANY_ARGS = { kind: 'at_most', count: Number.MAX_SAFE_INTEGER } as const;

/** The issue qualifier flags `search issues` and `search prs` share. */
const ISSUE_QUALIFIER_FLAGS: readonly GhFlagSpec[] = [
  text('app', undefined, 'Filter by GitHub App author'),
  nilBool('archived', 'Filter based on the repository archived state {true|false}'),
  text('assignee', undefined, 'Filter by assignee'),
  text('author', undefined, 'Filter by author'),
  text('closed', undefined, 'Filter on closed at `date`'),
  text('commenter', undefined, 'Filter based on comments by `user`'),
  text('comments', undefined, 'Filter on `number` of comments'),
  text('created', undefined, 'Filter based on created at `date`'),
  listOf('match', ['title', 'body', 'comments'], 'Restrict search to specific field of issue'),
  text('interactions', undefined, 'Filter on `number` of reactions and comments'),
  text('involves', undefined, 'Filter based on involvement of `user`'),
  listOf('visibility', VISIBILITIES, 'Filter based on repository visibility'),
  list('label', undefined, 'Filter on label'),
  text('language', undefined, 'Filter based on the coding language'),
  bool('locked', undefined, 'Filter on locked conversation status'),
  text('mentions', undefined, 'Filter based on `user` mentions'),
  text('milestone', undefined, 'Filter by milestone `title`'),
  bool('no-assignee', undefined, 'Filter on missing assignee'),
  bool('no-label', undefined, 'Filter on missing label'),
  bool('no-milestone', undefined, 'Filter on missing milestone'),
  bool('no-project', undefined, 'Filter on missing project'),
  text('project', undefined, 'Filter on project board `owner/number`'),
  text('reactions', undefined, 'Filter on `number` of reactions'),
  REPO_FILTER,
  oneOf('state', '', ['open', 'closed'], 'Filter based on state'),
  text('team-mentions', undefined, 'Filter based on team mentions'),
  text('updated', undefined, 'Filter on last updated at `date`'),
  list('owner', undefined, 'Filter on repository owner'),
];

/**
 * The flags and arguments of the served search and gist commands, as gh v2.60 declares them
 * (`--help` is inherited and added by the planner; none has gh's `-R` override).
 */
export const SEARCH_COMMAND_FLAGS: Readonly<Record<SearchCommandName, GhCommandSpec>> = {
  'search issues': {
    use: 'issues [<query>]',
    flags: [
      ...SEARCH_JSON_FLAGS,
      WEB,
      limit('Maximum number of results to fetch'),
      oneOf(
        'order',
        'desc',
        ORDERS,
        "Order of results returned, ignored unless '--sort' flag is specified",
      ),
      oneOf(
        'sort',
        'best-match',
        [
          'comments',
          'created',
          'interactions',
          'reactions',
          'reactions-+1',
          'reactions--1',
          'reactions-heart',
          'reactions-smile',
          'reactions-tada',
          'reactions-thinking_face',
          'updated',
        ],
        'Sort fetched results',
      ),
      bool('include-prs', undefined, 'Include pull requests in results'),
      ...ISSUE_QUALIFIER_FLAGS,
    ],
    args: ANY_ARGS,
    repoOverride: false,
  },
  'search prs': {
    use: 'prs [<query>]',
    flags: [
      ...SEARCH_JSON_FLAGS,
      WEB,
      limit('Maximum number of results to fetch'),
      oneOf(
        'order',
        'desc',
        ORDERS,
        "Order of results returned, ignored unless '--sort' flag is specified",
      ),
      oneOf(
        'sort',
        'best-match',
        [
          'comments',
          'reactions',
          'reactions-+1',
          'reactions--1',
          'reactions-smile',
          'reactions-thinking_face',
          'reactions-heart',
          'reactions-tada',
          'interactions',
          'created',
          'updated',
        ],
        'Sort fetched results',
      ),
      ...ISSUE_QUALIFIER_FLAGS,
      text('base', 'B', 'Filter on base branch name'),
      nilBool('draft', 'Filter based on draft state'),
      text('head', 'H', 'Filter on head branch name'),
      text('merged-at', undefined, 'Filter on merged at `date`'),
      bool('merged', undefined, 'Filter based on merged state'),
      oneOf(
        'review',
        '',
        ['none', 'required', 'approved', 'changes_requested'],
        'Filter based on review status',
      ),
      text('review-requested', undefined, 'Filter on `user` or team requested to review'),
      text('reviewed-by', undefined, 'Filter on `user` who reviewed'),
      oneOf(
        'checks',
        '',
        ['pending', 'success', 'failure'],
        'Filter based on status of the checks',
      ),
    ],
    args: ANY_ARGS,
    repoOverride: false,
  },
  'search repos': {
    use: 'repos [<query>]',
    flags: [
      ...SEARCH_JSON_FLAGS,
      WEB,
      limit('Maximum number of repositories to fetch'),
      oneOf(
        'order',
        'desc',
        ORDERS,
        "Order of repositories returned, ignored unless '--sort' flag is specified",
      ),
      oneOf(
        'sort',
        'best-match',
        ['forks', 'help-wanted-issues', 'stars', 'updated'],
        'Sort fetched repositories',
      ),
      nilBool('archived', 'Filter based on the repository archived state {true|false}'),
      text('created', undefined, 'Filter based on created at `date`'),
      text('followers', undefined, 'Filter based on `number` of followers'),
      oneOf(
        'include-forks',
        '',
        ['false', 'true', 'only'],
        'Include forks in fetched repositories',
      ),
      text('forks', undefined, 'Filter on `number` of forks'),
      text(
        'good-first-issues',
        undefined,
        "Filter on `number` of issues with the 'good first issue' label",
      ),
      text(
        'help-wanted-issues',
        undefined,
        "Filter on `number` of issues with the 'help wanted' label",
      ),
      listOf(
        'match',
        ['name', 'description', 'readme'],
        'Restrict search to specific field of repository',
      ),
      listOf('visibility', VISIBILITIES, 'Filter based on visibility'),
      text('language', undefined, 'Filter based on the coding language'),
      list('license', undefined, 'Filter based on license type'),
      text('updated', undefined, 'Filter on last updated at `date`'),
      text('size', undefined, 'Filter on a size range, in kilobytes'),
      text('stars', undefined, 'Filter on `number` of stars'),
      list('topic', undefined, 'Filter on topic'),
      text('number-topics', undefined, 'Filter on `number` of topics'),
      list('owner', undefined, 'Filter on owner'),
    ],
    args: ANY_ARGS,
    repoOverride: false,
  },
  'search code': {
    use: 'code <query>',
    flags: [
      ...SEARCH_JSON_FLAGS,
      WEB,
      limit('Maximum number of code results to fetch'),
      text('extension', undefined, 'Filter on file extension'),
      text('filename', undefined, 'Filter on filename'),
      listOf('match', ['file', 'path'], 'Restrict search to file contents or file path'),
      text('language', undefined, 'Filter results by language'),
      REPO_FILTER,
      text('size', undefined, 'Filter on size range, in kilobytes'),
      list('owner', undefined, 'Filter on owner'),
    ],
    args: ANY_ARGS,
    repoOverride: false,
  },
  'search commits': {
    use: 'commits [<query>]',
    flags: [
      ...SEARCH_JSON_FLAGS,
      WEB,
      limit('Maximum number of commits to fetch'),
      oneOf(
        'order',
        'desc',
        ORDERS,
        "Order of commits returned, ignored unless '--sort' flag is specified",
      ),
      oneOf('sort', 'best-match', ['author-date', 'committer-date'], 'Sort fetched commits'),
      text('author', undefined, 'Filter by author'),
      text('author-date', undefined, 'Filter based on authored `date`'),
      text('author-email', undefined, 'Filter on author email'),
      text('author-name', undefined, 'Filter on author name'),
      text('committer', undefined, 'Filter by committer'),
      text('committer-date', undefined, 'Filter based on committed `date`'),
      text('committer-email', undefined, 'Filter on committer email'),
      text('committer-name', undefined, 'Filter on committer name'),
      text('hash', undefined, 'Filter by commit hash'),
      nilBool('merge', 'Filter on merge commits'),
      text('parent', undefined, 'Filter by parent hash'),
      REPO_FILTER,
      text('tree', undefined, 'Filter by tree hash'),
      list('owner', undefined, 'Filter on repository owner'),
      listOf('visibility', VISIBILITIES, 'Filter based on repository visibility'),
    ],
    args: ANY_ARGS,
    repoOverride: false,
  },
  'gist view': {
    use: 'view [<id> | <url>]',
    flags: [
      bool('raw', 'r', 'Print raw instead of rendered gist contents'),
      bool('web', 'w', 'Open gist in the browser'),
      bool('files', undefined, 'List file names from the gist'),
      text('filename', 'f', 'Display a single file from the gist'),
    ],
    args: { kind: 'at_most', count: 1 },
    repoOverride: false,
  },
  'gist list': {
    use: 'list',
    flags: [
      limit('Maximum number of gists to fetch', '10'),
      bool('public', undefined, 'Show only public gists'),
      bool('secret', undefined, 'Show only secret gists'),
      text('filter', undefined, 'Filter gists using a regular `expression`'),
      bool('include-content', undefined, "Include gists' file content when filtering"),
    ],
    args: { kind: 'none' },
    repoOverride: false,
  },
};

/**
 * Whether a served command acts on no repository (the search and gist reads): the planner
 * selects none (the search commands' `-R` is a filter, GH_REPO and the git remotes do not
 * matter to gh there) and reads no git remotes for it.
 */
export function selectsNoRepository(command: string): boolean {
  return Object.hasOwn(SEARCH_COMMAND_FLAGS, command);
}
