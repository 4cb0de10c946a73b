import type { GoJsonValue } from './go-json-encoder.js';
import { formatGoPrintfWithoutOperands } from './go-printf.js';
import type { JsonField } from './json-field-catalogue.js';
import { decodeGoTime } from './release-export.js';

/** A field of `gh repo view --json`. */
export type RepoViewField = JsonField<'repo view'>;

/** A repository as the REST API returns it (`GET /repos/{o}/{r}`, the relay's public subset). */
export type RestRepository = Readonly<Record<string, unknown>>;

/**
 * The fields of gh's repository catalogue served from the REST repository with gh's exact
 * shape (README "repo view"); every other field runs gh for the whole invocation.
 */
export const REPO_REST_FIELDS = [
  'createdAt',
  'description',
  'diskUsage',
  'forkCount',
  'hasDiscussionsEnabled',
  'hasIssuesEnabled',
  'hasProjectsEnabled',
  'hasWikiEnabled',
  'homepageUrl',
  'isArchived',
  'isFork',
  'isInOrganization',
  'isMirror',
  'isPrivate',
  'isTemplate',
  'mirrorUrl',
  'name',
  'nameWithOwner',
  'primaryLanguage',
  'pushedAt',
  'sshUrl',
  'stargazerCount',
  'url',
  'visibility',
  'watchers',
] as const satisfies readonly RepoViewField[];

/** A field of {@link REPO_REST_FIELDS}. */
export type RestRepoField = (typeof REPO_REST_FIELDS)[number];

/** Whether a field of the catalogue is served from REST. */
export function isRestRepoField(field: RepoViewField): field is RestRepoField {
  return (REPO_REST_FIELDS as readonly string[]).includes(field);
}

const stringOrEmpty = (value: unknown): string | undefined =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : undefined;
const bool = (value: unknown): boolean | undefined =>
  typeof value === 'boolean' ? value : undefined;
const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;

/**
 * One field of gh's `Repository.ExportData` from the REST repository; `undefined` when the
 * REST value is missing or of another type.
 */
export function repoFieldValue(
  repo: RestRepository,
  field: RestRepoField,
): GoJsonValue | undefined {
  switch (field) {
    case 'name':
      return typeof repo.name === 'string' ? repo.name : undefined;
    case 'nameWithOwner':
      return typeof repo.full_name === 'string' ? repo.full_name : undefined;
    case 'description':
      return stringOrEmpty(repo.description);
    case 'homepageUrl':
      return stringOrEmpty(repo.homepage);
    case 'mirrorUrl':
      return stringOrEmpty(repo.mirror_url);
    case 'url':
      return typeof repo.html_url === 'string' ? repo.html_url : undefined;
    case 'sshUrl':
      return typeof repo.ssh_url === 'string' ? repo.ssh_url : undefined;
    case 'isPrivate':
      return bool(repo.private);
    case 'isFork':
      return bool(repo.fork);
    case 'isArchived':
      return bool(repo.archived);
    case 'isTemplate':
      return bool(repo.is_template);
    case 'isMirror':
      return repo.mirror_url === null ? false : typeof repo.mirror_url === 'string' || undefined;
    case 'isInOrganization': {
      const owner = repo.owner;
      if (typeof owner !== 'object' || owner === null) return undefined;
      const type = (owner as Record<string, unknown>).type;
      return type === 'Organization' ? true : type === 'User' ? false : undefined;
    }
    case 'hasIssuesEnabled':
      return bool(repo.has_issues);
    case 'hasWikiEnabled':
      return bool(repo.has_wiki);
    case 'hasProjectsEnabled':
      return bool(repo.has_projects);
    case 'hasDiscussionsEnabled':
      return bool(repo.has_discussions);
    case 'forkCount':
      return count(repo.forks_count);
    case 'stargazerCount':
      return count(repo.stargazers_count);
    case 'diskUsage':
      return count(repo.size);
    case 'watchers': {
      const total = count(repo.subscribers_count);
      return total === undefined ? undefined : { totalCount: total };
    }
    case 'visibility':
      return typeof repo.visibility === 'string' ? repo.visibility.toUpperCase() : undefined;
    case 'primaryLanguage':
      return repo.language === null
        ? null
        : typeof repo.language === 'string'
          ? { name: repo.language }
          : undefined;
    case 'createdAt':
      return typeof repo.created_at === 'string' ? decodeGoTime(repo.created_at)?.json : undefined;
    case 'pushedAt':
      if (repo.pushed_at === null) return null;
      return typeof repo.pushed_at === 'string' ? decodeGoTime(repo.pushed_at)?.json : undefined;
  }
}

/** go-gh's byte sanitizer (`asciisanitizer.Sanitizer`, not JSON): caret notation per control. */
const CARETS: Readonly<Record<number, string>> = (() => {
  const table: Record<number, string> = {};
  for (let code = 0; code < 32; code += 1) {
    if (code === 9 || code === 10 || code === 11 || code === 13) continue;
    // go-gh writes 0x1c and 0x9c as `^\\` (a raw Go string with two backslashes).
    table[code] = code === 28 ? '^\\\\' : `^${String.fromCharCode(code + 0x40)}`;
    table[code + 0x80] = code + 0x80 === 0x9c ? '^\\\\' : `^${String.fromCharCode(code + 0x40)}`;
  }
  table[0x89] = '^I';
  table[0x8a] = '^J';
  table[0x8b] = '^K';
  table[0x8d] = '^M';
  return table;
})();

/**
 * A README as gh's `RepositoryReadme` reads it: the REST `content` base64-decoded (Go's
 * `StdEncoding` skips line breaks), then passed through go-gh's byte sanitizer (C0 controls
 * but tab, LF, VT, CR, and every C1 control, as caret notation); `undefined` when Go would
 * fail (bad base64, invalid UTF-8).
 */
export function decodeReadme(content: string): string | undefined {
  const compact = content.replace(/[\r\n]/g, '');
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(compact)) {
    return undefined;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(compact, 'base64'));
  } catch {
    return undefined;
  }
  // eslint-disable-next-line no-control-regex -- control characters are what it replaces
  return text.replace(/[\u0000-\u0008\u000c\u000e-\u001f\u0080-\u009f]/g, (c) => {
    return CARETS[c.charCodeAt(0)] ?? c;
  });
}

/**
 * `gh repo view` without a terminal: `name:\tOWNER/REPO` (as the repository was named),
 * `description:\t…`, and when there is a README, `--`, the README through Go's `Fprintf` as
 * a format string (a `%` is mangled, {@link formatGoPrintfWithoutOperands}), then `\n`.
 */
export function renderRepoView(
  fullName: string,
  description: string,
  readme: string | null,
): string {
  const head = `name:\t${fullName}\ndescription:\t${description}\n`;
  return readme === null ? head : `${head}--\n${formatGoPrintfWithoutOperands(readme)}\n`;
}
