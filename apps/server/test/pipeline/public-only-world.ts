import { DEMO } from '@relay/forge-sim';
import { createCallerToken, hashToken } from '../../src/auth/caller-token.js';
import { OTHER_POOL, POOL, type RelayAnswer, type RelayHarness } from './relay-harness.js';

/**
 * Private data that only the pooled tokens can see: every name, title and description of it
 * carries this marker, and no public object does. A response that contains it leaked.
 */
export const PRIVATE_MARKER = 'prvmark';

/** The anonymous address of every loopback relay (the simulator's rate-limit key). */
export const ANONYMOUS = { anonymous: '127.0.0.1' } as const;

/** What {@link seedPrivateWorld} created. */
export interface PrivateWorld {
  /** Caller tokens: alice (pool `team`), bob (pool `other`), carol (both pools). */
  readonly callers: {
    readonly alice: string;
    readonly bob: string;
    readonly carol: string;
  };
  /** The id of carol's secret gist. */
  readonly secretGistId: string;
  /** The id of carol's public gist. */
  readonly publicGistId: string;
}

async function enroll(
  h: RelayHarness,
  forgeUserId: number,
  login: string,
  pools: readonly string[],
): Promise<string> {
  const token = createCallerToken();
  const nowIso = new Date(h.sim.clock.now()).toISOString();
  for (const pool of pools) {
    const enrolled = await h.services.callers.enroll({
      forgeUserId,
      login,
      grantPool: pool,
      newPoolPolicyJson: '{}',
      clientName: 'ci',
      tokenSha256: hashToken(token),
      nowIso,
      expiresAtIso: new Date(h.sim.clock.now() + 365 * 86_400_000).toISOString(),
    });
    if (!enrolled.ok) throw new Error(`enrollment failed: ${enrolled.error.code}`);
  }
  return token;
}

/**
 * Seeds the demo world with private repositories, secret gists and private events that only the
 * pooled tokens see, registers pooled identities in two pools (alice's PAT scoped to acme,
 * carol's and bob's broad PATs in `team`; carol's broad PAT in `other`), and enrolls three
 * callers.
 *
 * @param h - a fresh relay harness
 */
export async function seedPrivateWorld(h: RelayHarness): Promise<PrivateWorld> {
  const { world } = h.sim;
  const { alice, carol } = DEMO.users;
  // carol's own private repository, with activity (private events) and an issue.
  world.addRepo({
    owner: carol,
    name: `hidden-${PRIVATE_MARKER}`,
    private: true,
    description: `carol's ${PRIVATE_MARKER} plans`,
  });
  world.addCommit({
    owner: carol,
    repo: `hidden-${PRIVATE_MARKER}`,
    message: `${PRIVATE_MARKER} commit`,
    author: carol,
    files: { 'plan.md': `${PRIVATE_MARKER} plan` },
  });
  world.addIssue({
    owner: carol,
    repo: `hidden-${PRIVATE_MARKER}`,
    title: `${PRIVATE_MARKER} bug`,
    author: carol,
  });
  // An organization repository only members see, with activity.
  world.addRepo({
    owner: DEMO.org,
    name: `internal-${PRIVATE_MARKER}`,
    private: true,
    description: `acme ${PRIVATE_MARKER} internals`,
  });
  world.addCommit({
    owner: DEMO.org,
    repo: `internal-${PRIVATE_MARKER}`,
    message: `${PRIVATE_MARKER} internal commit`,
    author: alice,
    files: { 'a.txt': PRIVATE_MARKER },
  });
  // A private fork of the public repository (listed among its forks for its owner's token).
  world.addRepo({
    owner: carol,
    name: `fork-${PRIVATE_MARKER}`,
    private: true,
    forkOf: `${DEMO.org}/${DEMO.publicRepo}`,
  });
  const secret = world.addGist({
    owner: carol,
    description: `${PRIVATE_MARKER} secret gist`,
    public: false,
    files: { [`${PRIVATE_MARKER}.txt`]: PRIVATE_MARKER },
  });
  const open = world.addGist({
    owner: carol,
    description: 'a public gist',
    public: true,
    files: { 'hello.txt': 'hello' },
  });

  await h.addPatIdentity('pat-alice', alice, [{ owner: DEMO.org, allow_private: false }]);
  await h.addPatIdentity('pat-carol', carol, [{ owner: '*', allow_private: false }], 50);
  // A broad PAT of another account: carol's own collections are never read with carol's token.
  await h.addPatIdentity(
    'pat-bob-broad',
    DEMO.users.bob,
    [{ owner: '*', allow_private: false }],
    10,
  );
  const { token } = h.sim.tokens.addPat({ login: carol });
  h.secrets.set('secret_other_carol', token);
  const nowIso = new Date(h.sim.clock.now()).toISOString();
  await h.services.identities.upsert(
    OTHER_POOL,
    {
      id: 'pat-carol-other',
      kind: 'pat',
      login: carol,
      secret_ref: 'secret_other_carol',
      installation_id: null,
      scopes: [{ owner: '*', allow_private: false }],
      weight: 100,
    },
    nowIso,
    '{}',
  );
  const openPolicy = JSON.stringify({
    allowed_owners: [DEMO.org],
    allow_public_repos: true,
    allow_search: true,
  });
  await h.setPolicy(POOL, openPolicy);
  await h.setPolicy(OTHER_POOL, openPolicy);

  return {
    callers: {
      alice: h.callerToken,
      bob: await enroll(h, 2, DEMO.users.bob, [OTHER_POOL]),
      carol: await enroll(h, 3, carol, [POOL, OTHER_POOL]),
    },
    secretGistId: secret.id,
    publicGistId: open.id,
  };
}

/**
 * Every place of a relay answer a private byte could hide in: the body text and every header.
 *
 * @param answer - the relay's answer
 */
export function exposedText(answer: RelayAnswer): string {
  const headers = [...answer.headers.entries()].map(([name, value]) => `${name}: ${value}`);
  return `${headers.join('\n')}\n${answer.text}`;
}

/**
 * Every key of every object in a JSON value, recursively.
 *
 * @param value - a JSON value
 */
export function allKeys(value: unknown): Set<string> {
  const keys = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null) {
      for (const [key, child] of Object.entries(node)) {
        keys.add(key);
        walk(child);
      }
    }
  };
  walk(value);
  return keys;
}
