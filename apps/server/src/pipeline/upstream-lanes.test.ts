import type { Revalidation } from '@relay/cache';
import type { ForgeRequest } from '@relay/forge-transport';
import {
  createIdentityPool,
  createMemoryCoordinator,
  createPatCredentialProvider,
  type PoolIdentity,
} from '@relay/identity-pool';
import { ok, type PoolPolicy } from '@relay/protocol';
import { classify } from '@relay/route-classifier';
import { describe, expect, it } from 'vitest';
import { forgeResponse } from './__fixtures__/forge-responses.js';
import { toSelectionRoute } from './route-identity.js';
import { createAnonymousBudget } from './token-free-lanes.js';
import { readUpstream, type LaneContext } from './upstream-lanes.js';

const T0 = Date.parse('2030-03-01T09:00:00Z');
const POLICY: PoolPolicy = {
  allowed_owners: ['acme'],
  allow_public_repos: false,
  allow_search: false,
  allow_logs: false,
};

function pat(id: string, weight = 100): PoolIdentity {
  return {
    id,
    kind: 'pat',
    secretRef: id,
    installationId: null,
    scopes: [{ owner: 'acme' }],
    weight,
  };
}

/** pat-1 outranks pat-2 (higher weight), so plain selection always picks pat-1. */
const IDENTITIES = [pat('pat-1', 200), pat('pat-2', 100)];
const SECRETS: Record<string, string> = { 'pat-1': 'token-one', 'pat-2': 'token-two' };
const SPENT = forgeResponse(
  403,
  { message: 'rate limit' },
  {
    remaining: 0,
    resetEpochSeconds: (T0 + 600_000) / 1000,
  },
);

function setUp(path: string, options: { secrets?: Record<string, string> } = {}) {
  let now = T0;
  const sent: ForgeRequest[] = [];
  let answer = (request: ForgeRequest) =>
    request.authorization === undefined ? SPENT : forgeResponse(200, { ok: true });
  const classified = classify({ method: 'GET', path, policy: POLICY });
  if (!classified.ok) throw new Error('unclassified');
  const route = classified.value;
  const secrets = options.secrets ?? SECRETS;
  const identityPool = createIdentityPool({
    coordinator: createMemoryCoordinator({ now: () => now }),
    credentials: createPatCredentialProvider({
      resolveSecret: (name) => Promise.resolve(secrets[name]),
    }),
    now: () => now,
  });
  const anonymousBudget = createAnonymousBudget(() => now);
  const context: LaneContext = {
    transport: {
      request: (request) => {
        sent.push(request);
        return Promise.resolve(ok(answer(request)));
      },
    },
    identityPool,
    identities: () => Promise.resolve(IDENTITIES),
    policy: POLICY,
    route,
    selectionRoute: toSelectionRoute(route, true),
    rewriteCheck: () => true,
    anonymousBudget,
  };
  return {
    context,
    sent,
    identityPool,
    anonymousBudget,
    advance: (ms: number) => (now += ms),
    answerWith: (next: (request: ForgeRequest) => ReturnType<typeof forgeResponse>) => {
      answer = next;
    },
  };
}

const who = (request: ForgeRequest) => request.authorization ?? 'anonymous';

function revalidationBy(id: string): Revalidation {
  return { lane: { kind: 'identity', id }, headers: { 'if-none-match': `"etag-of-${id}"` } };
}

describe('the anonymous lane remembers its spent quota', () => {
  it('asks the anonymous API once, then goes straight to a pooled identity until the reset', async () => {
    const h = setUp('/repos/acme/widgets/issues/1');
    await readUpstream(h.context, undefined);
    await readUpstream(h.context, undefined);
    expect(h.sent.map(who)).toEqual(['anonymous', 'Bearer token-one', 'Bearer token-one']);

    h.advance(600_000);
    h.sent.length = 0;
    await readUpstream(h.context, undefined);
    expect(h.sent.map(who)).toEqual(['anonymous', 'Bearer token-one']);
  });

  it('an anonymous-only route with the quota known spent is unavailable without a request', async () => {
    const h = setUp('/repos/acme/widgets/releases');
    h.anonymousBudget.observe('core', SPENT);
    const outcome = await readUpstream(h.context, undefined);
    expect(outcome).toMatchObject({
      ok: false,
      error: { kind: 'unavailable', staleReason: 'web_only_unavailable' },
    });
    expect(h.sent).toEqual([]);
  });
});

describe('revalidation from the identity that owns the validators', () => {
  it('selects the owner (not the best-ranked identity) and sends the conditional request', async () => {
    const h = setUp('/repos/acme/widgets/issues/1');
    h.anonymousBudget.observe('core', SPENT);
    h.answerWith(() => forgeResponse(304, null));
    const outcome = await readUpstream(h.context, revalidationBy('pat-2'));
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]?.authorization).toBe('Bearer token-two');
    expect(h.sent[0]?.headers?.['if-none-match']).toBe('"etag-of-pat-2"');
    expect(outcome).toMatchObject({
      ok: true,
      value: { revalidated: true, identity: { id: 'pat-2' }, lane: { id: 'pat-2' } },
    });
  });

  it('an owner that is cooling down is passed over: plain selection, no conditional', async () => {
    const h = setUp('/repos/acme/widgets/issues/1');
    h.anonymousBudget.observe('core', SPENT);
    const route = h.context.selectionRoute;
    await h.identityPool.report({
      identity: pat('pat-2'),
      route,
      outcome: { kind: 'response', status: 500, headers: {} },
    });
    const outcome = await readUpstream(h.context, revalidationBy('pat-2'));
    expect(h.sent.map(who)).toEqual(['Bearer token-one']);
    expect(h.sent[0]?.headers?.['if-none-match']).toBeUndefined();
    expect(outcome).toMatchObject({ ok: true, value: { revalidated: false } });
  });

  it('an owner no longer in the pool is passed over', async () => {
    const h = setUp('/repos/acme/widgets/issues/1');
    h.anonymousBudget.observe('core', SPENT);
    await readUpstream(h.context, revalidationBy('pat-9'));
    expect(h.sent.map(who)).toEqual(['Bearer token-one']);
    expect(h.sent[0]?.headers?.['if-none-match']).toBeUndefined();
  });

  it('an owner whose credentials fail is passed over, but never for a continuation page (rule 9)', async () => {
    const secrets = { 'pat-1': 'token-one' };
    const first = setUp('/repos/acme/widgets/issues/1', { secrets });
    first.anonymousBudget.observe('core', SPENT);
    await readUpstream(first.context, revalidationBy('pat-2'));
    expect(first.sent.map(who)).toEqual(['Bearer token-one']);

    const page = setUp('/repos/acme/widgets/issues', { secrets });
    page.anonymousBudget.observe('core', SPENT);
    const outcome = await readUpstream(
      { ...page.context, route: { ...page.context.route, query: { page: '2' } } },
      revalidationBy('pat-2'),
    );
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'hard' } });
    expect(page.sent).toEqual([]);
  });

  it('anonymous-first still holds: the anonymous lane answers first while it has quota', async () => {
    const h = setUp('/repos/acme/widgets/issues/1');
    h.answerWith(() => forgeResponse(200, { ok: true }, { remaining: 40 }));
    const outcome = await readUpstream(h.context, revalidationBy('pat-2'));
    expect(h.sent.map(who)).toEqual(['anonymous']);
    expect(h.sent[0]?.headers?.['if-none-match']).toBeUndefined();
    expect(outcome).toMatchObject({ ok: true, value: { lane: { kind: 'anonymous' } } });
  });
});
