import { createSeededRandom, type FaultAction } from '@relay/forge-sim';
import { errorBodySchema } from '@relay/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../pipeline/relay-harness.js';
import {
  CALM_TIMEOUT_MS,
  FAULT_TIMEOUT_MS,
  HANG_MS,
  startFaultWorld,
  type FaultWorld,
} from './fault-load.js';

/**
 * Login (`POST /v1/login/forge-cli`) and caller provisioning (`POST /v1/admin/callers`) when the
 * forge fails their reads: every fault is a typed answer (README "Authentication and errors":
 * 502 `forge_unreachable` or 504 `forge_timeout` when the forge failed; 401
 * `forge_token_invalid` when it refused the presented token), never an untyped 500, never a
 * credential; and a throttled answer (a secondary rate limit, a 429) is the forge failing, not
 * a verdict on the account: never 403 `org_membership_required` nor an unknown account. Once the
 * faults clear, both succeed.
 */
const HANG: FaultAction = { kind: 'latency', ms: HANG_MS };
const SECONDARY_403: FaultAction = { kind: 'secondary_limit', status: 403 };
const LIMIT_429: FaultAction = { kind: 'secondary_limit', status: 429 };
const status = (code: number): FaultAction => ({ kind: 'status', status: code });
const RESET: FaultAction = { kind: 'reset' };
const TRUNCATE: FaultAction = { kind: 'truncate' };

/** The reads of each operation (the harness provisions anonymously: no pool lane is wired). */
const PROVISIONING_READS = ['/users/alice', '/orgs/acme/public_members/alice'];
const LOGIN_READS = ['/user', '/user/memberships/orgs/acme'];

/** Each fault and the answer it must give, whichever read of the operation it hits. */
const FAULTS: readonly { name: string; action: FaultAction; expected: string }[] = [
  { name: '500', action: status(500), expected: '502 forge_unreachable' },
  { name: '503', action: status(503), expected: '502 forge_unreachable' },
  { name: 'secondary 403', action: SECONDARY_403, expected: '502 forge_unreachable' },
  { name: '429', action: LIMIT_429, expected: '502 forge_unreachable' },
  { name: 'reset', action: RESET, expected: '502 forge_unreachable' },
  { name: 'cut body', action: TRUNCATE, expected: '502 forge_unreachable' },
  { name: 'timeout', action: HANG, expected: '504 forge_timeout' },
];

interface AccountCase {
  readonly operation: 'login' | 'provisioning';
  readonly path: string;
  readonly fault: string;
  readonly action: FaultAction;
  readonly expected: string;
}

const CASES: readonly AccountCase[] = [
  ...PROVISIONING_READS.flatMap((path) =>
    FAULTS.map((f) => ({ operation: 'provisioning' as const, path, fault: f.name, ...f })),
  ),
  ...LOGIN_READS.flatMap((path) =>
    FAULTS.map((f) => ({ operation: 'login' as const, path, fault: f.name, ...f })),
  ),
  // The presented forge token refused: the caller's own credential, not the forge failing.
  {
    operation: 'login',
    path: '/user',
    fault: '401',
    action: status(401),
    expected: '401 forge_token_invalid',
  },
  // A pooled or anonymous read refused with 401 is the forge failing for provisioning.
  {
    operation: 'provisioning',
    path: '/users/alice',
    fault: '401',
    action: status(401),
    expected: '502 forge_unreachable',
  },
];

let fw: FaultWorld;
beforeEach(async () => {
  fw = await startFaultWorld(createSeededRandom(0));
});
afterEach(async () => {
  await fw.close();
});

/** Sends the operation; returns `<status> <code>` (`201`/`200` on success) and the body text. */
async function run(operation: AccountCase['operation']): Promise<{ key: string; text: string }> {
  const request =
    operation === 'provisioning'
      ? fw.h.app.request('/v1/admin/callers', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
          body: JSON.stringify({ pool: 'team', forge_login: 'alice', name: 'fault-suite' }),
        })
      : fw.h.app.request('/v1/login/forge-cli', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ forge_token: fw.h.secrets.get('secret_pat-alice'), client: 'c' }),
        });
  const response = await request;
  const text = await response.text();
  if (response.ok) return { key: String(response.status), text };
  const error = errorBodySchema.safeParse(JSON.parse(text));
  return {
    key: `${String(response.status)} ${error.success ? error.data.error.code : 'malformed'}`,
    text,
  };
}

describe('login and provisioning when the forge fails', () => {
  it.each(CASES)(
    '$operation, $fault on $path: $expected',
    async (c) => {
      fw.h.sim.faults.inject({ path: c.path, action: c.action });
      fw.setDeadline(c.action.kind === 'latency' ? FAULT_TIMEOUT_MS : CALM_TIMEOUT_MS);
      const failed = await run(c.operation);
      expect(failed.key).toBe(c.expected);
      for (const secret of fw.secrets) expect(failed.text).not.toContain(secret);

      fw.h.sim.faults.clear();
      fw.setDeadline(CALM_TIMEOUT_MS);
      fw.h.advance(2 * 3_600_000);
      expect((await run(c.operation)).key).toBe(c.operation === 'login' ? '200' : '201');
    },
    FAULT_TIMEOUT_MS * 10,
  );
});
