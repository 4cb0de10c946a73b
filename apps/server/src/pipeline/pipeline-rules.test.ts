import { createTransportError } from '@relay/forge-transport';
import { err, ok } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import { forgeResponse } from './__fixtures__/forge-responses.js';
import { isRunCompleted, judgeLogProbe } from './job-log-checks.js';
import { toPublicProfile } from './public-profile-filter.js';
import { toResourceBucket, toRouteKey } from './route-identity.js';
import { judgeAnonymousAnswer } from './token-free-lanes.js';
import { toAcquireFailure, toTransportFailure } from './upstream-lanes.js';

describe('anonymous answers', () => {
  it.each([
    [200, {}, 'serve'],
    [404, {}, 'serve'],
    [304, {}, 'serve'],
    [403, { remaining: 5 }, 'serve'],
    [403, { remaining: 0 }, 'exhausted'],
    [403, { retryAfterSeconds: 60 }, 'exhausted'],
    [429, {}, 'exhausted'],
    [401, {}, 'unavailable'],
    [502, {}, 'unavailable'],
  ] as const)('%i %o → %s', (status, rateLimit, verdict) => {
    expect(judgeAnonymousAnswer(forgeResponse(status, null, rateLimit))).toBe(verdict);
  });
});

describe('acquisition failures', () => {
  it.each([
    [
      { code: 'identities_cooling_down', retryAt: 0 },
      undefined,
      false,
      'error',
      'identities_cooling_down',
    ],
    [
      { code: 'identities_cooling_down', retryAt: 0 },
      undefined,
      true,
      'fallback',
      'identities_cooling_down',
    ],
    [
      { code: 'identities_cooling_down', retryAt: 0 },
      'forge_rate_limited',
      false,
      'fallback',
      'forge_rate_limited',
    ],
    [
      { code: 'forge_rate_limited', retryAt: 0 },
      undefined,
      false,
      'fallback',
      'forge_rate_limited',
    ],
    [
      { code: 'identity_pool_depleted', retryAt: 0 },
      undefined,
      false,
      'fallback',
      'identity_pool_depleted',
    ],
    [
      { code: 'identity_pool_depleted', retryAt: 0 },
      'forge_identity_depleted',
      false,
      'fallback',
      'forge_identity_depleted',
    ],
    [
      { code: 'no_eligible_identity', cause: 'no_identity_for_route' },
      undefined,
      false,
      'fallback',
      'identity_pool_depleted',
    ],
    [
      { code: 'no_eligible_identity', cause: 'repo_not_verified_public' },
      undefined,
      false,
      'fallback',
      'repo_not_public',
    ],
    [
      {
        code: 'credential_failed',
        error: { code: 'secret_unavailable' },
        errorCode: 'credentials_unavailable',
      },
      undefined,
      false,
      'error',
      'credentials_unavailable',
    ],
    [
      {
        code: 'credential_failed',
        error: { code: 'forge_app_key_format' },
        errorCode: 'forge_app_key_format',
      },
      undefined,
      false,
      'error',
      'forge_app_key_format',
    ],
    [
      { code: 'coordinator_unavailable', cause: 'unavailable' },
      undefined,
      false,
      'fallback',
      'relay_overloaded',
    ],
    [
      { code: 'coordinator_unavailable', cause: 'method_unsupported' },
      undefined,
      false,
      'error',
      'internal_error',
    ],
  ] as const)(
    '%o (throttled %s, anonymous spent %s) → %s %s',
    (error, throttled, spent, kind, code) => {
      const failure = toAcquireFailure(error, throttled, spent).failure;
      expect(failure.kind).toBe(kind);
      expect(failure.kind === 'fallback' ? failure.reason : failure.code).toBe(code);
    },
  );
});

describe('transport failures', () => {
  it.each([
    ['string_rewrite_denied', 'string_rewrite_denied'],
    ['forge_redirect_denied', 'forge_redirect_denied'],
    ['forge_response_too_large', 'fallback_local:forge_response_too_large'],
    ['forge_timeout', 'forge_timeout'],
    ['forge_unreachable', 'forge_unreachable'],
    ['invalid_header', 'invalid_request'],
  ] as const)('%s → %s', (code, answer) => {
    const failure = toTransportFailure(createTransportError(code));
    expect(failure.kind === 'fallback' ? `fallback_local:${failure.reason}` : failure.code).toBe(
      answer,
    );
  });
});

describe('job logs', () => {
  const LOG = '/repos/a/b/actions/jobs/1/logs';
  /** Answers the job read, then the run read; records the paths asked. */
  const reads = (job: ReturnType<typeof forgeResponse>, run?: ReturnType<typeof forgeResponse>) => {
    const asked: string[] = [];
    const read = (path: string) => {
      asked.push(path);
      return Promise.resolve(ok(asked.length === 1 ? job : (run ?? forgeResponse(404, null))));
    };
    return { read, asked };
  };
  const completedRun = forgeResponse(200, { id: 7, status: 'completed' });
  it.each([
    [
      'job and run completed',
      forgeResponse(200, { status: 'completed', run_id: 7 }),
      completedRun,
      true,
    ],
    [
      'job completed, run still in progress (another job runs)',
      forgeResponse(200, { status: 'completed', run_id: 7 }),
      forgeResponse(200, { id: 7, status: 'in_progress' }),
      false,
    ],
    [
      'job in progress',
      forgeResponse(200, { status: 'in_progress', run_id: 7 }),
      completedRun,
      false,
    ],
    ['job without run_id', forgeResponse(200, { status: 'completed' }), completedRun, false],
    [
      'job run_id not an integer',
      forgeResponse(200, { status: 'completed', run_id: '7' }),
      completedRun,
      false,
    ],
    ['job 404', forgeResponse(404, { status: 'completed' }), completedRun, false],
    [
      'run 404',
      forgeResponse(200, { status: 'completed', run_id: 7 }),
      forgeResponse(404, null),
      false,
    ],
    ['job body an array', forgeResponse(200, ['completed']), completedRun, false],
  ])('preflight: %s', async (_name, job, run, completed) => {
    const { read, asked } = reads(job, run);
    expect(await isRunCompleted(read, LOG)).toBe(completed);
    if (asked.length === 2)
      expect(asked).toEqual(['/repos/a/b/actions/jobs/1', '/repos/a/b/actions/runs/7']);
  });

  it('preflight of a path that is not a job log answers false without a read', async () => {
    const { read, asked } = reads(
      forgeResponse(200, { status: 'completed', run_id: 7 }),
      completedRun,
    );
    expect(await isRunCompleted(read, '/repos/a/b/actions/jobs/1')).toBe(false);
    expect(asked).toEqual([]);
  });

  it.each([
    [err(createTransportError('forge_redirect_denied', { status: 302 })), 'present'],
    [ok(forgeResponse(200, 'log')), 'present'],
    [ok(forgeResponse(404, null)), 'gone'],
    [ok(forgeResponse(410, null)), 'gone'],
    [ok(forgeResponse(500, null)), 'unknown'],
    [err(createTransportError('forge_unreachable')), 'unknown'],
  ])('existence probe %#', (result, verdict) => {
    expect(judgeLogProbe(result)).toBe(verdict);
  });
});

describe('route keys and buckets', () => {
  it.each([
    [{ kind: 'rate_limit', owner: undefined, repo: undefined }, 'rate_limit'],
    [{ kind: 'user_view', owner: 'Alice', repo: undefined }, 'user_view:alice'],
    [{ kind: 'pr_view', owner: 'Acme', repo: 'Widgets' }, 'pr_view:acme/widgets'],
  ] as const)('%o → %s', (route, key) => {
    expect(toRouteKey(route)).toBe(key);
  });

  it.each([
    ['search_code', 'search', 'code_search'],
    ['search_issues', 'search', 'search'],
    ['repo_view', 'api', 'core'],
    ['job_logs', 'log', 'core'],
  ] as const)('%s → %s bucket', (kind, routeClass, bucket) => {
    expect(toResourceBucket({ kind, routeClass })).toBe(bucket);
  });
});

describe('GET /user public profile', () => {
  it('drops private account fields and keeps the public ones', () => {
    expect(
      toPublicProfile({ login: 'alice', email: 'a@x', plan: { name: 'pro' }, private_gists: 3 }),
    ).toEqual({ login: 'alice', email: 'a@x' });
    expect(toPublicProfile(['not', 'a', 'profile'])).toEqual(['not', 'a', 'profile']);
  });
});
