import fc from 'fast-check';
import {
  ENVELOPE_BACKENDS,
  IDENTITY_KINDS,
  LEASE_REASONS,
  ROUTE_KINDS,
  STALE_REASONS,
  relayEnvelopeSchema,
} from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import { buildEnvelope, serializeEnvelope } from './envelope-builder.js';

const answer = fc.oneof(
  fc.record({
    status: fc.integer({ min: 100, max: 599 }),
    headers: fc.dictionary(fc.constantFrom('content-type', 'etag', 'link'), fc.string()),
    body: fc.jsonValue(),
    bodyEncoding: fc.constant('json' as const),
  }),
  fc.record({
    status: fc.integer({ min: 100, max: 599 }),
    headers: fc.constant({}),
    body: fc.option(fc.string(), { nil: null }),
    bodyEncoding: fc.constant('text' as const),
  }),
);
const facts = fc.record({
  pool: fc.constantFrom('team', 'default'),
  requestId: fc.constant('req_1'),
  routeKind: fc.constantFrom(...ROUTE_KINDS),
  cacheable: fc.boolean(),
  cache: fc.constantFrom('hit' as const, 'miss' as const, 'bypass' as const),
  stale: fc.option(
    fc.record({
      reason: fc.constantFrom(...STALE_REASONS),
      expiresAt: fc.constant('2030-01-01T00:01:00.000Z'),
    }),
    { nil: undefined },
  ),
  identity: fc.option(
    fc.record({ id: fc.constantFrom('pat-1', 'app-2'), kind: fc.constantFrom(...IDENTITY_KINDS) }),
    { nil: undefined },
  ),
  leaseReason: fc.option(fc.constantFrom(...LEASE_REASONS), { nil: undefined }),
  backend: fc.option(fc.constantFrom(...ENVELOPE_BACKENDS), { nil: undefined }),
});

describe('envelope builder', () => {
  it('always produces an envelope of the protocol schema, with its field rules', () => {
    fc.assert(
      fc.property(answer, facts, (a, f) => {
        const envelope = buildEnvelope(a, f);
        expect(relayEnvelopeSchema.safeParse(envelope).success).toBe(true);
        expect(envelope.relay.stale_ok).toBe(f.stale !== undefined);
        expect(envelope.relay.cache).toBe(f.stale === undefined ? f.cache : 'stale');
        expect(envelope.identity === null).toBe(f.identity === undefined);
        expect('backend' in envelope.relay).toBe(
          f.identity === undefined && f.backend !== undefined,
        );
        expect('lease_reason' in envelope.relay).toBe(
          f.identity !== undefined && f.leaseReason !== undefined,
        );
      }),
    );
  });

  it('an empty API body is null with text encoding', () => {
    const envelope = buildEnvelope(
      { status: 204, headers: {}, body: undefined, bodyEncoding: 'text' },
      { pool: 'team', requestId: 'r', routeKind: 'repo_view', cacheable: true, cache: 'miss' },
    );
    expect(envelope).toMatchObject({ body: null, body_encoding: 'text' });
  });

  it('serializes exactly as JSON.stringify, with and without a reused answer source', () => {
    fc.assert(
      fc.property(answer, facts, facts, (a, first, second) => {
        const source = { ...a };
        const one = buildEnvelope(source, first);
        const two = buildEnvelope(source, second);
        expect(serializeEnvelope(one)).toBe(JSON.stringify(one));
        expect(serializeEnvelope(one, source)).toBe(JSON.stringify(one));
        // The second envelope from the same source reuses the answer's JSON.
        expect(serializeEnvelope(two, source)).toBe(JSON.stringify(two));
      }),
    );
  });

  it('keeps answers of different sources apart', () => {
    const meta = {
      pool: 'team',
      requestId: 'r',
      routeKind: 'issue_view',
      cacheable: true,
    } as const;
    const a = { status: 200, headers: {}, body: { n: 1 }, bodyEncoding: 'json' as const };
    const b = { status: 200, headers: {}, body: { n: 2 }, bodyEncoding: 'json' as const };
    serializeEnvelope(buildEnvelope(a, { ...meta, cache: 'miss' }), a);
    const text = serializeEnvelope(buildEnvelope(b, { ...meta, cache: 'hit' }), b);
    expect(JSON.parse(text)).toMatchObject({ body: { n: 2 }, relay: { cache: 'hit' } });
  });

  it('writes the forge’s JSON text of a json body in place of its JSON, still the same envelope', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 3 }), facts, (value, indent, fact) => {
        const source = `${JSON.stringify(value, null, indent)}\n`;
        const body = JSON.parse(source) as unknown;
        const built = buildEnvelope(
          { status: 200, headers: {}, body, bodyEncoding: 'json', bodySource: source },
          fact,
        );
        const text = serializeEnvelope(built, undefined, source);
        expect(text).toContain(`"body":${source},"body_encoding":"json"`);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(built)));
        // The text of an entry is kept with it: a later hit writes it again.
        const entry = {};
        serializeEnvelope(built, entry, source);
        expect(serializeEnvelope(built, entry, source)).toBe(text);
      }),
    );
  });

  it('writes a text body as JSON whatever source is given', () => {
    const built = buildEnvelope(
      { status: 200, headers: {}, body: 'plain', bodyEncoding: 'text' },
      { pool: 'team', requestId: 'r', routeKind: 'contents', cacheable: true, cache: 'miss' },
    );
    expect(serializeEnvelope(built, undefined, '{"x": 1}')).toBe(JSON.stringify(built));
  });
});
