import { canRead, canSeeMembership } from '../auth/access-policy.js';
import type { RepoRecord } from '../world/world-records.js';
import {
  NOT_FOUND,
  json,
  list,
  type RouteContext,
  type RouteDef,
  type RouteOutcome,
} from './route-types.js';

function visibleEvents(
  ctx: RouteContext,
  filter: (repoOwner: string, actor: string) => boolean,
): unknown[] {
  return ctx.world
    .repos()
    .filter((r) => canRead(ctx.world, ctx.principal, r))
    .flatMap((repo) =>
      repo.events.filter((e) => filter(repo.owner, e.actor)).map((e) => ({ e, repo })),
    )
    .sort((a, b) => b.e.createdAt - a.e.createdAt || b.e.id - a.e.id)
    .map(({ e, repo }) => ctx.render.event(repo, e));
}

function withAccount(
  ctx: RouteContext,
  name: string,
  then: (login: string) => RouteOutcome,
): RouteOutcome {
  const account = ctx.world.getAccount(ctx.params[name] ?? '');
  return account ? then(account.login) : NOT_FOUND;
}

/** Routes under /users, /orgs and /gists. */
export const ACCOUNT_ROUTES: readonly RouteDef[] = [
  {
    template: '/users/{username}',
    handler: (ctx) =>
      withAccount(ctx, 'username', (login) => {
        const account = ctx.world.getAccount(login);
        return account ? json(ctx.render.account(account), account.createdAt) : NOT_FOUND;
      }),
  },
  {
    // Public repositories of the user; a token of the user itself also sees its private ones
    // (as GitHub answers such a token), each with `private: true` and its `permissions`.
    template: '/users/{username}/repos',
    handler: (ctx) =>
      withAccount(ctx, 'username', (login) => {
        const self =
          ctx.principal.kind === 'pat' && ctx.principal.login.toLowerCase() === login.toLowerCase();
        return list(
          ctx.world
            .repos()
            .filter(
              (r) =>
                r.owner === login && (!r.private || (self && canRead(ctx.world, ctx.principal, r))),
            )
            .sort((a, b) => a.name.localeCompare(b.name))
            .map((r) => ctx.render.repo(r)),
        );
      }),
  },
  {
    template: '/users/{username}/orgs',
    handler: (ctx) =>
      withAccount(ctx, 'username', (login) =>
        list(
          ctx.world
            .accounts()
            .filter((a) => a.kind === 'org' && a.members.get(login.toLowerCase())?.public === true)
            .map((a) => ctx.render.orgSummary(a)),
        ),
      ),
  },
  {
    template: '/users/{username}/gists',
    handler: (ctx) =>
      withAccount(ctx, 'username', (login) => {
        const self =
          ctx.principal.kind === 'pat' && ctx.principal.login.toLowerCase() === login.toLowerCase();
        return list(
          ctx.world
            .gists()
            .filter((g) => g.owner === login && (g.public || self))
            .map((g) => ctx.render.gist(g, false)),
        );
      }),
  },
  {
    template: '/users/{username}/followers',
    handler: (ctx) =>
      withAccount(ctx, 'username', (login) =>
        list((ctx.world.getUser(login)?.followers ?? []).map((l) => ctx.render.user(l))),
      ),
  },
  {
    template: '/users/{username}/following',
    handler: (ctx) =>
      withAccount(ctx, 'username', (login) =>
        list((ctx.world.getUser(login)?.following ?? []).map((l) => ctx.render.user(l))),
      ),
  },
  {
    template: '/users/{username}/events',
    handler: (ctx) =>
      withAccount(ctx, 'username', (login) =>
        list(visibleEvents(ctx, (_o, actor) => actor.toLowerCase() === login.toLowerCase())),
      ),
  },
  {
    template: '/users/{username}/received_events',
    handler: (ctx) =>
      withAccount(ctx, 'username', (login) => {
        const following = new Set(
          (ctx.world.getUser(login)?.following ?? []).map((l) => l.toLowerCase()),
        );
        return list(
          visibleEvents(
            ctx,
            (owner, actor) =>
              following.has(actor.toLowerCase()) || owner.toLowerCase() === login.toLowerCase(),
          ),
        );
      }),
  },
  {
    template: '/users/{username}/keys',
    handler: (ctx) =>
      withAccount(ctx, 'username', (login) =>
        list((ctx.world.getUser(login)?.keys ?? []).map((k) => ({ id: k.id, key: k.key }))),
      ),
  },
  {
    template: '/users/{username}/gpg_keys',
    handler: (ctx) => withAccount(ctx, 'username', () => list([])),
  },
  {
    template: '/orgs/{org}/repos',
    handler: (ctx) => {
      const org = ctx.world.getOrg(ctx.params.org ?? '');
      if (!org) return NOT_FOUND;
      // GitHub's `type`: all (the default), public, private, forks, sources, member.
      const type = ctx.url.searchParams.get('type') ?? 'all';
      const ofType = (r: RepoRecord): boolean => {
        if (type === 'public') return !r.private;
        if (type === 'private') return r.private;
        if (type === 'forks') return r.forkOf !== null;
        if (type === 'sources') return r.forkOf === null;
        return true;
      };
      return list(
        ctx.world
          .repos()
          .filter((r) => r.owner === org.login && canRead(ctx.world, ctx.principal, r))
          .filter(ofType)
          .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
          .map((r) => ctx.render.repo(r)),
      );
    },
  },
  {
    template: '/orgs/{org}/events',
    handler: (ctx) => {
      const org = ctx.world.getOrg(ctx.params.org ?? '');
      if (!org) return NOT_FOUND;
      return list(
        visibleEvents(ctx, (owner) => owner === org.login).filter(
          (e) => (e as { public: boolean }).public,
        ),
      );
    },
  },
  {
    template: '/orgs/{org}/public_members',
    handler: (ctx) => {
      const org = ctx.world.getOrg(ctx.params.org ?? '');
      if (!org) return NOT_FOUND;
      return list(
        [...org.members.entries()]
          .filter(([, m]) => m.public)
          .map(([login]) => ctx.render.user(login)),
      );
    },
  },
  {
    template: '/orgs/{org}/public_members/{username}',
    handler: (ctx) => {
      const org = ctx.world.getOrg(ctx.params.org ?? '');
      const m = org?.members.get((ctx.params.username ?? '').toLowerCase());
      return m?.public === true ? { kind: 'empty', status: 204 } : { kind: 'empty', status: 404 };
    },
  },
  {
    template: '/orgs/{org}/members/{username}',
    handler: (ctx) => {
      const org = ctx.world.getOrg(ctx.params.org ?? '');
      if (!org) return NOT_FOUND;
      const login = ctx.params.username ?? '';
      if (ctx.principal.kind === 'pat' && !org.members.has(ctx.principal.login.toLowerCase())) {
        // Non-members are redirected to the public check, as on GitHub.
        return {
          kind: 'empty',
          status: 302,
          headers: { location: `${ctx.urls.api}/orgs/${org.login}/public_members/${login}` },
        };
      }
      return canSeeMembership(ctx.world, ctx.principal, org.login, login)
        ? { kind: 'empty', status: 204 }
        : { kind: 'empty', status: 404 };
    },
  },
  {
    template: '/gists/{gist_id}',
    handler: (ctx) => {
      const gist = ctx.world.getGist(ctx.params.gist_id ?? '');
      return gist ? json(ctx.render.gist(gist, true), gist.createdAt) : NOT_FOUND;
    },
  },
];
