import { DEMO } from '@relay/forge-sim';
import type { IdentityPool } from '@relay/identity-pool';
import { err } from '@relay/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { startRelayHarness, type RelayHarness } from './relay-harness.js';

let h: RelayHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a visibility proof the coordinator cannot serve', () => {
  it.each([
    ['away', 'unavailable', 424, 'relay_overloaded'],
    ['too old (Versioning 5)', 'method_unsupported', 500, undefined],
  ] as const)(
    'is no answer about the repository: with the coordinator %s the read is not repo_not_public',
    async (_name, cause, status, reason) => {
      let coordinatorDown = false;
      h = await startRelayHarness({
        override: (deps) => {
          const pool = deps.identityPool;
          const identityPool: IdentityPool = {
            select: (request, exclude) => pool.select(request, exclude),
            acquire: (request) =>
              coordinatorDown
                ? Promise.resolve(err({ code: 'coordinator_unavailable' as const, cause }))
                : pool.acquire(request),
            report: (report) => pool.report(report),
          };
          return { ...deps, identityPool };
        },
      });
      await h.addPatIdentity('pat-alice', DEMO.users.alice, [
        { owner: DEMO.org, allow_private: false },
      ]);
      // The anonymous quota is spent: the proof needs a pooled probe.
      h.sim.rateLimits.exhaust({ anonymous: '127.0.0.1' });
      coordinatorDown = true;
      const path = `/repos/${DEMO.org}/${DEMO.publicRepo}/issues`;
      const answer = await h.relay({ path });
      expect(answer.status).toBe(status);
      if (reason === undefined) expect(answer.json.error.code).toBe('internal_error');
      else expect(answer.json.error).toMatchObject({ code: 'fallback_local', reason });
      // Once the coordinator is back the same read is proven and served.
      coordinatorDown = false;
      expect((await h.relay({ path })).status).toBe(200);
    },
  );
});
