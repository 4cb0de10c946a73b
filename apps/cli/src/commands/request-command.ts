import { Command, Option } from 'clipanion';
import type { CliDependencies } from '../cli-dependencies.js';
import { RelayCommand } from '../relay-command.js';

/** `relay request`: the debug wrapper over POST /v1/forge/request. */
export class RequestCommand extends RelayCommand {
  static override paths = [['request']];

  static override usage = Command.Usage({
    description: 'Send one relay request and print the full envelope',
    details: `
      A debug wrapper over POST /v1/forge/request: prints the whole envelope (status, headers,
      body, identity, relay metadata) as JSON. No retries, no local fallback. Route hints:
      pr_head_sha=<sha> (40 or 64 hex digits) and pr_state=closed|merged|open. What the relay
      would refuse or drop is refused before sending: a secret-looking query key, a header
      other than the relay's allowlist.
    `,
    examples: [
      ['Read a repository', '$0 request --path /repos/acme/widgets'],
      [
        'With a query and a header',
        '$0 request --path /repos/acme/widgets/pulls --query state=all --header cache-control=max-age=0',
      ],
      [
        'PR files for a head',
        '$0 request --path /repos/acme/widgets/pulls/1/files --route-hint pr_head_sha=0123…',
      ],
    ],
  });

  apiPath = Option.String('--path', { required: true, description: 'The upstream API path' });
  method = Option.String('--method', 'GET', { description: 'The method (only GET is relayed)' });
  query = Option.Array('--query', [], { description: 'A query parameter k=v (repeatable)' });
  header = Option.Array('--header', [], {
    description:
      'A request header k=v (repeatable): accept, x-github-api-version (or x-forge-api-version), if-none-match, if-modified-since, cache-control',
  });
  routeHint = Option.Array('--route-hint', [], {
    description: 'pr_head_sha=<sha> or pr_state=open|closed|merged (repeatable)',
  });
  pool = Option.String('--pool', { description: 'The pool (default: the saved one)' });
  server = Option.String('--server', { description: 'Another relay URL (needs RELAY_TOKEN)' });
  tokenEnv = Option.String('--token-env', { description: 'Read the token from this variable' });

  override async run(deps: CliDependencies): Promise<number> {
    const { buildDebugRequest } = await import('../debug-request.js');
    const { loadCallerSession, postUnguardedForgeRequest } = await import('../caller-session.js');
    const { toReplyError } = await import('../relay-http.js');
    const session = await loadCallerSession(deps, {
      pool: this.pool,
      server: this.server,
      tokenEnv: this.tokenEnv,
    });
    const request = buildDebugRequest(session.auth.pool, {
      path: this.apiPath,
      method: this.method,
      query: this.query,
      header: this.header,
      routeHint: this.routeHint,
    });
    const reply = await postUnguardedForgeRequest(deps, session.auth, request);
    if (reply.kind !== 'ok') throw toReplyError(reply);
    this.context.stdout.write(`${JSON.stringify(reply.json, null, 2)}\n`);
    return 0;
  }
}
