import { Command, Option } from 'clipanion';
import type { CliDependencies } from '../cli-dependencies.js';
import { RelayCommand } from '../relay-command.js';

/** `relay native api <path>`: gh api, read through the relay. */
export class NativeApiCommand extends RelayCommand {
  static override paths = [['native', 'api']];

  static override usage = Command.Usage({
    category: 'Native CLI',
    description: 'gh api, with GET reads served by the relay',
    details: `
      Takes gh api's arguments (--paginate, --slurp, --jq, -H, -X, -f, -F, --field,
      --raw-field, …). GET reads with accept, x-github-api-version, if-none-match,
      if-modified-since or cache-control headers are relayed and printed exactly as gh 2.60
      prints them when stdout is not a terminal: with -X GET, -f/-F fields become the query
      string; {owner}, {repo} and {branch} are filled from GH_REPO or the git remotes and the
      current branch; pagination follows Link rel="next" for up to 10 pages; --jq runs the
      system jq and prints its results as gh does; an HTTP error prints the body and gh's
      message. Other methods, fields without -X GET, secret-looking query keys, other headers,
      other flags (-i, -t, --input, …), a terminal, longer or unprovable page sets, jq
      expressions gh's gojq runs differently, --jq without a jq on PATH, and reads the relay
      answers with fallback_local run the real gh (RELAY_NATIVE_CLI, else the first gh on PATH)
      with your own credentials. RELAY_NO_FALLBACK=1 turns a relay fallback into a failure;
      RELAY_RETRIES (default 2) retries transient answers after 1 s, then 3 s.
    `,
    examples: [
      ['A repository', '$0 native api repos/acme/widgets'],
      [
        'Every open issue title',
        "$0 native api repos/acme/widgets/issues --paginate --jq '.[].title'",
      ],
      [
        'Search with query fields',
        "$0 native api -X GET search/issues -f q='repo:acme/widgets is:open'",
      ],
      ['The current repository', '$0 native api repos/{owner}/{repo}'],
      ['The login probe (no forge quota)', '$0 native api user --jq .login'],
    ],
  });

  args = Option.Proxy();

  override async run(deps: CliDependencies): Promise<number> {
    const { runNativeApi } = await import('../native-api-runner.js');
    return runNativeApi(deps, this.context, this.args);
  }
}
