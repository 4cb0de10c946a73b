import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeSavedLogin } from '../src/auth-store.js';
import {
  createFakeDependencies,
  createTempDir,
  envelopeOf,
  errorOf,
  runCli,
  startStubRelay,
} from './cli-harness.js';
import type { StubAnswer, StubRelay } from './cli-harness.js';

/**
 * Client rule 15 in process: how many times the policy is fetched. One fresh GET of the pool's
 * string-rewrites endpoint before every relay request (each page, each retry) and before every
 * native dispatch; none for `relay request` or an exempt invocation.
 */
let relay: StubRelay | undefined;
let dir: ReturnType<typeof createTempDir>;
const NATIVE = '/opt/gh/bin/gh';

beforeEach(() => {
  dir = createTempDir();
});
afterEach(async () => {
  await relay?.close();
  relay = undefined;
  dir.remove();
});

async function setup(answer: (index: number) => StubAnswer, env: Record<string, string> = {}) {
  relay = await startStubRelay((_request, index) => answer(index));
  await writeSavedLogin(
    dir.path,
    {
      url: relay.url,
      pool: 'team',
      token: 'rly_saved-token',
      login: 'alice',
      client: 'laptop',
      timestamp: '2030-01-01T00:00:00.000Z',
    },
    () => 0,
  );
  return createFakeDependencies({
    env: { RELAY_CONFIG_DIR: dir.path, ...env },
    executables: { gh: NATIVE },
  });
}

const page = (items: unknown[], next: boolean): StubAnswer => ({
  status: 200,
  json: envelopeOf(items, {
    headers: next ? { link: '<https://api.github.com/r?page=2>; rel="next"' } : {},
  }),
});

describe('rule 15: a fresh policy per relay request and per native dispatch', () => {
  it('fetches it before each page of a paginated read, with the saved token', async () => {
    const deps = await setup((index) => page([index], index === 0));
    const result = await runCli(['native', 'api', 'r', '--paginate'], deps);
    expect(result).toMatchObject({ code: 0, stdout: '[0,1]' });
    expect(relay?.requests).toHaveLength(2);
    expect(relay?.policyRequests.map((r) => [r.url, r.headers.authorization])).toEqual([
      ['/v1/pools/team/string-rewrites', 'Bearer rly_saved-token'],
      ['/v1/pools/team/string-rewrites', 'Bearer rly_saved-token'],
    ]);
  });

  it('fetches it again for each retry and for the native run after a fallback', async () => {
    const deps = await setup(
      () => ({ status: 424, json: errorOf('fallback_local', 'identities_cooling_down') }),
      { RELAY_RETRIES: '1' },
    );
    const result = await runCli(['native', 'api', 'repos/a/b'], deps);
    expect(result.code).toBe(0);
    expect(relay?.requests).toHaveLength(2);
    expect(relay?.policyRequests).toHaveLength(3);
    expect(deps.nativeRuns).toHaveLength(1);
  });

  it('fetches it once for a delegated write, and not at all for an exempt invocation', async () => {
    const deps = await setup(() => ({ status: 500, json: {} }), { RELAY_QUIET_FALLBACK: '1' });
    await runCli(['native', 'label', 'create', 'bug', '-R', 'acme/widgets'], deps);
    expect(relay?.policyRequests).toHaveLength(1);
    await runCli(['native', '--version'], deps);
    await runCli(['native', 'auth', 'status'], deps);
    expect(relay?.policyRequests).toHaveLength(1);
    expect(deps.nativeRuns).toHaveLength(3);
  });

  it('relay request (the debug wrapper) does not fetch it', async () => {
    const deps = await setup(() => ({ status: 200, json: envelopeOf({}) }));
    const result = await runCli(['request', '--path', '/repos/a/b'], deps);
    expect(result.code).toBe(0);
    expect(relay?.requests).toHaveLength(1);
    expect(relay?.policyRequests).toHaveLength(0);
  });
});
