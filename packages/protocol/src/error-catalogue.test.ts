import { describe, expect, it } from 'vitest';
import { createErrorBody, errorBodySchema } from './error-body.js';
import {
  CLIENT_ERROR_CATALOGUE,
  ERROR_CATALOGUE,
  ERROR_CODES,
  FALLBACK_REASONS,
  TRANSIENT_FALLBACK_REASONS,
  isErrorCode,
  isFallbackReason,
  statusOf,
} from './error-catalogue.js';

describe('ERROR_CATALOGUE', () => {
  it.each([
    ['invalid_path', 400],
    ['invalid_request', 400],
    ['invalid_query', 400],
    ['invalid_string_rewrite_policy', 400],
    ['unauthorized', 401],
    ['forge_token_invalid', 401],
    ['method_denied', 403],
    ['pool_forbidden', 403],
    ['string_rewrite_denied', 403],
    ['org_membership_required', 403],
    ['identity_conflict', 409],
    ['string_rewrite_revision_conflict', 409],
    ['client_name_ambiguous', 409],
    ['caller_ambiguous', 409],
    ['fallback_local', 424],
    ['internal_error', 500],
    ['forge_redirect_denied', 502],
    ['pool_policy_unavailable', 503],
    ['string_rewrite_policy_unavailable', 503],
    ['identities_cooling_down', 503],
    ['forge_app_key_format', 503],
    ['credentials_unavailable', 503],
    ['relay_overloaded', 503],
  ] as const)('%s answers %i', (code, status) => {
    expect(statusOf(code)).toBe(status);
  });

  it('gives every code an HTTP error status and a summary', () => {
    for (const code of ERROR_CODES) {
      const entry = ERROR_CATALOGUE[code];
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      expect(entry.summary.length).toBeGreaterThan(0);
    }
  });

  it('tells codes and reasons from other strings', () => {
    expect(isErrorCode('invalid_path')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
    expect(isFallbackReason('repo_not_public')).toBe(true);
    expect(isFallbackReason('invalid_path')).toBe(false);
  });

  it('holds the closed list of SPEC.md fallback reasons', () => {
    expect([...FALLBACK_REASONS].sort()).toEqual(
      [
        'route_denied',
        'local_credentials_required',
        'logs_denied',
        'search_denied',
        'relay_overloaded',
        'forge_response_too_large',
        'web_only_unavailable',
        'repo_not_public',
        'identity_pool_depleted',
        'forge_identity_depleted',
        'forge_rate_limited',
        'identities_cooling_down',
      ].sort(),
    );
    for (const reason of TRANSIENT_FALLBACK_REASONS) expect(FALLBACK_REASONS).toContain(reason);
  });

  it('names the client-side codes of SPEC.md', () => {
    for (const code of [
      'client_name_ambiguous',
      'unsupported_pr_detail_export',
      'unsupported_run_export',
    ]) {
      expect(Object.hasOwn(CLIENT_ERROR_CATALOGUE, code)).toBe(true);
    }
  });
});

describe('createErrorBody', () => {
  it('builds the DESIGN.md error body', () => {
    const body = createErrorBody('invalid_path', { requestId: 'req-1' });
    expect(body).toEqual({
      error: {
        code: 'invalid_path',
        message: ERROR_CATALOGUE.invalid_path.summary,
        request_id: 'req-1',
      },
    });
    expect(errorBodySchema.safeParse(body).success).toBe(true);
  });

  it('carries the reason of a fallback', () => {
    const body = createErrorBody('fallback_local', { requestId: 'r', reason: 'repo_not_public' });
    expect(body.error.reason).toBe('repo_not_public');
    expect(errorBodySchema.safeParse(body).success).toBe(true);
  });

  it.each([
    [
      'a reason on a non-424 code',
      { error: { code: 'invalid_path', message: 'm', reason: 'route_denied', request_id: 'r' } },
    ],
    ['a 424 without reason', { error: { code: 'fallback_local', message: 'm', request_id: 'r' } }],
    ['an unknown code', { error: { code: 'teapot', message: 'm', request_id: 'r' } }],
    [
      'an unknown reason',
      { error: { code: 'fallback_local', message: 'm', reason: 'because', request_id: 'r' } },
    ],
    ['no request id', { error: { code: 'invalid_path', message: 'm' } }],
  ])('rejects %s', (_name, input) => {
    expect(errorBodySchema.safeParse(input).success).toBe(false);
  });
});
