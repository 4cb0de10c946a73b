/**
 * gh v2.60's usage blocks of the served commands whose own errors relay native prints (pflag's
 * FlagUsages after cobra's usage line), as the tests expect them after a flag error's message
 * and a blank line. Checked against the local gh 2.23 where its flags are the same.
 */

/** gh's usage of `pr list` (printed after its flag errors). */
export const PR_LIST_USAGE = [
  'Usage:  gh pr list [flags]',
  '',
  'Flags:',
  '      --app string        Filter by GitHub App author',
  '  -a, --assignee string   Filter by assignee',
  '  -A, --author string     Filter by author',
  '  -B, --base string       Filter by base branch',
  '  -d, --draft             Filter by draft state',
  '  -H, --head string       Filter by head branch',
  '  -q, --jq expression     Filter JSON output using a jq expression',
  '      --json fields       Output JSON with the specified fields',
  '  -l, --label strings     Filter by label',
  '  -L, --limit int         Maximum number of items to fetch (default 30)',
  '  -S, --search query      Search pull requests with query',
  '  -s, --state string      Filter by state: {open|closed|merged|all} (default "open")',
  '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
  '  -w, --web               List pull requests in the web browser',
  '  ',
  '',
].join('\n');

/** gh's usage of `label list`. */
export const LABEL_LIST_USAGE = [
  'Usage:  gh label list [flags]',
  '',
  'Flags:',
  '  -q, --jq expression     Filter JSON output using a jq expression',
  '      --json fields       Output JSON with the specified fields',
  '  -L, --limit int         Maximum number of labels to fetch (default 30)',
  '      --order string      Order of labels returned: {asc|desc} (default "asc")',
  '  -S, --search string     Search label names and descriptions',
  '      --sort string       Sort fetched labels: {created|name} (default "created")',
  '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
  '  -w, --web               List labels in the web browser',
  '  ',
  '',
].join('\n');

/** gh's usage of `run view` (v2.60 flags: `--attempt` is a uint64). */
export const RUN_VIEW_USAGE = [
  'Usage:  gh run view [<run-id>] [flags]',
  '',
  'Flags:',
  '  -a, --attempt uint      The attempt number of the workflow run',
  '      --exit-status       Exit with non-zero status if run failed',
  '  -j, --job string        View a specific job ID from a run',
  '  -q, --jq expression     Filter JSON output using a jq expression',
  '      --json fields       Output JSON with the specified fields',
  '      --log               View full log for either a run or specific job',
  '      --log-failed        View the log for any failed steps in a run or specific job',
  '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
  '  -v, --verbose           Show job steps',
  '  -w, --web               Open run in the browser',
  '  ',
  '',
].join('\n');

/**
 * gh's usage of `run list` (v2.60 flags: pkg/cmd/run/list/list.go; gh 2.23 prints the same
 * layout with fewer flags).
 */
export const RUN_LIST_USAGE = [
  'Usage:  gh run list [flags]',
  '',
  'Flags:',
  '  -a, --all               Include disabled workflows',
  '  -b, --branch string     Filter runs by branch',
  '  -c, --commit SHA        Filter runs by the SHA of the commit',
  '      --created date      Filter runs by the date it was created',
  '  -e, --event event       Filter runs by which event triggered the run',
  '  -q, --jq expression     Filter JSON output using a jq expression',
  '      --json fields       Output JSON with the specified fields',
  '  -L, --limit int         Maximum number of runs to fetch (default 20)',
  '  -s, --status string     Filter runs by status: {queued|completed|in_progress|requested|waiting|action_required|cancelled|failure|neutral|skipped|stale|startup_failure|success|timed_out}',
  '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
  '  -u, --user string       Filter runs by user who triggered the run',
  '  -w, --workflow string   Filter runs by workflow',
  '  ',
  '',
].join('\n');

/** gh's usage of `run watch` (the same in v2.60 and 2.23). */
export const RUN_WATCH_USAGE = [
  'Usage:  gh run watch <run-id> [flags]',
  '',
  'Flags:',
  '      --exit-status    Exit with non-zero status if run fails',
  '  -i, --interval int   Refresh interval in seconds (default 3)',
  '  ',
  '',
].join('\n');

/**
 * gh's usage of `workflow list` (v2.60 flags: pkg/cmd/workflow/list/list.go; gh 2.23 has no
 * JSON flags there).
 */
export const WORKFLOW_LIST_USAGE = [
  'Usage:  gh workflow list [flags]',
  '',
  'Flags:',
  '  -a, --all               Include disabled workflows',
  '  -q, --jq expression     Filter JSON output using a jq expression',
  '      --json fields       Output JSON with the specified fields',
  '  -L, --limit int         Maximum number of workflows to fetch (default 50)',
  '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
  '  ',
  '',
].join('\n');

/** gh's usage of `workflow view` (the same in v2.60 and 2.23). */
export const WORKFLOW_VIEW_USAGE = [
  'Usage:  gh workflow view [<workflow-id> | <workflow-name> | <filename>] [flags]',
  '',
  'Flags:',
  "  -r, --ref string   The branch or tag name which contains the version of the workflow file you'd like to view",
  '  -w, --web          Open workflow in the browser',
  '  -y, --yaml         View the workflow yaml file',
  '  ',
  '',
].join('\n');
