import type { PoolPolicy } from '@relay/protocol';
import type { SelectionRoute } from '../identity-eligibility.js';
import type { PoolIdentity, PoolIdentityScope } from '../pool-identity.js';

/** A PAT identity with the given scopes. */
export function pat(id: string, scopes: readonly PoolIdentityScope[], weight = 100): PoolIdentity {
  return { id, kind: 'pat', secretRef: `SECRET_${id}`, installationId: null, scopes, weight };
}

/** A forge_app identity with the given scopes. */
export function app(
  id: string,
  scopes: readonly PoolIdentityScope[],
  installationId = 42,
  weight = 100,
): PoolIdentity {
  return { id, kind: 'forge_app', secretRef: `KEY_${id}`, installationId, scopes, weight };
}

/** A pool policy allowing `octo` by default. */
export function policy(overrides: Partial<PoolPolicy> = {}): PoolPolicy {
  return {
    allowed_owners: ['octo'],
    allow_public_repos: true,
    allow_search: false,
    allow_logs: true,
    ...overrides,
  };
}

/** A public repository route of octo/hello in the core bucket. */
export function repoRoute(overrides: Partial<SelectionRoute> = {}): SelectionRoute {
  return {
    kind: 'repo_view',
    key: 'repo_view:octo/hello',
    bucket: 'core',
    owner: 'octo',
    repo: 'hello',
    publicVerified: true,
    ...overrides,
  };
}

/** A route without an owner. */
export function ownerlessRoute(): SelectionRoute {
  return { kind: 'rate_limit', key: 'rate_limit', bucket: 'core', publicVerified: false };
}
