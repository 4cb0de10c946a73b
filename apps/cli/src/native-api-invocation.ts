import { PAGE_SIZE_MAX } from '@relay/protocol';
import { isSecretQueryKey, validatePath, validateQuery } from '@relay/route-classifier';
import type { CliEnv } from './cli-dependencies.js';
import { fieldsToQuery, fillPlaceholders } from './gh-api-fields.js';
import type { ApiFieldContext } from './gh-api-fields.js';
import { GITHUB_HOST, normalizeHost } from './native/argv/repo-selector.js';

/** Why `relay native api` hands a command to the native CLI instead of the relay (rule 7). */
export type DelegationReason =
  | 'method'
  | 'field_flags'
  | 'secret_query_key'
  | 'header'
  | 'unsupported_flag'
  | 'unsupported_path'
  | 'placeholder'
  | 'tty_output'
  | 'color_output'
  | 'other_host'
  | 'invalid_usage';

/** What the planner reads besides the arguments: the environment, the terminal, git, files. */
export interface ApiPlanContext {
  readonly env: CliEnv;
  readonly stdoutIsTTY: boolean;
  /** The base repository, the current branch and files, for placeholders and `-F @file`. */
  readonly fields: ApiFieldContext;
  /**
   * gh's Go error text when it cannot open `--input <path>` (`open f: no such file or
   * directory`), else undefined (readable, or a failure not modelled). Absent: never read.
   */
  readonly openError?: (path: string) => string | undefined;
}

/** A context with nothing in it: no repository, no branch, no files, not a terminal. */
export const EMPTY_API_CONTEXT: ApiPlanContext = {
  env: {},
  stdoutIsTTY: false,
  fields: { baseRepo: () => undefined, branch: () => undefined, readFile: () => undefined },
};

/** A `gh api` read the relay can serve. */
export interface RelayableApiRead {
  readonly kind: 'relay';
  /** Absolute API path without the query (`/repos/o/r/issues`). */
  readonly path: string;
  /** Query parameters in their order (repeated keys become arrays). */
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  /** Allowlisted request headers, names lowercased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly paginate: boolean;
  readonly slurp: boolean;
  /** The last `--jq` expression. */
  readonly jq: string | undefined;
}

/** How a `gh api` command line is run. */
export type ApiInvocation =
  | RelayableApiRead
  | { readonly kind: 'delegate'; readonly reason: DelegationReason }
  /** gh's own error for this command line, printed by relay itself (stderr, exit 1). */
  | { readonly kind: 'fail'; readonly stderr: string };

/**
 * Headers a relayed `api` read may carry (client rule 7), plus `x-github-api-version` (the
 * real name of the alias) and `cache-control` (rule 8: an explicit one wins over RELAY_FRESH).
 */
export const API_HEADER_ALLOWLIST: readonly string[] = [
  'accept',
  'x-forge-api-version',
  'x-github-api-version',
  'if-none-match',
  'if-modified-since',
  'cache-control',
];

/** Flags of `gh api` that take a value; every one not handled here delegates. */
const VALUE_FLAGS: Readonly<Record<string, string>> = {
  '-X': 'method',
  '--method': 'method',
  '-H': 'header',
  '--header': 'header',
  '-f': 'raw_field',
  '--raw-field': 'raw_field',
  '-F': 'magic_field',
  '--field': 'magic_field',
  '-q': 'jq',
  '--jq': 'jq',
  '-t': 'unsupported',
  '--template': 'unsupported',
  '--input': 'input',
  '--hostname': 'unsupported',
  '-p': 'unsupported',
  '--preview': 'unsupported',
  '--cache': 'unsupported',
};

const BOOLEAN_FLAGS: Readonly<Record<string, string>> = {
  '--paginate': 'paginate',
  '--slurp': 'slurp',
  // Served by the native CLI, after gh's own field and placeholder errors (no RunE check).
  '-i': 'include',
  '--include': 'include',
  '--silent': 'unsupported',
  '--verbose': 'unsupported',
  '-h': 'unsupported',
  '--help': 'unsupported',
};

const delegate = (reason: DelegationReason): ApiInvocation => ({ kind: 'delegate', reason });

/** An HTTP header name as Go's `httpguts.ValidHeaderFieldName` accepts it (an RFC 7230 token). */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

interface ParsedFlags {
  readonly positionals: string[];
  readonly values: { name: string; value: string }[];
  readonly booleans: Set<string>;
}

function splitFlags(args: readonly string[]): ParsedFlags | 'unsupported' | 'invalid' {
  const positionals: string[] = [];
  const values: { name: string; value: string }[] = [];
  const booleans = new Set<string>();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    let flag = arg;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (eq > 0) {
        flag = arg.slice(0, eq);
        inline = arg.slice(eq + 1);
      }
    } else if (arg.length > 2) {
      flag = arg.slice(0, 2);
      inline = arg.slice(2).replace(/^=/, '');
    }
    const boolean = BOOLEAN_FLAGS[flag];
    if (boolean !== undefined) {
      if (inline !== undefined) return 'unsupported';
      if (boolean === 'unsupported') return 'unsupported';
      booleans.add(boolean);
      continue;
    }
    const valued = VALUE_FLAGS[flag];
    if (valued === undefined) return 'unsupported';
    let value = inline;
    if (value === undefined) {
      i += 1;
      value = args[i];
      if (value === undefined) return 'invalid';
    }
    values.push({ name: valued, value });
  }
  return { positionals, values, booleans };
}

/** A `-F` value gh fills placeholders in (magicFieldValue: not @file, an int, a literal). */
function isFilledMagicValue(value: string): boolean {
  return (
    !value.startsWith('@') &&
    !/^[+-]?[0-9]+$/.test(value) &&
    value !== 'true' &&
    value !== 'false' &&
    value !== 'null'
  );
}

/**
 * The arguments with `{owner}`/`{repo}` (and `:owner`…) filled where gh fills them: the
 * endpoint and `-F/--field` values (not `-f`, not `@file`, integers or literals). For a native
 * gh that runs without GH_REPO (SPEC.md client rule 16) but must read what GH_REPO names.
 * Undefined when a placeholder cannot be filled or the arguments are not read with certainty
 * (an unknown flag, a shorthand cluster): the arguments then stay as they are.
 *
 * @param args - `gh api`'s arguments
 * @param fill - gh's fillPlaceholders over GH_REPO (undefined when it fails)
 */
export function fillPlaceholdersInArgs(
  args: readonly string[],
  fill: (value: string) => string | undefined,
): string[] | undefined {
  const out = [...args];
  const fillAt = (index: number, prefix: string, value: string): boolean => {
    const filled = fill(value);
    if (filled === undefined) return false;
    out[index] = `${prefix}${filled}`;
    return true;
  };
  const fillField = (index: number, prefix: string, field: string): boolean => {
    const eq = field.indexOf('=');
    if (eq < 0) return true;
    const value = field.slice(eq + 1);
    return !isFilledMagicValue(value) || fillAt(index, `${prefix}${field.slice(0, eq + 1)}`, value);
  };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      for (let j = i + 1; j < args.length; j += 1)
        if (!fillAt(j, '', args[j] ?? '')) return undefined;
      return out;
    }
    if (!arg.startsWith('-') || arg === '-') {
      if (!fillAt(i, '', arg)) return undefined;
      continue;
    }
    const long = arg.startsWith('--');
    const eq = long ? arg.indexOf('=') : -1;
    const flag = long ? (eq > 0 ? arg.slice(0, eq) : arg) : arg.slice(0, 2);
    if (BOOLEAN_FLAGS[flag] !== undefined) {
      if (arg !== flag) return undefined;
      continue;
    }
    if (VALUE_FLAGS[flag] === undefined) return undefined;
    const isField = flag === '-F' || flag === '--field';
    if (arg !== flag) {
      // --field=k=v, -Fk=v, -F=k=v
      const prefix = long ? `${flag}=` : arg.startsWith(`${flag}=`) ? `${flag}=` : flag;
      if (isField && !fillField(i, prefix, arg.slice(prefix.length))) return undefined;
      continue;
    }
    i += 1;
    if (i >= args.length) return undefined;
    if (isField && !fillField(i, '', args[i] ?? '')) return undefined;
  }
  return out;
}

function parseQuery(search: string): Record<string, string | string[]> | undefined {
  const query: Record<string, string | string[]> = {};
  if (search === '') return query;
  for (const part of search.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      return undefined;
    }
    const existing = query[key];
    if (existing === undefined) query[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else query[key] = [existing, value];
  }
  return query;
}

/** Adds one query value, making repeated keys arrays in order. */
function addQueryValue(query: Record<string, string | string[]>, key: string, value: string): void {
  const existing = query[key];
  if (existing === undefined) query[key] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else query[key] = [existing, value];
}

/**
 * Decides how `relay native api <args>` runs (SPEC.md client rule 7 and the `native api`
 * row), as gh v2.60 builds the request: GET reads with allowlisted headers are relayed; `-f/-F`
 * fields with an explicit `-X GET` become the query string (gh's `parseFields` + `addQuery`:
 * typed `-F` values, `key[]` arrays, keys sorted); `{owner}`/`{repo}`/`{branch}` (and
 * `:owner`…) are filled from the base repository and the current branch. Non-GET methods
 * (fields without `-X GET` make gh POST), secret-looking query keys, other headers, GraphQL,
 * full URLs, a terminal or forced colour on stdout, another host (GH_HOST), placeholders gh
 * cannot fill, field shapes not modelled and flags the relay does not model delegate to the
 * native CLI, which also reports its own usage errors. Whether jq exists is checked by the
 * caller.
 */
export function planApiInvocation(
  args: readonly string[],
  context: ApiPlanContext = EMPTY_API_CONTEXT,
): ApiInvocation {
  const flags = splitFlags(args);
  if (flags === 'unsupported') return delegate('unsupported_flag');
  if (flags === 'invalid' || flags.positionals.length !== 1) return delegate('invalid_usage');
  const endpoint = flags.positionals[0] ?? '';

  let method = 'GET';
  let methodPassed = false;
  const rawFields: string[] = [];
  const magicFields: string[] = [];
  const headers: Record<string, string> = {};
  let jq: string | undefined;
  let input: string | undefined;
  for (const { name, value } of flags.values) {
    switch (name) {
      case 'method':
        method = value;
        methodPassed = true;
        break;
      case 'raw_field':
        rawFields.push(value);
        break;
      case 'magic_field':
        magicFields.push(value);
        break;
      case 'header': {
        const colon = value.indexOf(':');
        if (colon <= 0) return delegate('invalid_usage');
        // gh does not trim the name: Go refuses one that is not an HTTP token (`Accept `).
        const name = value.slice(0, colon);
        if (!HTTP_TOKEN.test(name)) return delegate('invalid_usage');
        const header = name.toLowerCase();
        if (!API_HEADER_ALLOWLIST.includes(header)) return delegate('header');
        // Go sends every -H line: a repeated header is two values the relay cannot carry.
        if (header in headers) return delegate('header');
        const headerValue = value.slice(colon + 1);
        // Go's TrimSpace and its header-value rule are modelled for printable ASCII only.
        if (!/^[\x20-\x7e\t]*$/.test(headerValue)) return delegate('header');
        headers[header] = headerValue.replace(/^[ \t]+|[ \t]+$/g, '');
        break;
      }
      case 'input':
        input = value;
        break;
      case 'jq':
        // gh's FilterOutput: the last --jq wins, and an empty one means no filter at all.
        jq = value === '' ? undefined : value;
        break;
      default:
        return delegate('unsupported_flag');
    }
  }
  const hasFields = rawFields.length > 0 || magicFields.length > 0;
  const paginate = flags.booleans.has('paginate');
  const slurp = flags.booleans.has('slurp');
  // gh's own usage checks (RunE): --paginate with another method (-X; fields alone keep GET
  // there), --slurp without --paginate or with --jq.
  const isGet = method.toUpperCase() === 'GET';
  if (paginate && !isGet && endpoint !== 'graphql') return delegate('invalid_usage');
  if (paginate && input !== undefined && input !== '') return delegate('invalid_usage');
  if (slurp && (!paginate || jq !== undefined)) return delegate('invalid_usage');
  // Then apiRun starts with parseFields, whatever the method: a `-F k=@file` gh cannot read
  // ends the command with gh's message (fields that are fine are used for a GET below).
  const parsed = hasFields ? fieldsToQuery(rawFields, magicFields, context.fields) : undefined;
  if (parsed !== undefined && 'error' in parsed) {
    return { kind: 'fail', stderr: `${parsed.error}\n` };
  }
  // Then the endpoint's placeholders: `{branch}` under GH_REPO is gh's own error.
  const filled = fillPlaceholders(endpoint, context.fields);
  if (typeof filled === 'object') {
    return { kind: 'fail', stderr: `unable to expand placeholder in path: ${filled.error}\n` };
  }
  // --input: gh opens the file after the placeholders (a body to send: the native CLI runs).
  if (input !== undefined && input !== '') {
    const openError = input === '-' ? undefined : context.openError?.(input);
    if (openError !== undefined) return { kind: 'fail', stderr: `${openError}\n` };
    return delegate('unsupported_flag');
  }
  // -i/--include: gh's status line and full header block are not in the envelope.
  if (flags.booleans.has('include')) return delegate('unsupported_flag');
  // gh switches to POST when fields are given and -X was not.
  if (hasFields && !methodPassed) return delegate('field_flags');
  if (!isGet) return delegate('method');

  // gh api's output on a terminal (pretty, coloured, paged) and other hosts are not modelled.
  const forcedTty = context.env.GH_FORCE_TTY;
  if (context.stdoutIsTTY || (forcedTty !== undefined && forcedTty !== '')) {
    return delegate('tty_output');
  }
  const colour = context.env.CLICOLOR_FORCE;
  if (colour !== undefined && colour !== '' && colour !== '0') return delegate('color_output');
  // Verbatim, as gh reads it: ` github.com` is another host to gh, whose request then fails.
  const host = context.env.GH_HOST;
  if (host !== undefined && host !== '' && normalizeHost(host) !== GITHUB_HOST) {
    return delegate('other_host');
  }

  if (
    endpoint === '' ||
    endpoint === 'graphql' ||
    endpoint.includes('://') ||
    /^[a-z][a-z0-9+.-]*:/i.test(endpoint) ||
    endpoint.includes('#') ||
    endpoint.startsWith('//')
  ) {
    return delegate('unsupported_path');
  }
  // gh parses the fields (and fills their placeholders) before the path's placeholders.
  if (hasFields && parsed === undefined) return delegate('field_flags');
  const fieldQuery = parsed;
  if (filled === undefined) return delegate('placeholder');
  if (filled.includes('{') || filled.includes('}')) return delegate('unsupported_path');

  const absolute = filled.startsWith('/') ? filled : `/${filled}`;
  const questionMark = absolute.indexOf('?');
  const path = questionMark < 0 ? absolute : absolute.slice(0, questionMark);
  const search = questionMark < 0 ? '' : absolute.slice(questionMark + 1);
  // gh sends the path's query verbatim, a `;` included, where the relay would send it
  // re-encoded (`%3B`): a server that splits on `;` (Rack 2) reads two other requests, and
  // gh's addPerPage, whose url.ParseQuery fails on a `;`, appends `per_page=100` even after
  // a `per_page` of the path. Not a request the relay can send as gh does: gh runs.
  if (search.includes(';')) return delegate('unsupported_path');
  const query = parseQuery(search);
  if (query === undefined) return delegate('secret_query_key');
  // gh's addPerPage: unless a per_page field exists or the path's first per_page is non-empty.
  if (paginate && fieldQuery?.hasPerPage !== true) {
    const current = query.per_page;
    const first = Array.isArray(current) ? current[0] : current;
    if (first === undefined || first === '')
      addQueryValue(query, 'per_page', String(PAGE_SIZE_MAX));
  }
  for (const [key, value] of fieldQuery?.pairs ?? []) addQueryValue(query, key, value);
  if (Object.keys(query).some((key) => isSecretQueryKey(key))) return delegate('secret_query_key');
  // A path or query the relay refuses (400 invalid_path / invalid_query: `..`, `%2e`, `%2F`,
  // a backslash, a control character, a space, …) is one gh sends as it is: the native CLI
  // runs it, and the relay never sees it.
  if (!validatePath(path).ok || !validateQuery(query).ok) return delegate('unsupported_path');
  return { kind: 'relay', path, query, headers, paginate, slurp, jq };
}

/**
 * Whether this is the exact login probe of client rule 4: `api user --jq .login`
 * (`-q .login` and `/user` accepted), nothing else.
 */
export function isLoginProbe(args: readonly string[]): boolean {
  const plan = planApiInvocation(args);
  return (
    plan.kind === 'relay' &&
    plan.path === '/user' &&
    plan.jq === '.login' &&
    !plan.paginate &&
    Object.keys(plan.query).length === 0 &&
    Object.keys(plan.headers).length === 0
  );
}
