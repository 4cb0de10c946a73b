import { describe, expect, it } from 'vitest';
import {
  explainIneligibility,
  isIdentityEligible,
  type SelectionRoute,
} from './identity-eligibility.js';
import type { PoolIdentity } from './pool-identity.js';
import { app, ownerlessRoute, pat, policy, repoRoute } from './__fixtures__/identities.js';

const ownerPat = pat('owner-pat', [{ owner: 'octo' }]);
const repoPat = pat('repo-pat', [{ owner: 'octo', repo: 'hello' }]);
const otherRepoPat = pat('other-repo-pat', [{ owner: 'octo', repo: 'world' }]);
const broadPat = pat('broad-pat', [{ owner: '*' }]);
const foreignPat = pat('foreign-pat', [{ owner: 'elsewhere' }]);
const ownerApp = app('owner-app', [{ owner: 'octo' }]);
const repoApp = app('repo-app', [{ owner: 'OCTO', repo: 'Hello' }]);
const wildcardApp = app('wildcard-app', [{ owner: '*' }]);
const unscoped = pat('unscoped', []);

const strangerRoute = repoRoute({ key: 'repo_view:stranger/lib', owner: 'stranger', repo: 'lib' });

interface Row {
  readonly rule: string;
  readonly identity: PoolIdentity;
  readonly route: SelectionRoute;
  readonly allowPublic?: boolean;
  readonly eligible: boolean;
}

const rows: readonly Row[] = [
  {
    rule: 'owner scope covers the owner’s public repo',
    identity: ownerPat,
    route: repoRoute(),
    eligible: true,
  },
  {
    rule: 'owner/repo scope covers that repo',
    identity: repoPat,
    route: repoRoute(),
    eligible: true,
  },
  {
    rule: 'owner/repo scope matches case-insensitively',
    identity: repoApp,
    route: repoRoute(),
    eligible: true,
  },
  {
    rule: 'owner/repo scope does not cover another repo',
    identity: otherRepoPat,
    route: repoRoute(),
    eligible: false,
  },
  {
    rule: 'scope of another owner does not cover',
    identity: foreignPat,
    route: repoRoute(),
    eligible: false,
  },
  {
    rule: 'app installation by its owner scope',
    identity: ownerApp,
    route: repoRoute(),
    eligible: true,
  },
  {
    rule: "'*' PAT covers explicitly allowed owners",
    identity: broadPat,
    route: repoRoute(),
    eligible: true,
  },
  {
    rule: "'*' PAT covers public repos of other owners",
    identity: broadPat,
    route: strangerRoute,
    eligible: true,
  },
  {
    rule: 'owner-scoped PAT does not cover other owners',
    identity: ownerPat,
    route: strangerRoute,
    eligible: false,
  },
  {
    rule: 'app installations never serve other owners',
    identity: ownerApp,
    route: strangerRoute,
    eligible: false,
  },
  {
    rule: "'*' on an app is ignored",
    identity: wildcardApp,
    route: strangerRoute,
    eligible: false,
  },
  {
    rule: "'*' PAT does not cover other owners when allow_public_repos is off",
    identity: broadPat,
    route: strangerRoute,
    allowPublic: false,
    eligible: false,
  },
  {
    rule: 'allowed owners stay served when allow_public_repos is off',
    identity: ownerPat,
    route: repoRoute(),
    allowPublic: false,
    eligible: true,
  },
  {
    rule: 'a repo not proven public gets no identity (private never)',
    identity: ownerPat,
    route: repoRoute({ publicVerified: false }),
    eligible: false,
  },
  {
    rule: "a repo not proven public gets no '*' PAT either",
    identity: broadPat,
    route: repoRoute({ publicVerified: false }),
    eligible: false,
  },
  {
    rule: 'owner-only route of an allowed owner: a repo scope on that owner covers it',
    identity: otherRepoPat,
    route: {
      kind: 'org_repo_list',
      key: 'org_repo_list:octo',
      bucket: 'core',
      owner: 'octo',
      publicVerified: false,
    },
    eligible: true,
  },
  {
    rule: 'route without owner: every identity',
    identity: unscoped,
    route: ownerlessRoute(),
    eligible: true,
  },
  {
    rule: 'route without owner: apps too',
    identity: repoApp,
    route: ownerlessRoute(),
    eligible: true,
  },
  {
    rule: 'route without owner: even with allow_public_repos off',
    identity: foreignPat,
    route: ownerlessRoute(),
    allowPublic: false,
    eligible: true,
  },
];

describe('isIdentityEligible', () => {
  it.each(rows)('$rule', ({ identity, route, allowPublic, eligible }) => {
    expect(
      isIdentityEligible(identity, route, policy({ allow_public_repos: allowPublic ?? true })),
    ).toBe(eligible);
  });
});

describe('explainIneligibility', () => {
  it.each([
    ['repo_not_verified_public', repoRoute({ publicVerified: false }), true],
    ['owner_not_allowed', strangerRoute, false],
    [undefined, strangerRoute, true],
    [undefined, repoRoute(), false],
    [undefined, ownerlessRoute(), false],
  ] as const)('%s for %o', (cause, route, allowPublic) => {
    expect(explainIneligibility(route, policy({ allow_public_repos: allowPublic }))).toBe(cause);
  });
});
