import { DEMO } from '@relay/forge-sim';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANONYMOUS, PRIVATE_MARKER, exposedText, seedPrivateWorld } from './public-only-world.js';
import { OTHER_POOL, POOL, startRelayHarness } from './relay-harness.js';

const { org, publicRepo } = DEMO;
const { alice, carol } = DEMO.users;

/** Public repositories that flip between public and private during a run. */
const FLIPPERS = ['flip-one', 'flip-two'] as const;
type Flipper = (typeof FLIPPERS)[number];

/** The reads of a run: owner-level, ownerless and repository routes, over every lane. */
function reads(gists: { secret: string; open: string }) {
  const repoReads = (name: string) => [
    { path: `/repos/${org}/${name}` },
    { path: `/repos/${org}/${name}/issues` },
    { path: `/repos/${org}/${name}/pulls` },
    { path: `/repos/${org}/${name}/events` },
    { path: `/repos/${org}/${name}/forks` },
    { path: '/search/code', query: { q: `repo:${org}/${name} flip` } },
    { path: '/search/issues', query: { q: `repo:${org}/${name} flip` } },
  ];
  return [
    { path: `/users/${carol}/repos` },
    { path: `/users/${alice}/repos` },
    { path: `/orgs/${org}/repos` },
    { path: `/users/${carol}/gists` },
    { path: `/users/${carol}/events` },
    { path: `/users/${alice}/events` },
    { path: `/users/${carol}/received_events` },
    { path: `/orgs/${org}/events` },
    { path: '/search/repositories', query: { q: PRIVATE_MARKER } },
    { path: '/search/repositories', query: { q: 'flip' } },
    { path: `/gists/${gists.secret}` },
    { path: `/gists/${gists.open}` },
    { path: `/repos/${carol}/hidden-${PRIVATE_MARKER}` },
    { path: `/repos/${carol}/hidden-${PRIVATE_MARKER}/issues` },
    { path: `/repos/${org}/${publicRepo}/forks` },
    { path: `/repos/${org}/${publicRepo}/pulls/1` },
    { path: '/user' },
    ...FLIPPERS.flatMap(repoReads),
  ] as const;
}

type Lane = 'healthy' | 'exhausted' | 'failing';

type Step =
  | { readonly kind: 'read'; readonly read: number; readonly caller: number }
  | { readonly kind: 'lane'; readonly lane: Lane }
  | { readonly kind: 'flip'; readonly repo: Flipper }
  | { readonly kind: 'advance'; readonly seconds: number };

const READ_COUNT = reads({ secret: '', open: '' }).length;

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('read' as const),
      read: fc.nat({ max: READ_COUNT - 1 }),
      caller: fc.nat({ max: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('lane' as const),
      lane: fc.constantFrom<Lane>('healthy', 'exhausted', 'failing'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('flip' as const),
      repo: fc.constantFrom(...FLIPPERS),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      seconds: fc.constantFrom(1, 30, 61, 600),
    }),
  },
);

describe('public-only: random reads across pools, callers, lanes and visibility flips', () => {
  it('never lets a private marker reach a response body or header', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { minLength: 5, maxLength: 40 }), async (steps) => {
        const h = await startRelayHarness();
        try {
          const w = await seedPrivateWorld(h);
          for (const name of FLIPPERS) {
            h.sim.world.addRepo({ owner: org, name, description: 'flip test' });
            h.sim.world.addIssue({ owner: org, repo: name, title: 'flip public issue' });
          }
          const catalogue = reads({ secret: w.secretGistId, open: w.publicGistId });
          // Who asks: alice (team), bob (other), carol in either pool.
          const callers = [
            { token: w.callers.alice, pool: POOL },
            { token: w.callers.bob, pool: OTHER_POOL },
            { token: w.callers.carol, pool: POOL },
            { token: w.callers.carol, pool: OTHER_POOL },
          ] as const;
          // Markers of content created while a flipper was private: private until it flips back.
          const privateMarkers = new Map<Flipper, string[]>();
          const isPrivate = new Map<Flipper, boolean>();
          let faultId: number | undefined;
          let flips = 0;
          for (const step of steps) {
            switch (step.kind) {
              case 'read': {
                const read = catalogue[step.read];
                const caller = callers[step.caller];
                if (read === undefined || caller === undefined) break;
                const answer = await h.relay({ pool: caller.pool, ...read }, caller.token);
                const text = exposedText(answer);
                expect(answer.status, text).not.toBe(500);
                expect(text).not.toContain(PRIVATE_MARKER);
                for (const markers of privateMarkers.values()) {
                  for (const marker of markers) expect(text).not.toContain(marker);
                }
                break;
              }
              case 'lane':
                if (faultId !== undefined) h.sim.faults.clear(faultId);
                faultId = undefined;
                h.sim.rateLimits.reset();
                if (step.lane === 'exhausted') {
                  h.sim.rateLimits.exhaust(ANONYMOUS);
                  h.sim.rateLimits.exhaust(ANONYMOUS, 'search');
                } else if (step.lane === 'failing') {
                  faultId = h.sim.faults.inject({
                    credential: 'anonymous',
                    action: { kind: 'status', status: 502 },
                  });
                }
                break;
              case 'flip': {
                const nowPrivate = isPrivate.get(step.repo) !== true;
                h.sim.world.setVisibility(org, step.repo, nowPrivate);
                isPrivate.set(step.repo, nowPrivate);
                if (nowPrivate) {
                  // What the relay already proved public may be reused within the proof's
                  // lifetime (60 s); content created after it is private and must never leak.
                  h.advance(61_000);
                  const marker = `flipmark${String(flips++)}x`;
                  h.sim.world.addIssue({ owner: org, repo: step.repo, title: `${marker} flip` });
                  privateMarkers.set(step.repo, [...(privateMarkers.get(step.repo) ?? []), marker]);
                } else {
                  privateMarkers.delete(step.repo);
                }
                break;
              }
              case 'advance':
                h.advance(step.seconds * 1000);
                break;
            }
          }
        } finally {
          await h.close();
        }
      }),
      { numRuns: 60, endOnFailure: true },
    );
  }, 240_000);
});
