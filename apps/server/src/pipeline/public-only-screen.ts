import type { BodyEncoding } from '@relay/protocol';
import type { ItemRule, RouteVisibility } from '@relay/route-classifier';

/**
 * Fields of a repository object that describe the viewer (the credential that read it), not the
 * repository: the pooled identity's access (`permissions`, `role_name`), a clone token minted for
 * it (`temp_clone_token`), and the security settings GitHub shows only to admins
 * (`security_and_analysis`). They are removed from every repository object of every answer.
 */
export const VIEWER_RELATIVE_REPOSITORY_FIELDS = [
  'permissions',
  'role_name',
  'temp_clone_token',
  'security_and_analysis',
] as const;

/** What {@link screenAnswer} looks at: one upstream answer of a classified route. */
export interface ScreenInput {
  readonly visibility: RouteVisibility;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly encoding: BodyEncoding;
  /** A pooled identity obtained the answer (its counts may include private items). */
  readonly pooled: boolean;
}

/** A screened answer: public data only. */
export interface ScreenedAnswer {
  readonly ok: true;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** Items removed because their body did not prove them public. */
  readonly removed: number;
}

/**
 * A refused answer: the body revealed a private repository (named, lowercased, when the body
 * names it), or a single item that is not proven public.
 */
export interface RefusedAnswer {
  readonly ok: false;
  /** `owner/repo` of every repository the body revealed as private (lowercase). */
  readonly privateRepositories: readonly string[];
}

/** The outcome of {@link screenAnswer}. */
export type ScreenOutcome = ScreenedAnswer | RefusedAnswer;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A repository object: it names itself (`full_name`) and says whether it is private. */
function isRepositoryObject(value: JsonObject): boolean {
  return (
    typeof value.full_name === 'string' &&
    (typeof value.private === 'boolean' || typeof value.visibility === 'string')
  );
}

/** A repository object that says anything but public. */
function isPrivateRepository(value: JsonObject): boolean {
  if (value.private !== false) return true;
  return value.visibility !== undefined && value.visibility !== 'public';
}

const VIEWER_FIELDS: ReadonlySet<string> = new Set(VIEWER_RELATIVE_REPOSITORY_FIELDS);

/**
 * A team object that says it is secret (`privacy: "secret"`): only the organization's members
 * see it, so a member's pooled token would share its name (a pull request's `requested_teams`,
 * the `teams` of its requested reviewers). Removed from every list it appears in.
 */
function isSecretTeam(value: unknown): boolean {
  return isObject(value) && typeof value.slug === 'string' && value.privacy === 'secret';
}

/**
 * Walks a JSON value: removes the viewer-relative fields of every repository object and every
 * secret team from the lists it appears in (copying only what changes), and collects the full
 * names of repository objects that say private.
 */
function scrub(value: unknown, privateNames: Set<string>): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (isSecretTeam(item)) {
        copy ??= value.slice(0, index);
        continue;
      }
      const scrubbed = scrub(item, privateNames);
      if (copy !== undefined) copy.push(scrubbed);
      else if (scrubbed !== item) {
        copy = value.slice(0, index);
        copy.push(scrubbed);
      }
    }
    return copy ?? value;
  }
  if (!isObject(value)) return value;
  const repository = isRepositoryObject(value);
  if (repository && isPrivateRepository(value)) {
    privateNames.add(String(value.full_name).toLowerCase());
  }
  let copy: JsonObject | undefined;
  for (const key of Object.keys(value)) {
    if (repository && VIEWER_FIELDS.has(key)) {
      copy ??= { ...value };
      Reflect.deleteProperty(copy, key);
      continue;
    }
    const child = value[key];
    if (typeof child !== 'object' || child === null) continue;
    const scrubbed = scrub(child, privateNames);
    if (scrubbed !== child) {
      copy ??= { ...value };
      copy[key] = scrubbed;
    }
  }
  return copy ?? value;
}

/** Whether one item proves itself public by its own body under `rule`. */
function provesPublic(rule: ItemRule, item: unknown): boolean {
  if (!isObject(item)) return false;
  switch (rule) {
    case 'repository':
      return isRepositoryObject(item) && !isPrivateRepository(item);
    case 'gist':
    case 'event':
      return item.public === true;
  }
}

/** Where the items of a collection answer are: the body itself, or a search's `items`. */
function itemsOf(
  body: unknown,
): { readonly items: readonly unknown[]; wrapped: boolean } | undefined {
  if (Array.isArray(body)) return { items: body, wrapped: false };
  if (isObject(body) && Array.isArray(body.items)) return { items: body.items, wrapped: true };
  return undefined;
}

/** A Link header without its `rel="last"` entry (whose page number counts removed items). */
function withoutLastLink(link: string): string {
  return link
    .split(/,(?=\s*<)/)
    .filter((part) => !/;\s*rel="?last"?/i.test(part))
    .join(',')
    .trim();
}

function withoutHeader(
  headers: Readonly<Record<string, string>>,
  name: string,
): Readonly<Record<string, string>> {
  const copy = { ...headers };
  Reflect.deleteProperty(copy, name);
  return copy;
}

const isSuccess = (status: number) => status >= 200 && status < 300;

/**
 * Screens one upstream answer so that only public data leaves the relay or enters the shared
 * cache (the public-only guarantee of the server README). Pure.
 *
 * 1. Every repository object loses its viewer-relative fields
 *    ({@link VIEWER_RELATIVE_REPOSITORY_FIELDS}).
 * 2. A route with an item rule keeps only the items that prove themselves public (and embed no
 *    private repository); a single object under an item rule (a gist) that does not is refused.
 * 3. Whatever remains must reveal no private repository: one that does refuses the whole answer
 *    with the names it revealed.
 * 4. When items were removed, or a pooled identity answered a `filtered` collection (whose counts
 *    may include private items), the Link header loses `rel="last"` and a search's
 *    `total_count` becomes the number of items served on the page; its `incomplete_results` is
 *    true when more pages follow (or the forge said so), never because items were removed: a
 *    search whose only matches were removed must read exactly like one that matched nothing,
 *    or any caller could test words against the private repositories a pooled identity sees.
 *
 * A successful non-JSON answer of a `filtered` route cannot be proven public and is refused;
 * other non-JSON answers (raw contents, diffs, logs) pass: their repository was proven public
 * before they were read.
 *
 * @param input - the answer and its route's visibility
 */
export function screenAnswer(input: ScreenInput): ScreenOutcome {
  const { visibility } = input;
  if (input.encoding !== 'json') {
    const unprovable = visibility.class === 'filtered' && isSuccess(input.status);
    return unprovable
      ? { ok: false, privateRepositories: [] }
      : { ok: true, headers: input.headers, body: input.body, removed: 0 };
  }
  let body = input.body;
  let removed = 0;
  let wrapped = false;
  const rule = visibility.items;
  if (rule !== undefined && isSuccess(input.status)) {
    const collection = itemsOf(body);
    if (collection === undefined) {
      // One item (a gist): it proves itself public, or the answer is refused.
      const names = new Set<string>();
      scrub(body, names);
      if (!provesPublic(rule, body) || names.size > 0) {
        return { ok: false, privateRepositories: [...names] };
      }
    } else {
      wrapped = collection.wrapped;
      const kept = collection.items.filter((item) => {
        const names = new Set<string>();
        scrub(item, names);
        return names.size === 0 && provesPublic(rule, item);
      });
      removed = collection.items.length - kept.length;
      if (removed > 0) body = wrapped ? { ...(body as JsonObject), items: kept } : kept;
    }
  }
  const privateNames = new Set<string>();
  body = scrub(body, privateNames);
  if (privateNames.size > 0) return { ok: false, privateRepositories: [...privateNames] };

  let headers = input.headers;
  const unprovenCounts = removed > 0 || (input.pooled && visibility.class === 'filtered');
  if (unprovenCounts && isSuccess(input.status)) {
    const link = headers.link;
    if (link !== undefined) {
      const trimmed = withoutLastLink(link);
      headers = { ...headers, link: trimmed };
      if (trimmed === '') headers = withoutHeader(headers, 'link');
    }
    if (wrapped && isObject(body) && Array.isArray(body.items) && 'total_count' in body) {
      const more = /;\s*rel="?next"?/i.test(link ?? '');
      body = {
        ...body,
        total_count: body.items.length,
        incomplete_results: more || body.incomplete_results === true,
      };
    }
  }
  return { ok: true, headers, body, removed };
}
