import type { GoJsonValue } from './go-json-encoder.js';
import type { JsonField } from './json-field-catalogue.js';
import { GO_ZERO_TIME, removeExcessiveWhitespace, renderTsvTable } from './tsv-table.js';

/** A field of `gh release view --json`. */
export type ReleaseViewField = JsonField<'release view'>;

/** A time as gh holds it after decoding: RFC 3339 text in Go's `MarshalJSON` form (RFC3339Nano). */
export interface GoTime {
  /** `t.Format(time.RFC3339)`: seconds only, offset kept, `Z` for UTC. */
  readonly seconds: string;
  /** `t.MarshalJSON()`: RFC3339Nano, trailing zeros of the fraction dropped. */
  readonly json: string;
}

/** Go's zero `time.Time`. */
const ZERO_TIME: GoTime = { seconds: GO_ZERO_TIME, json: GO_ZERO_TIME };

/** One release asset after gh's `ReleaseAsset` decoding. */
export interface GoReleaseAsset {
  readonly id: string;
  readonly name: string;
  readonly label: string;
  readonly size: number;
  readonly state: string;
  readonly apiUrl: string;
  readonly createdAt: GoTime;
  readonly updatedAt: GoTime;
  readonly downloadCount: number;
  readonly contentType: string;
  readonly url: string;
}

/**
 * A REST release after gh's `shared.Release` decoding (cli/cli v2.60.0
 * pkg/cmd/release/shared/fetch.go): `null` or missing strings are `""`, a missing
 * `created_at` is Go's zero time, `published_at` stays `null`, a missing author is empty.
 */
export interface GoRelease {
  readonly databaseId: number;
  readonly id: string;
  readonly tagName: string;
  readonly name: string;
  readonly body: string;
  readonly isDraft: boolean;
  readonly isPrerelease: boolean;
  readonly createdAt: GoTime;
  readonly publishedAt: GoTime | null;
  readonly targetCommitish: string;
  readonly apiUrl: string;
  readonly uploadUrl: string;
  readonly tarballUrl: string;
  readonly zipballUrl: string;
  readonly url: string;
  readonly assets: readonly GoReleaseAsset[];
  readonly author: { readonly id: string; readonly login: string };
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Decodes a JSON time as Go's `time.Time.UnmarshalJSON` does for the times GitHub writes;
 * `undefined` for text this module does not prove Go reads the same way (gh would fail or
 * differ: the caller runs gh).
 */
export function decodeGoTime(text: string): GoTime | undefined {
  const match = RFC3339.exec(text);
  if (match === null) return undefined;
  const [, base = '', fraction = '', zone = ''] = match;
  const offset = zone === '+00:00' || zone === '-00:00' ? 'Z' : zone;
  const digits = fraction.replace(/0+$/, '');
  return {
    seconds: `${base}${offset}`,
    json: `${base}${digits === '' ? '' : `.${digits}`}${offset}`,
  };
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Go's decoding of one member into a typed field; `undefined` marks a type Go refuses. */
type Decoded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false };

const refused = { ok: false } as const;
const ok = <T>(value: T): Decoded<T> => ({ ok: true, value });

function goString(value: unknown): Decoded<string> {
  if (value === undefined || value === null) return ok('');
  return typeof value === 'string' ? ok(value) : refused;
}

function goBool(value: unknown): Decoded<boolean> {
  if (value === undefined || value === null) return ok(false);
  return typeof value === 'boolean' ? ok(value) : refused;
}

function goInt(value: unknown): Decoded<number> {
  if (value === undefined || value === null) return ok(0);
  return typeof value === 'number' && Number.isSafeInteger(value) ? ok(value) : refused;
}

function goTime(value: unknown): Decoded<GoTime> {
  if (value === undefined || value === null) return ok(ZERO_TIME);
  if (typeof value !== 'string') return refused;
  const time = decodeGoTime(value);
  return time === undefined ? refused : ok(time);
}

function goTimePointer(value: unknown): Decoded<GoTime | null> {
  if (value === undefined || value === null) return ok(null);
  return goTime(value);
}

/** Unwraps decoded members; `undefined` when any was refused. */
function all<T extends Record<string, Decoded<unknown>>>(
  members: T,
): { [K in keyof T]: T[K] extends Decoded<infer V> ? V : never } | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(members)) {
    if (!member.ok) return undefined;
    out[key] = member.value;
  }
  return out as { [K in keyof T]: T[K] extends Decoded<infer V> ? V : never };
}

function decodeAsset(value: unknown): GoReleaseAsset | undefined {
  if (!isRecord(value)) return undefined;
  return all({
    id: goString(value.node_id),
    name: goString(value.name),
    label: goString(value.label),
    size: goInt(value.size),
    state: goString(value.state),
    apiUrl: goString(value.url),
    createdAt: goTime(value.created_at),
    updatedAt: goTime(value.updated_at),
    downloadCount: goInt(value.download_count),
    contentType: goString(value.content_type),
    url: goString(value.browser_download_url),
  });
}

/**
 * Whether a decoded JSON value holds a backspace or form feed: gh's sanitizer turns
 * `\u0008` into `^H` but leaves `\b` alone, and the relayed (parsed) body no longer tells
 * which escape GitHub wrote, so the caller runs gh.
 */
export function hasEscapeDependentControl(value: unknown): boolean {
  if (typeof value === 'string') return /[\b\f]/.test(value);
  if (Array.isArray(value)) return value.some((item) => hasEscapeDependentControl(item));
  if (typeof value === 'object' && value !== null) {
    return Object.values(value).some((item) => hasEscapeDependentControl(item));
  }
  return false;
}

/**
 * Decodes a (sanitized) REST release into gh's `shared.Release`; `undefined` when Go's
 * decoder would refuse it or this module cannot prove the same result (a backspace or form
 * feed: {@link hasEscapeDependentControl}).
 */
export function decodeRestRelease(value: unknown): GoRelease | undefined {
  if (!isRecord(value) || hasEscapeDependentControl(value)) return undefined;
  const author = value.author;
  if (author !== undefined && author !== null && !isRecord(author)) return undefined;
  const authorFields = all({
    id: goString(isRecord(author) ? author.node_id : undefined),
    login: goString(isRecord(author) ? author.login : undefined),
  });
  const rawAssets = value.assets;
  if (rawAssets !== undefined && rawAssets !== null && !Array.isArray(rawAssets)) return undefined;
  const assets: GoReleaseAsset[] = [];
  for (const item of (rawAssets ?? []) as unknown[]) {
    const asset = decodeAsset(item);
    if (asset === undefined) return undefined;
    assets.push(asset);
  }
  const scalars = all({
    databaseId: goInt(value.id),
    id: goString(value.node_id),
    tagName: goString(value.tag_name),
    name: goString(value.name),
    body: goString(value.body),
    isDraft: goBool(value.draft),
    isPrerelease: goBool(value.prerelease),
    createdAt: goTime(value.created_at),
    publishedAt: goTimePointer(value.published_at),
    targetCommitish: goString(value.target_commitish),
    apiUrl: goString(value.url),
    uploadUrl: goString(value.upload_url),
    tarballUrl: goString(value.tarball_url),
    zipballUrl: goString(value.zipball_url),
    url: goString(value.html_url),
  });
  if (scalars === undefined || authorFields === undefined) return undefined;
  return { ...scalars, assets, author: authorFields };
}

/** One asset as gh's `Release.ExportData` writes it (a Go map: keys sorted on output). */
function exportAsset(asset: GoReleaseAsset): GoJsonValue {
  return {
    url: asset.url,
    apiUrl: asset.apiUrl,
    id: asset.id,
    name: asset.name,
    label: asset.label,
    size: asset.size,
    state: asset.state,
    createdAt: asset.createdAt.json,
    updatedAt: asset.updatedAt.json,
    downloadCount: asset.downloadCount,
    contentType: asset.contentType,
  };
}

/**
 * One field of gh's `Release.ExportData` (every field of the catalogue is served from REST:
 * `gh release view` reads REST itself).
 */
export function releaseViewFieldValue(release: GoRelease, field: ReleaseViewField): GoJsonValue {
  switch (field) {
    case 'author':
      return { id: release.author.id, login: release.author.login };
    case 'assets':
      return release.assets.map(exportAsset);
    case 'createdAt':
      return release.createdAt.json;
    case 'publishedAt':
      return release.publishedAt === null ? null : release.publishedAt.json;
    case 'apiUrl':
    case 'body':
    case 'databaseId':
    case 'id':
    case 'isDraft':
    case 'isPrerelease':
    case 'name':
    case 'tagName':
    case 'tarballUrl':
    case 'targetCommitish':
    case 'uploadUrl':
    case 'url':
    case 'zipballUrl':
      return release[field];
  }
}

/**
 * `gh release view` without a terminal (`renderReleasePlain`): `key:\tvalue` lines, one
 * `asset:` line per asset, `--`, the body with a newline added when it lacks one;
 * `undefined` for a published release without `published_at` (gh dereferences a nil time).
 */
export function renderReleaseView(release: GoRelease): string | undefined {
  const lines = [
    `title:\t${release.name}`,
    `tag:\t${release.tagName}`,
    `draft:\t${String(release.isDraft)}`,
    `prerelease:\t${String(release.isPrerelease)}`,
    `author:\t${release.author.login}`,
    `created:\t${release.createdAt.seconds}`,
  ];
  if (!release.isDraft) {
    if (release.publishedAt === null) return undefined;
    lines.push(`published:\t${release.publishedAt.seconds}`);
  }
  lines.push(`url:\t${release.url}`);
  for (const asset of release.assets) lines.push(`asset:\t${asset.name}`);
  lines.push('--');
  const body = release.body.endsWith('\n') ? release.body : `${release.body}\n`;
  return `${lines.join('\n')}\n${body}`;
}

/** A field of `gh release list --json`. */
export type ReleaseListField = JsonField<'release list'>;

/** One row of `gh release list` (gh's list `Release` struct), built from a REST release. */
export interface ReleaseListItem {
  readonly release: GoRelease;
  /** Whether this is the release `/releases/latest` names (GraphQL `isLatest`). */
  readonly isLatest: boolean;
}

/**
 * One field of gh's list export (`cmdutil.StructExportData`): `publishedAt` is a plain
 * `time.Time` there, so a missing one is Go's zero time; `undefined` when the value is
 * unproved (a release without a name: GraphQL's `name` for it is not known).
 */
export function releaseListFieldValue(
  item: ReleaseListItem,
  field: ReleaseListField,
): GoJsonValue | undefined {
  const { release } = item;
  switch (field) {
    case 'name':
      return release.name === '' ? undefined : release.name;
    case 'tagName':
      return release.tagName;
    case 'isDraft':
      return release.isDraft;
    case 'isLatest':
      return item.isLatest;
    case 'isPrerelease':
      return release.isPrerelease;
    case 'createdAt':
      return release.createdAt.json;
    case 'publishedAt':
      return (release.publishedAt ?? ZERO_TIME).json;
  }
}

/**
 * `gh release list` without a terminal: `title\ttype\ttag\tpublished` per release — the
 * whitespace-collapsed name (else the tag), `Latest`, `Draft`, `Pre-release` or empty, the tag,
 * the published time (else the created time) in RFC 3339.
 */
export function renderReleaseList(items: readonly ReleaseListItem[]): string {
  return renderTsvTable(
    items.map(({ release, isLatest }) => {
      const name = removeExcessiveWhitespace(release.name);
      const type = isLatest
        ? 'Latest'
        : release.isDraft
          ? 'Draft'
          : release.isPrerelease
            ? 'Pre-release'
            : '';
      const published = release.publishedAt ?? release.createdAt;
      return [name === '' ? release.tagName : name, type, release.tagName, published.seconds];
    }),
  );
}
