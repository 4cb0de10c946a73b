import type { DemoStack } from './demo-stack.ts';
import { DEMO_NAMES } from './demo-stack.ts';
import type { CliRun } from './relay-cli-runner.ts';
import {
  formatEnvelopeSummary,
  formatForgeRequests,
  parseCliErrorLine,
  quoteShellArgument,
  summarizeEnvelope,
} from './tour-format.ts';
import type { EnvelopeSummary } from './tour-format.ts';

/** Writes one line of the tour's output. */
export type TourPrinter = (line: string) => void;

/** How one step of the tour went. */
export interface TourStepResult {
  readonly title: string;
  /** What the step expected and did not see; empty when the step behaved as described. */
  readonly failures: readonly string[];
}

/** What a step can do: run the CLI (printed), look at the forge log, check an outcome. */
interface StepTools {
  readonly stack: DemoStack;
  /** Runs the built CLI, printing `$ relay …` (with `shown` in place of the args) and its output. */
  relay(
    args: readonly string[],
    options?: {
      readonly env?: Readonly<Record<string, string>>;
      readonly stdin?: string;
      readonly shown?: string;
      /** Print this instead of the raw output (for long JSON). */
      readonly summarize?: (run: CliRun) => readonly string[];
    },
  ): Promise<CliRun>;
  /** Marks the request log, so that {@link forgeSince} lists what a step sent upstream. */
  markForge(): number;
  /** Prints what the simulated GitHub saw since `mark`, and returns the count. */
  forgeSince(mark: number): number;
  /** Records a failure unless `condition` holds. */
  expect(condition: boolean, what: string): void;
}

interface TourStep {
  readonly title: string;
  readonly explain: string;
  run(tools: StepTools): Promise<void>;
}

const INDENT = '    ';
const REPO_PATH = `/repos/${DEMO_NAMES.publicRepo}`;

function indent(text: string): string[] {
  const lines = text.replace(/\n$/, '').split('\n');
  return lines.length === 1 && lines[0] === '' ? [] : lines.map((line) => INDENT + line);
}

function envelopeOf(run: CliRun): EnvelopeSummary | undefined {
  if (run.code !== 0) return undefined;
  try {
    return summarizeEnvelope(JSON.parse(run.stdout) as unknown);
  } catch {
    return undefined;
  }
}

function envelopeLines(run: CliRun): readonly string[] {
  const summary = envelopeOf(run);
  return summary === undefined
    ? [...indent(run.stdout), ...indent(run.stderr)]
    : [INDENT + formatEnvelopeSummary(summary)];
}

function expectRefusal(tools: StepTools, run: CliRun, code: string, reason?: string): void {
  const error = parseCliErrorLine(run.stderr);
  tools.expect(run.code === 1, `the CLI exits 1 (got ${String(run.code)})`);
  tools.expect(error?.code === code, `error code ${code} (got ${error?.code ?? 'none'})`);
  if (reason !== undefined) {
    tools.expect(error?.reason === reason, `reason ${reason} (got ${error?.reason ?? 'none'})`);
  }
}

function pullLines(run: CliRun): readonly string[] {
  try {
    const pulls = JSON.parse(run.stdout) as unknown;
    if (!Array.isArray(pulls)) return indent(run.stdout);
    return pulls.map((pull: unknown) => {
      const { number, title, state, user } = pull as Record<string, unknown>;
      const login = (user as Record<string, unknown> | null)?.login;
      return `${INDENT}#${String(number)} ${String(title)} (${String(state)}, by ${String(login)})`;
    });
  } catch {
    return indent(run.stdout);
  }
}

const REWRITE_WORD = 'moonshot';

/** The tour of `pnpm demo`, in order. */
const TOUR: readonly TourStep[] = [
  {
    title: 'Register the pool: two PATs and a GitHub App installation',
    explain:
      'An operator registers pooled identities with the admin token. Only the name of each secret binding is sent; the tokens and the app private key stay in RELAY_SECRETS_DIR.',
    async run(tools) {
      const { app } = DEMO_NAMES;
      const identities = [
        ...DEMO_NAMES.pats.map((pat) => ({
          flags: {
            id: pat.id,
            kind: 'pat',
            login: pat.login,
            'secret-ref': pat.secretRef,
            scope: pat.scope,
          },
          shown: `registered ${pat.id}: pat ${pat.login}, scope ${pat.scope}`,
        })),
        {
          flags: {
            id: app.id,
            kind: 'forge_app',
            login: app.login,
            'secret-ref': app.secretRef,
            'installation-id': String(app.installationId),
            scope: DEMO_NAMES.publicRepo,
            weight: String(app.weight),
          },
          shown: `registered ${app.id}: forge_app installation ${String(app.installationId)}, scope ${DEMO_NAMES.publicRepo}, weight ${String(app.weight)}`,
        },
      ];
      for (const { flags, shown } of identities) {
        const args = ['admin', 'identity', '--pool', DEMO_NAMES.pool];
        for (const [name, value] of Object.entries(flags)) args.push(`--${name}`, value);
        const run = await tools.relay(args, {
          env: tools.stack.adminEnv,
          summarize: () => [INDENT + shown],
        });
        tools.expect(run.code === 0, `${flags.id} is registered (exit ${String(run.code)})`);
      }
    },
  },
  {
    title: 'Log in through the CLI',
    explain: `${DEMO_NAMES.caller} is a member of ${DEMO_NAMES.org}. \`relay login\` sends her own GitHub token (GH_TOKEN) once; the relay checks her membership with GitHub and returns a caller token that the CLI saves in RELAY_CONFIG_DIR/auth.json.`,
    async run(tools) {
      const mark = tools.markForge();
      const login = await tools.relay(
        ['login', tools.stack.server.url, '--client', DEMO_NAMES.callerClient],
        {
          env: tools.stack.loginEnv,
          shown: `GH_TOKEN=<${DEMO_NAMES.caller}'s simulated token> relay login ${tools.stack.server.url} --client ${DEMO_NAMES.callerClient}`,
        },
      );
      tools.expect(login.code === 0, `the login succeeds (exit ${String(login.code)})`);
      tools.forgeSince(mark);
      const whoami = await tools.relay(['whoami']);
      tools.expect(whoami.stdout.includes(DEMO_NAMES.caller), `whoami names ${DEMO_NAMES.caller}`);
    },
  },
  {
    title: 'A repository read: a miss',
    explain:
      'The first read is a cache miss. The relay proves the repository public, then reads it without spending any pooled quota (token-free, anonymous API) and stores the public answer in the shared cache.',
    async run(tools) {
      const mark = tools.markForge();
      const run = await tools.relay(['request', '--path', REPO_PATH], { summarize: envelopeLines });
      const upstream = tools.forgeSince(mark);
      tools.expect(envelopeOf(run)?.cache === 'miss', 'relay.cache is miss');
      tools.expect(upstream > 0, 'the miss reads from the simulated GitHub');
    },
  },
  {
    title: 'The same read again: a hit',
    explain:
      'Every caller of the pool now gets the cached answer: nothing reaches GitHub and no quota is spent.',
    async run(tools) {
      const mark = tools.markForge();
      const run = await tools.relay(['request', '--path', REPO_PATH], { summarize: envelopeLines });
      const upstream = tools.forgeSince(mark);
      tools.expect(envelopeOf(run)?.cache === 'hit', 'relay.cache is hit');
      tools.expect(upstream === 0, 'the hit sends nothing to the simulated GitHub');
    },
  },
  {
    title: 'A PR list through the gh drop-in, on a pooled identity',
    explain:
      'The simulator now reports the anonymous quota spent, so the relay selects a pooled identity for the read: the app installation (highest weight for this repository), which it authenticates with a short-lived JWT. `relay native api` prints exactly what `gh api` would.',
    async run(tools) {
      tools.stack.sim.rateLimits.exhaust({ anonymous: '127.0.0.1' });
      try {
        const mark = tools.markForge();
        const run = await tools.relay(
          ['native', 'api', `repos/${DEMO_NAMES.publicRepo}/pulls?state=all`],
          { summarize: pullLines },
        );
        tools.forgeSince(mark);
        tools.expect(run.code === 0, `the PR list succeeds (exit ${String(run.code)})`);
        tools.expect(
          pullLines(run).some((line) => line.startsWith(`${INDENT}#`)),
          'it lists pull requests',
        );
        const pooled = tools.stack.sim.requests
          .find({ path: `${REPO_PATH}/pulls` })
          .filter((entry) => entry.seq > mark && entry.status === 200);
        tools.expect(
          pooled.length > 0 && pooled.every((entry) => entry.credential !== 'anonymous'),
          'a pooled identity read the list',
        );
      } finally {
        tools.stack.sim.rateLimits.reset();
      }
    },
  },
  {
    title: 'A private repository is refused',
    explain: `${DEMO_NAMES.privateRepo} is private. The relay never serves it with pooled credentials: it answers 424 fallback_local (reason repo_not_public), and \`relay native …\` would run the real gh with the caller's own token instead (here RELAY_NO_FALLBACK=1 shows the answer).`,
    async run(tools) {
      const run = await tools.relay(['request', '--path', `/repos/${DEMO_NAMES.privateRepo}`]);
      expectRefusal(tools, run, 'fallback_local', 'repo_not_public');
    },
  },
  {
    title: 'A protection route is answered locally',
    explain:
      'Branch protection is only readable with admin rights, which pooled identities must not lend. The relay answers 424 fallback_local (reason local_credentials_required) before any cache, probe or credential is used.',
    async run(tools) {
      const mark = tools.markForge();
      const run = await tools.relay(['request', '--path', `${REPO_PATH}/branches/main/protection`]);
      const upstream = tools.forgeSince(mark);
      expectRefusal(tools, run, 'fallback_local', 'local_credentials_required');
      tools.expect(upstream === 0, 'nothing reaches the simulated GitHub');
    },
  },
  {
    title: 'A string-rewrite rule blocks a request',
    explain: `The operator forbids the internal codename "${REWRITE_WORD}" deployment-wide. A request that carries it is refused with 403 string_rewrite_denied, before anything leaves for GitHub; the error names neither the pattern nor the match.`,
    async run(tools) {
      const policy = JSON.stringify({
        schema_version: 1,
        rules: [{ pattern: REWRITE_WORD, replacement: '[codename]' }],
      });
      const set = await tools.relay(['admin', 'string-rewrites', 'set', '--file', '-'], {
        env: tools.stack.adminEnv,
        stdin: policy,
        shown: `relay admin string-rewrites set --file - <<< '${policy}'`,
      });
      tools.expect(set.code === 0, `the policy is stored (exit ${String(set.code)})`);
      const mark = tools.markForge();
      const run = await tools.relay([
        'request',
        '--path',
        `/repos/${DEMO_NAMES.org}/${REWRITE_WORD}`,
      ]);
      const upstream = tools.forgeSince(mark);
      expectRefusal(tools, run, 'string_rewrite_denied');
      tools.expect(!run.stderr.includes(REWRITE_WORD), 'the error does not repeat the word');
      tools.expect(upstream === 0, 'nothing reaches the simulated GitHub');
    },
  },
  {
    title: 'Pool health',
    explain: 'Identity counts, the string-rewrite revision and the pool policy.',
    async run(tools) {
      const run = await tools.relay(['health']);
      tools.expect(run.code === 0, `health answers (exit ${String(run.code)})`);
      tools.expect(
        run.stdout.includes('identities: 3 total, 3 healthy'),
        'three healthy identities',
      );
      tools.expect(run.stdout.includes('string-rewrite revision: 2'), 'revision 2 after the PUT');
    },
  },
  {
    title: 'Pool statistics',
    explain:
      'What the tour did, from the audit log: requests, cache hit rates, upstream work by source, and the local fallbacks by reason.',
    async run(tools) {
      const run = await tools.relay(['stats']);
      tools.expect(run.code === 0, `stats answer (exit ${String(run.code)})`);
      tools.expect(/^requests\s+\d+/m.test(run.stdout), 'a request count');
      tools.expect(
        /repo_not_public\s+1/.test(run.stdout),
        'the repo_not_public fallback is counted',
      );
    },
  },
];

/**
 * Runs the scripted tour against a started {@link DemoStack}, printing each step: its title, a
 * short explanation, the CLI commands with their (summarized) output, what the simulated GitHub
 * saw, and whether the step behaved as described.
 *
 * @returns one result per step
 */
export async function runTour(
  stack: DemoStack,
  print: TourPrinter,
): Promise<readonly TourStepResult[]> {
  const results: TourStepResult[] = [];
  for (const [index, step] of TOUR.entries()) {
    const failures: string[] = [];
    print('');
    print(`── ${String(index + 1)}. ${step.title}`);
    print(step.explain);
    const tools: StepTools = {
      stack,
      async relay(args, options = {}) {
        print(`  $ ${options.shown ?? ['relay', ...args].map(quoteShellArgument).join(' ')}`);
        const run = await stack.cli(args, {
          ...(options.env === undefined ? {} : { env: options.env }),
          ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
        });
        const lines =
          run.code === 0 && options.summarize !== undefined
            ? options.summarize(run)
            : [...indent(run.stdout), ...indent(run.stderr)];
        for (const line of lines) print(line);
        return run;
      },
      markForge: () => stack.sim.requests.entries.at(-1)?.seq ?? 0,
      forgeSince(mark) {
        const entries = stack.sim.requests.entries.filter((entry) => entry.seq > mark);
        const lines = formatForgeRequests(entries, stack.credentialNames);
        if (lines.length === 1) print(`  simulated GitHub saw: ${lines[0] ?? ''}`);
        else
          for (const line of ['  simulated GitHub saw:', ...lines.map((l) => INDENT + l)])
            print(line);
        return entries.length;
      },
      expect(condition, what) {
        if (!condition) failures.push(what);
      },
    };
    try {
      await step.run(tools);
    } catch (error) {
      failures.push(`the step failed: ${error instanceof Error ? error.message : 'unknown error'}`);
    }
    print(
      failures.length === 0 ? '  ✓ as described' : `  ✗ not as described: ${failures.join('; ')}`,
    );
    results.push({ title: step.title, failures });
  }
  return results;
}
