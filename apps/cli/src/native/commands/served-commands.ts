import type { ServedCommandName } from '../argv/gh-command-table.js';
import type { ServedCommandLoader } from './served-command.js';

/**
 * The command modules `relay native` serves, by command name. A served shape whose command
 * has no entry here runs the native gh (`not_yet_served`); serving `pr view` is adding
 * `pr-view.ts` beside this file and one line here.
 */
export const SERVED_COMMANDS: Readonly<Partial<Record<ServedCommandName, ServedCommandLoader>>> = {
  api: async () => (await import('./api.js')).API_COMMAND,
  'gist list': async () => (await import('./gist-list.js')).GIST_LIST_COMMAND,
  'gist view': async () => (await import('./gist-view.js')).GIST_VIEW_COMMAND,
  'issue list': async () => (await import('./issue-list.js')).ISSUE_LIST_COMMAND,
  'issue view': async () => (await import('./issue-view.js')).ISSUE_VIEW_COMMAND,
  'label list': async () => (await import('./label-list.js')).LABEL_LIST_COMMAND,
  'pr checks': async () => (await import('./pr-checks.js')).PR_CHECKS_COMMAND,
  'pr diff': async () => (await import('./pr-diff.js')).PR_DIFF_COMMAND,
  'pr list': async () => (await import('./pr-list.js')).PR_LIST_COMMAND,
  'pr view': async () => (await import('./pr-view.js')).PR_VIEW_COMMAND,
  'release list': async () => (await import('./release-list.js')).RELEASE_LIST_COMMAND,
  'repo view': async () => (await import('./repo-view.js')).REPO_VIEW_COMMAND,
  'search code': async () => (await import('./search-code.js')).SEARCH_CODE_COMMAND,
  'search commits': async () => (await import('./search-commits.js')).SEARCH_COMMITS_COMMAND,
  'search issues': async () => (await import('./search-issues.js')).SEARCH_ISSUES_COMMAND,
  'search prs': async () => (await import('./search-prs.js')).SEARCH_PRS_COMMAND,
  'search repos': async () => (await import('./search-repos.js')).SEARCH_REPOS_COMMAND,
  'run list': async () => (await import('./run-list.js')).RUN_LIST_COMMAND,
  'run view': async () => (await import('./run-view.js')).RUN_VIEW_COMMAND,
  'run watch': async () => (await import('./run-watch.js')).RUN_WATCH_COMMAND,
  'workflow list': async () => (await import('./workflow-list.js')).WORKFLOW_LIST_COMMAND,
  'workflow view': async () => (await import('./workflow-view.js')).WORKFLOW_VIEW_COMMAND,
  'release view': async () => (await import('./release-view.js')).RELEASE_VIEW_COMMAND,
};
