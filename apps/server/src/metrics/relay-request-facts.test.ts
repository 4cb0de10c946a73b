import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '../audit/audit-record.js';
import { createRequestTrace } from '../http/request-scope.js';
import { toRelayRequestFacts, toRelaySource } from './relay-request-facts.js';

const ROW: AuditRecord = {
  requestId: 'req_1',
  occurredAt: 0,
  poolId: 'team',
  callerId: 'clr_1',
  clientId: 'cli_1',
  routeKey: 'issue_list:acme/widgets',
  routeKind: 'issue_list',
  identityId: null,
  status: 200,
  errorCode: null,
  fallbackReason: null,
  backend: null,
  cacheResult: 'hit',
  cacheable: true,
  coalesced: false,
  durationMs: 1,
};

describe('toRelaySource', () => {
  it.each<[string, Partial<AuditRecord>, string]>([
    ['a cache hit', {}, 'cache_hit'],
    ['a stale answer', { cacheResult: 'stale' }, 'stale'],
    ['an anonymous API miss', { cacheResult: 'miss', backend: 'forge_api' }, 'anonymous'],
    ['a public web page', { cacheResult: 'miss', backend: 'forge_web' }, 'web'],
    [
      'a pooled identity miss',
      { cacheResult: 'miss', backend: 'forge_identity', identityId: 'alice-pat' },
      'identity',
    ],
    [
      "an identity's free 304 refresh (audited as a hit of forge_api)",
      { cacheResult: 'hit', backend: 'forge_api', identityId: 'alice-pat' },
      'identity',
    ],
    [
      'a coalesced duplicate',
      { cacheResult: 'miss', coalesced: true, identityId: 'alice-pat' },
      'coalesced',
    ],
    [
      'a fallback',
      {
        cacheResult: null,
        status: 424,
        errorCode: 'fallback_local',
        fallbackReason: 'search_denied',
      },
      'fallback',
    ],
    ['an error', { cacheResult: null, status: 400, errorCode: 'invalid_path' }, 'error'],
    ['an envelope nothing accounts for', { cacheResult: 'bypass' }, 'none'],
  ])('%s is %s', (_, row, source) => {
    expect(toRelaySource({ ...ROW, ...row })).toBe(source);
  });
});

describe('toRelayRequestFacts', () => {
  it('takes an audited request from its audit row (the upstream status, the reason)', () => {
    const trace = createRequestTrace();
    trace.audit = {
      ...ROW,
      status: 424,
      errorCode: 'fallback_local',
      fallbackReason: 'repo_not_public',
      cacheResult: null,
    };
    expect(toRelayRequestFacts(trace, 424, 0.5)).toEqual({
      routeKind: 'issue_list',
      status: 424,
      source: 'fallback',
      reason: 'repo_not_public',
      coalesced: false,
      durationSeconds: 0.5,
    });
  });

  it('takes a request refused before the audit boundary from its error', () => {
    const refused = createRequestTrace();
    refused.errorCode = 'unauthorized';
    expect(toRelayRequestFacts(refused, 401, 0)).toMatchObject({
      routeKind: 'none',
      status: 401,
      source: 'error',
      reason: 'unauthorized',
    });
    const busy = createRequestTrace();
    busy.errorCode = 'fallback_local';
    busy.reason = 'relay_overloaded';
    expect(toRelayRequestFacts(busy, 424, 0)).toMatchObject({
      source: 'fallback',
      reason: 'relay_overloaded',
    });
  });
});
