/**
 * Selections per second with 100 identities and 10,000 route keys.
 *
 * Baseline (measured in the same run): a naive selector that scans the 100 identities for the
 * highest remaining budget, with no eligibility, leases or cooldowns. Reported: the pure
 * `selectIdentity` and the full `IdentityPool.select` over the in-process coordinator (state
 * read, selection, lease write), as selections per second and as ratios to the baseline.
 *
 * Run: pnpm --filter @relay/identity-pool bench
 */
import { performance } from 'node:perf_hooks';
import { createDefaultPoolPolicy } from '@relay/protocol';
import {
  createIdentityPool,
  createMemoryCoordinator,
  selectIdentity,
  type CredentialProvider,
  type PoolIdentity,
  type SelectionRoute,
  type SelectionState,
} from '../src/index.ts';

const IDENTITIES = 100;
const ROUTE_KEYS = 10_000;
const SELECTIONS = 100_000;
const ROUNDS = 5;

// A deterministic pseudo-random sequence, so that every run measures the same work.
let seed = 0x2545f491;
function random(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x1_0000_0000;
}

const owners = Array.from({ length: 20 }, (_, index) => `owner${index}`);
const identities: PoolIdentity[] = Array.from({ length: IDENTITIES }, (_, index) => {
  const owner = owners[index % owners.length] ?? 'owner0';
  if (index % 10 === 0) {
    return {
      id: `pat-broad-${index}`,
      kind: 'pat',
      secretRef: 'S',
      installationId: null,
      scopes: [{ owner: '*' }],
      weight: 100,
    };
  }
  if (index % 3 === 0) {
    return {
      id: `app-${index}`,
      kind: 'forge_app',
      secretRef: 'K',
      installationId: index,
      scopes: [{ owner }],
      weight: 100,
    };
  }
  return {
    id: `pat-${index}`,
    kind: 'pat',
    secretRef: 'S',
    installationId: null,
    scopes: [{ owner, repo: `repo${index % 7}` }, { owner }],
    weight: 50 + (index % 5) * 25,
  };
});
const policy = createDefaultPoolPolicy({ allowedOwners: owners.slice(0, 15) });
const routes: SelectionRoute[] = Array.from({ length: ROUTE_KEYS }, (_, index) => {
  const owner = owners[Math.floor(random() * owners.length)] ?? 'owner0';
  const repo = `repo${index % 50}`;
  return {
    kind: 'pr_view',
    key: `pr_view:${owner}/${repo}#${index}`,
    bucket: 'core',
    owner,
    repo,
    publicVerified: true,
  };
});
const firstRoute =
  routes[0] ??
  (() => {
    throw new Error('no routes');
  })();
const sequence = Array.from(
  { length: SELECTIONS },
  () => routes[Math.floor(random() * ROUTE_KEYS)] ?? firstRoute,
);

const now = Date.now();
const rates = new Map(
  identities.map((identity) => [
    identity.id,
    {
      bucket: 'core',
      limit: 5000,
      remaining: Math.floor(random() * 5000),
      resetAt: now + 3_600_000,
      observedAt: now,
    },
  ]),
);

function naiveSelect(): PoolIdentity | undefined {
  let best: PoolIdentity | undefined;
  let bestRemaining = -1;
  for (const identity of identities) {
    const remaining = rates.get(identity.id)?.remaining ?? 5000;
    if (remaining > bestRemaining) {
      best = identity;
      bestRemaining = remaining;
    }
  }
  return best;
}

const pureState: SelectionState = { lease: undefined, cooldowns: new Map(), rates };

async function measure(name: string, run: (route: SelectionRoute) => unknown): Promise<number> {
  const perRound: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const start = performance.now();
    for (const route of sequence) await run(route);
    perRound.push(SELECTIONS / ((performance.now() - start) / 1000));
  }
  perRound.sort((x, y) => x - y);
  const median = perRound[Math.floor(ROUNDS / 2)] ?? 0;
  console.log(
    `${name.padEnd(44)} ${Math.round(median).toLocaleString('en-US').padStart(12)} selections/s`,
  );
  return median;
}

const coordinator = createMemoryCoordinator({ now: Date.now });
for (const [id, state] of rates) await coordinator.recordRateState(id, state);
for (const identity of identities.slice(0, 10)) {
  await coordinator.addCooldown(identity.id, {
    scope: { kind: 'route', routeKey: firstRoute.key },
    durationMs: 3_600_000,
    cause: 'failure',
  });
}
const noCredentials: CredentialProvider = {
  resolve: () => Promise.reject(new Error('not used')),
  invalidate: () => undefined,
};
const pool = createIdentityPool({ coordinator, credentials: noCredentials, now: Date.now });

console.log(
  `${IDENTITIES} identities, ${ROUTE_KEYS.toLocaleString('en-US')} route keys, ${SELECTIONS.toLocaleString('en-US')} selections per round, median of ${ROUNDS} rounds`,
);
const baseline = await measure('baseline: naive max-remaining scan', () => naiveSelect());
const pure = await measure('selectIdentity (pure, no lease)', (route) =>
  selectIdentity({ route, policy, identities, state: pureState, now: Date.now() }),
);
const full = await measure('IdentityPool.select (memory coordinator)', (route) =>
  pool.select({ route, policy, identities }),
);
console.log(`ratio selectIdentity / baseline:       ${(pure / baseline).toFixed(2)}`);
console.log(`ratio IdentityPool.select / baseline:  ${(full / baseline).toFixed(2)}`);
