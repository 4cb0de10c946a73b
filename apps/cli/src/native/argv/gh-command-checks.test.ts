import { describe, expect, it } from 'vitest';
import { formatRepoFormatError } from './gh-command-checks.js';
import { planNativeInvocation } from './native-plan.js';
import type { NativePlanContext } from './native-plan.js';

const PIPE: NativePlanContext = {
  env: {},
  stdoutIsTTY: false,
  gitRemotes: [{ name: 'origin', fetchUrl: 'git@github.com:acme/widgets.git' }],
};

/**
 * gh's stderr for refused command lines, byte for byte as gh 2.23.0 (Debian) prints them
 * (`GH_TOKEN=x gh <argv>`, exit 1). The checks, their wording and order, and the usage of these
 * commands are the same in gh v2.60.0 (read from its source), the reference.
 */
const GH_REFUSALS: readonly (readonly [readonly string[], string])[] = [
  [
    ['pr', 'list', '-dL'],
    'flag needs an argument: \'L\' in -L\n\nUsage:  gh pr list [flags]\n\nFlags:\n      --app string        Filter by GitHub App author\n  -a, --assignee string   Filter by assignee\n  -A, --author string     Filter by author\n  -B, --base string       Filter by base branch\n  -d, --draft             Filter by draft state\n  -H, --head string       Filter by head branch\n  -q, --jq expression     Filter JSON output using a jq expression\n      --json fields       Output JSON with the specified fields\n  -l, --label strings     Filter by label\n  -L, --limit int         Maximum number of items to fetch (default 30)\n  -S, --search query      Search pull requests with query\n  -s, --state string      Filter by state: {open|closed|merged|all} (default "open")\n  -t, --template string   Format JSON output using a Go template; see "gh help formatting"\n  -w, --web               List pull requests in the web browser\n  \n',
  ],
  [
    ['pr', 'list', 'a', 'b', '-L', '5'],
    'unknown arguments ["a" "b"]; please quote all values that have spaces\n\nUsage:  gh pr list [flags]\n\nFlags:\n      --app string        Filter by GitHub App author\n  -a, --assignee string   Filter by assignee\n  -A, --author string     Filter by author\n  -B, --base string       Filter by base branch\n  -d, --draft             Filter by draft state\n  -H, --head string       Filter by head branch\n  -q, --jq expression     Filter JSON output using a jq expression\n      --json fields       Output JSON with the specified fields\n  -l, --label strings     Filter by label\n  -L, --limit int         Maximum number of items to fetch (default 30)\n  -S, --search query      Search pull requests with query\n  -s, --state string      Filter by state: {open|closed|merged|all} (default "open")\n  -t, --template string   Format JSON output using a Go template; see "gh help formatting"\n  -w, --web               List pull requests in the web browser\n  \n',
  ],
  [
    ['issue', 'list', 'a', '--web'],
    'unknown argument "a"\n\nUsage:  gh issue list [flags]\n\nFlags:\n      --app string         Filter by GitHub App author\n  -a, --assignee string    Filter by assignee\n  -A, --author string      Filter by author\n  -q, --jq expression      Filter JSON output using a jq expression\n      --json fields        Output JSON with the specified fields\n  -l, --label strings      Filter by label\n  -L, --limit int          Maximum number of issues to fetch (default 30)\n      --mention string     Filter by mention\n  -m, --milestone string   Filter by milestone number or title\n  -S, --search query       Search issues with query\n  -s, --state string       Filter by state: {open|closed|all} (default "open")\n  -t, --template string    Format JSON output using a Go template; see "gh help formatting"\n  -w, --web                List issues in the web browser\n  \n',
  ],
  [
    ['label', 'list', 'x'],
    'unknown command "x" for "gh label list"\n\nUsage:  gh label list [flags]\n\nFlags:\n  -q, --jq expression     Filter JSON output using a jq expression\n      --json fields       Output JSON with the specified fields\n  -L, --limit int         Maximum number of labels to fetch (default 30)\n      --order string      Order of labels returned: {asc|desc} (default "asc")\n  -S, --search string     Search label names and descriptions\n      --sort string       Sort fetched labels: {created|name} (default "created")\n  -t, --template string   Format JSON output using a Go template; see "gh help formatting"\n  -w, --web               List labels in the web browser\n  \n',
  ],
  [
    ['pr', 'list', '--limit', '0x0'],
    'invalid value for --limit: 0\n\nUsage:  gh pr list [flags]\n\nFlags:\n      --app string        Filter by GitHub App author\n  -a, --assignee string   Filter by assignee\n  -A, --author string     Filter by author\n  -B, --base string       Filter by base branch\n  -d, --draft             Filter by draft state\n  -H, --head string       Filter by head branch\n  -q, --jq expression     Filter JSON output using a jq expression\n      --json fields       Output JSON with the specified fields\n  -l, --label strings     Filter by label\n  -L, --limit int         Maximum number of items to fetch (default 30)\n  -S, --search query      Search pull requests with query\n  -s, --state string      Filter by state: {open|closed|merged|all} (default "open")\n  -t, --template string   Format JSON output using a Go template; see "gh help formatting"\n  -w, --web               List pull requests in the web browser\n  \n',
  ],
  [
    ['issue', 'list', '-L', '-0x5'],
    'invalid limit: -5\n\nUsage:  gh issue list [flags]\n\nFlags:\n      --app string         Filter by GitHub App author\n  -a, --assignee string    Filter by assignee\n  -A, --author string      Filter by author\n  -q, --jq expression      Filter JSON output using a jq expression\n      --json fields        Output JSON with the specified fields\n  -l, --label strings      Filter by label\n  -L, --limit int          Maximum number of issues to fetch (default 30)\n      --mention string     Filter by mention\n  -m, --milestone string   Filter by milestone number or title\n  -S, --search query       Search issues with query\n  -s, --state string       Filter by state: {open|closed|all} (default "open")\n  -t, --template string    Format JSON output using a Go template; see "gh help formatting"\n  -w, --web                List issues in the web browser\n  \n',
  ],
  [
    ['label', 'list', '--search', 'x', '--sort', 'name'],
    'cannot specify `--order` or `--sort` with `--search`\n\nUsage:  gh label list [flags]\n\nFlags:\n  -q, --jq expression     Filter JSON output using a jq expression\n      --json fields       Output JSON with the specified fields\n  -L, --limit int         Maximum number of labels to fetch (default 30)\n      --order string      Order of labels returned: {asc|desc} (default "asc")\n  -S, --search string     Search label names and descriptions\n      --sort string       Sort fetched labels: {created|name} (default "created")\n  -t, --template string   Format JSON output using a Go template; see "gh help formatting"\n  -w, --web               List labels in the web browser\n  \n',
  ],
  [
    ['pr', 'view', '-R', 'acme/w'],
    'argument required when using the --repo flag\n\nUsage:  gh pr view [<number> | <url> | <branch>] [flags]\n\nFlags:\n  -c, --comments          View pull request comments\n  -q, --jq expression     Filter JSON output using a jq expression\n      --json fields       Output JSON with the specified fields\n  -t, --template string   Format JSON output using a Go template; see "gh help formatting"\n  -w, --web               Open a pull request in the browser\n  \n',
  ],
  [
    ['pr', 'diff', '-R', 'acme/w'],
    'argument required when using the `--repo` flag\n\nUsage:  gh pr diff [<number> | <url> | <branch>] [flags]\n\nFlags:\n      --color string   Use color in diff output: {always|never|auto} (default "auto")\n      --name-only      Display only names of changed files\n      --patch          Display diff in patch format\n  -w, --web            Open the pull request diff in the browser\n  \n',
  ],
  [['pr', 'diff', '1', '--color', 'Never'], 'unsupported color "Never"\n'],
  [['pr', 'view', '1', '2'], 'accepts at most 1 arg(s), received 2\n'],
  [['issue', 'view'], 'accepts 1 arg(s), received 0\n'],
  [['pr', 'view', '--jq', '.x', '1'], 'cannot use `--jq` without specifying `--json`\n'],
  [
    ['pr', 'list', '--author', 'a', '--app', 'b'],
    'specify only `--author` or `--app`\n\nUsage:  gh pr list [flags]\n\nFlags:\n      --app string        Filter by GitHub App author\n  -a, --assignee string   Filter by assignee\n  -A, --author string     Filter by author\n  -B, --base string       Filter by base branch\n  -d, --draft             Filter by draft state\n  -H, --head string       Filter by head branch\n  -q, --jq expression     Filter JSON output using a jq expression\n      --json fields       Output JSON with the specified fields\n  -l, --label strings     Filter by label\n  -L, --limit int         Maximum number of items to fetch (default 30)\n  -S, --search query      Search pull requests with query\n  -s, --state string      Filter by state: {open|closed|merged|all} (default "open")\n  -t, --template string   Format JSON output using a Go template; see "gh help formatting"\n  -w, --web               List pull requests in the web browser\n  \n',
  ],
  [
    ['issue', 'list', '-s', 'merged'],
    'invalid argument "merged" for "-s, --state" flag: valid values are {open|closed|all}\n\nUsage:  gh issue list [flags]\n\nFlags:\n      --app string         Filter by GitHub App author\n  -a, --assignee string    Filter by assignee\n  -A, --author string      Filter by author\n  -q, --jq expression      Filter JSON output using a jq expression\n      --json fields        Output JSON with the specified fields\n  -l, --label strings      Filter by label\n  -L, --limit int          Maximum number of issues to fetch (default 30)\n      --mention string     Filter by mention\n  -m, --milestone string   Filter by milestone number or title\n  -S, --search query       Search issues with query\n  -s, --state string       Filter by state: {open|closed|all} (default "open")\n  -t, --template string    Format JSON output using a Go template; see "gh help formatting"\n  -w, --web                List issues in the web browser\n  \n',
  ],
  [
    ['pr', 'list', '--draft=maybe'],
    'invalid argument "maybe" for "-d, --draft" flag: strconv.ParseBool: parsing "maybe": invalid syntax\n\nUsage:  gh pr list [flags]\n\nFlags:\n      --app string        Filter by GitHub App author\n  -a, --assignee string   Filter by assignee\n  -A, --author string     Filter by author\n  -B, --base string       Filter by base branch\n  -d, --draft             Filter by draft state\n  -H, --head string       Filter by head branch\n  -q, --jq expression     Filter JSON output using a jq expression\n      --json fields       Output JSON with the specified fields\n  -l, --label strings     Filter by label\n  -L, --limit int         Maximum number of items to fetch (default 30)\n  -S, --search query      Search pull requests with query\n  -s, --state string      Filter by state: {open|closed|merged|all} (default "open")\n  -t, --template string   Format JSON output using a Go template; see "gh help formatting"\n  -w, --web               List pull requests in the web browser\n  \n',
  ],
  [
    ['pr', 'list', '-L', '99999999999999999999'],
    'invalid argument "99999999999999999999" for "-L, --limit" flag: strconv.ParseInt: parsing "99999999999999999999": value out of range\n\nUsage:  gh pr list [flags]\n\nFlags:\n      --app string        Filter by GitHub App author\n  -a, --assignee string   Filter by assignee\n  -A, --author string     Filter by author\n  -B, --base string       Filter by base branch\n  -d, --draft             Filter by draft state\n  -H, --head string       Filter by head branch\n  -q, --jq expression     Filter JSON output using a jq expression\n      --json fields       Output JSON with the specified fields\n  -l, --label strings     Filter by label\n  -L, --limit int         Maximum number of items to fetch (default 30)\n  -S, --search query      Search pull requests with query\n  -s, --state string      Filter by state: {open|closed|merged|all} (default "open")\n  -t, --template string   Format JSON output using a Go template; see "gh help formatting"\n  -w, --web               List pull requests in the web browser\n  \n',
  ],
  [
    ['repo', 'view', '-b'],
    'flag needs an argument: \'b\' in -b\n\nUsage:  gh repo view [<repository>] [flags]\n\nFlags:\n  -b, --branch string     View a specific branch of the repository\n  -q, --jq expression     Filter JSON output using a jq expression\n      --json fields       Output JSON with the specified fields\n  -t, --template string   Format JSON output using a Go template; see "gh help formatting"\n  -w, --web               Open a repository in the browser\n  \n',
  ],
  [['pr', 'list', '-R', 'a/b/c/d'], 'expected the "[HOST/]OWNER/REPO" format, got "a/b/c/d"\n'],
  [
    ['repo', 'view', 'a//b'],
    'argument error: expected the "[HOST/]OWNER/REPO" format, got "a//b"\n',
  ],
];

describe('gh’s refusals of a served command line, printed by the planner', () => {
  it.each(GH_REFUSALS)('%j', (argv, stderr) => {
    expect(planNativeInvocation(argv, PIPE)).toMatchObject({ kind: 'fail', exitCode: 1, stderr });
  });
});

describe('formatRepoFormatError: go-gh’s repository.Parse', () => {
  it.each<[string, string | undefined]>([
    ['acme/widgets', undefined],
    ['github.com/acme/widgets', undefined],
    ['widgets', 'expected the "[HOST/]OWNER/REPO" format, got "widgets"'],
    ['a/b/c/d', 'expected the "[HOST/]OWNER/REPO" format, got "a/b/c/d"'],
    ['a/b/c/d/e', 'expected the "[HOST/]OWNER/REPO" format, got "a/b/c/d/e"'],
    ['/acme/widgets', 'expected the "[HOST/]OWNER/REPO" format, got "/acme/widgets"'],
    ['acme/', 'expected the "[HOST/]OWNER/REPO" format, got "acme/"'],
    ['x://a/b', 'expected the "[HOST/]OWNER/REPO" format, got "x://a/b"'],
    // URLs are go-gh's to word; non-ASCII text is Go's to quote.
    ['https://github.com/acme', undefined],
    ['git@github.com:acme', undefined],
    ['ẃidgets', undefined],
  ])('%j → %j', (value, message) => {
    expect(formatRepoFormatError(value)).toBe(message);
  });
});
