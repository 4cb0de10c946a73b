import type { ForgeWorld } from '../world/forge-world.js';
import type { RepoPermission, RepoRecord } from '../world/world-records.js';
import type { Principal } from './credential-registry.js';

/** The `permissions` object of a repository body. */
export interface RepoPermissions {
  readonly admin: boolean;
  readonly maintain: boolean;
  readonly push: boolean;
  readonly triage: boolean;
  readonly pull: boolean;
}

const LEVELS: readonly RepoPermission[] = ['pull', 'triage', 'push', 'maintain', 'admin'];

function toPermissions(level: RepoPermission): RepoPermissions {
  const rank = LEVELS.indexOf(level);
  return {
    admin: rank >= 4,
    maintain: rank >= 3,
    push: rank >= 2,
    triage: rank >= 1,
    pull: true,
  };
}

/**
 * The permission a principal holds on a repository, or `undefined` when it holds none
 * (then a private repository is invisible to it). Anonymous callers and installations
 * hold `pull` on public repositories; classic PATs need the `repo` scope for private ones.
 */
export function permissionOf(
  world: ForgeWorld,
  principal: Principal,
  repo: RepoRecord,
): RepoPermission | undefined {
  switch (principal.kind) {
    case 'anonymous':
    case 'app':
      return repo.private ? undefined : 'pull';
    case 'installation': {
      const covers =
        principal.account.toLowerCase() === repo.owner.toLowerCase() &&
        (principal.repositories === 'all' ||
          principal.repositories.some((r) => r.toLowerCase() === repo.name.toLowerCase()));
      return covers || !repo.private ? 'pull' : undefined;
    }
    case 'pat': {
      const login = principal.login.toLowerCase();
      let level: RepoPermission | undefined;
      if (repo.owner.toLowerCase() === login) level = 'admin';
      const org = world.getOrg(repo.owner);
      const membership = org?.members.get(login);
      if (level === undefined && membership) level = membership.role === 'admin' ? 'admin' : 'pull';
      const collaborator = repo.collaborators.get(login);
      if (
        collaborator &&
        (level === undefined || LEVELS.indexOf(collaborator) > LEVELS.indexOf(level))
      ) {
        level = collaborator;
      }
      if (repo.private && !principal.scopes.includes('repo')) return undefined;
      if (level === undefined && !repo.private) level = 'pull';
      return level;
    }
  }
}

/** True when the principal may read the repository. */
export function canRead(world: ForgeWorld, principal: Principal, repo: RepoRecord): boolean {
  return permissionOf(world, principal, repo) !== undefined;
}

/**
 * The token-dependent `permissions` field of repository bodies: absent for anonymous
 * callers, present for every authenticated one.
 */
export function permissionsFor(
  world: ForgeWorld,
  principal: Principal,
  repo: RepoRecord,
): RepoPermissions | undefined {
  if (principal.kind === 'anonymous') return undefined;
  const level = permissionOf(world, principal, repo);
  return level === undefined ? undefined : toPermissions(level);
}

/** True when `viewer` may see that `login` belongs to `org` (public, or viewer is a member). */
export function canSeeMembership(
  world: ForgeWorld,
  principal: Principal,
  org: string,
  login: string,
): boolean {
  const record = world.getOrg(org);
  const membership = record?.members.get(login.toLowerCase());
  if (!record || !membership) return false;
  if (membership.public) return true;
  return principal.kind === 'pat' && record.members.has(principal.login.toLowerCase());
}
