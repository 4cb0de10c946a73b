/**
 * Classifications per second over a realistic mix of relay paths, against find-my-way and Hono's
 * RegExpRouter loaded with the same route table, measured in the same run.
 *
 * Hono's RegExpRouter refuses this table (UnsupportedPathError: a literal beside a parameter
 * at the same depth, `/pulls/comments` beside `/pulls/:pull_number`, is ambiguous for it); the
 * run says so and measures Hono's TrieRouter (what Hono's SmartRouter falls back to) instead.
 *
 * The baselines only look a route up; they cannot express a multi-segment parameter followed
 * by literals (`/commits/{ref+}/statuses`), so they get the table with every parameter as one
 * segment (`:name`) and a trailing multi-segment parameter as a wildcard. `classify` does the
 * whole job: path rules, query and header rules, route table, search grammar, hints.
 *
 * Run: pnpm bench (node --conditions=@relay/source --import tsx bench/classify-bench.ts)
 */
import FindMyWay from 'find-my-way';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { TrieRouter } from 'hono/router/trie-router';
import { ROUTE_TABLE, classify, createRouteMatcher } from '../src/index.ts';

const R = '/repos/cli/cli';
const SHA = '6dcb09b5b57875f334f61aebed695e2e4193db5e';

// A mix shaped like `gh` traffic: repository, PR, issue, checks and runs reads dominate.
const MIX: readonly string[] = [
  R,
  R,
  `${R}/pulls/10234`,
  `${R}/pulls/10234`,
  `${R}/pulls`,
  `${R}/pulls/10234/files`,
  `${R}/pulls/10234/reviews`,
  `${R}/pulls/10234/comments`,
  `${R}/issues/9876`,
  `${R}/issues`,
  `${R}/issues/9876/comments`,
  `${R}/issues/9876/timeline`,
  `${R}/commits/${SHA}`,
  `${R}/commits/${SHA}/check-runs`,
  `${R}/commits/${SHA}/status`,
  `${R}/commits/trunk/check-suites`,
  `${R}/actions/runs`,
  `${R}/actions/runs/123456789`,
  `${R}/actions/runs/123456789/jobs`,
  `${R}/actions/jobs/987654321/logs`,
  `${R}/contents/pkg/cmd/root/root.go`,
  `${R}/contents/README.md`,
  `${R}/readme`,
  `${R}/branches/trunk`,
  `${R}/compare/trunk...feature/x`,
  `${R}/releases/latest`,
  `${R}/releases/tags/v2.60.0`,
  `${R}/labels`,
  `${R}/git/trees/trunk`,
  '/users/monalisa',
  '/users/monalisa/repos',
  '/orgs/github/repos',
  '/search/issues',
  '/rate_limit',
  '/gists/aa5a315d61ae9438b18d',
  `${R}/branches/trunk/protection`,
  '/orgs/github',
  '/user/repos',
];

const POLICY = { allow_search: true, allow_logs: true };
const SEARCH_QUERY = { q: 'repo:cli/cli crash type:pr state:open' };

function toBaselineTemplate(template: string): string {
  return template.replace(/\{([a-z_]+)[+*]\}$/, '*').replace(/\{([a-z_]+)[+*]?\}/g, ':$1');
}

const templates = [...new Set(ROUTE_TABLE.flatMap((route) => route.templates))].map(
  toBaselineTemplate,
);
const findMyWay = FindMyWay();
for (const template of templates) findMyWay.on('GET', template, () => undefined);

function loadHono(): { name: string; router: RegExpRouter<string> | TrieRouter<string> } {
  const regExpRouter = new RegExpRouter<string>();
  try {
    for (const template of templates) regExpRouter.add('GET', template, template);
    regExpRouter.match('GET', '/');
    return { name: 'Hono RegExpRouter match()', router: regExpRouter };
  } catch (error) {
    console.log(
      `Hono RegExpRouter refuses the table (${(error as Error).constructor.name}); using TrieRouter`,
    );
    const trieRouter = new TrieRouter<string>();
    for (const template of templates) trieRouter.add('GET', template, template);
    return { name: 'Hono TrieRouter match()', router: trieRouter };
  }
}
const hono = loadHono();
const matchRoute = createRouteMatcher(ROUTE_TABLE);

type Case = readonly [name: string, run: (path: string) => unknown];
const CASES: readonly Case[] = [
  ['find-my-way find()', (path) => findMyWay.find('GET', path)],
  [hono.name, (path) => hono.router.match('GET', path)],
  ['route table match only', (path) => matchRoute(path.slice(1).split('/'))],
  [
    'classify() (full)',
    (path) =>
      classify({
        method: 'GET',
        path,
        query: path === '/search/issues' ? SEARCH_QUERY : undefined,
        headers: { accept: 'application/vnd.github+json' },
        callerLogin: 'monalisa',
        policy: POLICY,
      }),
  ],
];

let sink = 0;
function opsPerSecond(run: (path: string) => unknown, durationMs: number): number {
  let operations = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < durationMs) {
    for (const path of MIX) {
      if (run(path) !== undefined) sink += 1;
    }
    operations += MIX.length;
    elapsed = performance.now() - start;
  }
  return (operations / elapsed) * 1000;
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

for (const [, run] of CASES) opsPerSecond(run, 300); // warm up
const ROUNDS = 5;
const results = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [name, run] of CASES) {
    const list = results.get(name) ?? [];
    list.push(opsPerSecond(run, 400));
    results.set(name, list);
  }
}

const baseline = median(results.get('find-my-way find()') ?? []);
console.log(
  `mix of ${MIX.length} paths, ${templates.length} templates, median of ${ROUNDS} rounds`,
);
for (const [name] of CASES) {
  const ops = median(results.get(name) ?? []);
  console.log(
    `${name.padEnd(28)} ${Math.round(ops).toLocaleString('en-US').padStart(12)} ops/s  ` +
      `${(ops / baseline).toFixed(2)}× find-my-way`,
  );
}
if (sink < 0) console.log(sink);
