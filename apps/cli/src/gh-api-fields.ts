/**
 * gh api's request parameters (pkg/cmd/api/fields.go, http.go, api.go at v2.60) for the one
 * shape the relay serves: a GET whose `-f/-F` fields become the query string, and the
 * `{owner}`, `{repo}`, `{branch}` placeholders. Pure: files, the base repository and the
 * current branch come from the caller.
 */

/** What filling placeholders and reading fields may need from outside. */
export interface ApiFieldContext {
  /** The base repository's owner and name (GH_REPO, else the git remotes); undefined = gh fails. */
  readonly baseRepo: () => { readonly owner: string; readonly name: string } | undefined;
  /**
   * The current git branch; `{ error }` = gh's own error text (GH_REPO is set); undefined =
   * gh fails otherwise (no branch: its message is git's).
   */
  readonly branch: () => string | FileError | undefined;
  /**
   * A file's bytes for `-F key=@file`; `{ error }` = gh's Go error text for a file it cannot
   * open or read (`open x: no such file or directory`); undefined = unreadable otherwise.
   */
  readonly readFile: (path: string) => Uint8Array | FileError | undefined;
}

/** gh's `placeholderRE`: `:owner`, `:repo`, `:branch` (word-bounded) and `{lowercase}`. */
const PLACEHOLDER = /(:(owner|repo|branch)\b|\{[a-z]+\})/g;

/** Whether a value names a placeholder gh fills (so the caller knows to read git). */
export function namesPlaceholder(value: string): { repo: boolean; branch: boolean } {
  let repo = false;
  let branch = false;
  for (const match of value.matchAll(PLACEHOLDER)) {
    const name = match[0].startsWith(':') ? match[0].slice(1) : match[0].slice(1, -1);
    if (name === 'owner' || name === 'repo') repo = true;
    if (name === 'branch') branch = true;
  }
  return { repo, branch };
}

/**
 * gh's `fillPlaceholders`: `{owner}`/`:owner` and `{repo}`/`:repo` from the base repository,
 * `{branch}`/`:branch` from the current branch; other `{names}` stay. gh fills every one and
 * fails with the last failure: `{ error }` when that is one whose text gh writes itself
 * (`{branch}` under GH_REPO), undefined for the others (no base repository, no branch).
 */
export function fillPlaceholders(
  value: string,
  context: ApiFieldContext,
): string | FileError | undefined {
  let failure: FileError | 'other' | undefined;
  const filled = value.replace(PLACEHOLDER, (match) => {
    const name = match.startsWith(':') ? match.slice(1) : match.slice(1, -1);
    let replacement: string | FileError | undefined = match;
    if (name === 'owner') replacement = context.baseRepo()?.owner;
    else if (name === 'repo') replacement = context.baseRepo()?.name;
    else if (name === 'branch') replacement = context.branch();
    if (typeof replacement === 'string') return replacement;
    failure = replacement ?? 'other';
    return match;
  });
  if (failure === undefined) return filled;
  return failure === 'other' ? undefined : failure;
}

/** Why gh could not read a `-F key=@file`: Go's error text (`open f: permission denied`). */
export interface FileError {
  readonly error: string;
}

/** A parameter value as gh's query string prints it (`fmt` of a string, int, bool, nil). */
type Leaf = string;

/** The top-level parameters: a value, or an array of values (`key[]=v`). */
type Params = Map<string, Leaf | Leaf[]>;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** strconv.Atoi: an optional sign and decimal digits within int64, printed back with `%d`. */
function goAtoi(value: string): string | undefined {
  if (!/^[+-]?[0-9]+$/.test(value)) return undefined;
  const number = BigInt(value);
  if (number > 9223372036854775807n || number < -9223372036854775808n) return undefined;
  return number.toString();
}

/**
 * gh's `magicFieldValue` for `-F`: `@file` contents (`@-`, stdin, is not served), integers,
 * `true`/`false`, `null` (an empty query value), else the string with placeholders filled.
 */
function magicValue(value: string, context: ApiFieldContext): Leaf | FileError | undefined {
  if (value.startsWith('@')) {
    const path = value.slice(1);
    if (path === '-') return undefined;
    const bytes = context.readFile(path);
    if (bytes === undefined || !(bytes instanceof Uint8Array)) return bytes;
    try {
      return strictUtf8.decode(bytes);
    } catch {
      return undefined;
    }
  }
  const integer = goAtoi(value);
  if (integer !== undefined) return integer;
  if (value === 'true' || value === 'false') return value;
  if (value === 'null') return '';
  return fillPlaceholders(value, context);
}

/**
 * Adds one `-f`/`-F` field the way gh's `parseField` does, for the shapes a GET query can
 * carry as gh prints them: `key=value` and `key[]=value` (appends; `key[]` alone makes an
 * empty array). Nested keys (`a[b]=c`, which gh flattens to `b=c` in an order Go's map
 * iteration picks) and gh's errors (`invalid key`, a missing `=`, an overridden field, an
 * array mixed with a value) are `false`: the native CLI runs. A `@file` gh cannot open is
 * gh's own error message.
 */
function addField(
  params: Params,
  field: string,
  magic: boolean,
  context: ApiFieldContext,
): boolean | FileError {
  const keystack: string[] = [];
  let keyStartAt = 0;
  let valueIndex = 0;
  for (let i = 0; i < field.length; i += 1) {
    const char = field[i];
    if (char === '[') {
      if (keyStartAt === 0) keystack.push(field.slice(0, i));
      keyStartAt = i + 1;
    } else if (char === ']') {
      keystack.push(field.slice(keyStartAt, i));
    } else if (char === '=') {
      if (keyStartAt === 0) keystack.push(field.slice(0, i));
      valueIndex = i + 1;
      break;
    }
  }
  if (keystack.length === 0) return false;
  let value: Leaf | undefined;
  if (valueIndex === 0) {
    if (keystack[keystack.length - 1] !== '') return false;
  } else {
    const raw = field.slice(valueIndex);
    const typed = magic ? magicValue(raw, context) : raw;
    if (typed === undefined) return false;
    if (typeof typed !== 'string') {
      return { error: `error parsing "${field.slice(0, valueIndex - 1)}" value: ${typed.error}` };
    }
    value = typed;
  }
  const named = keystack.filter((key) => key !== '');
  if (named.length !== 1 || keystack[0] === '') return false;
  const key = named[0] ?? '';
  const isArray = keystack.length > 1;
  const existing = params.get(key);
  if (isArray) {
    if (value === undefined) params.set(key, []);
    else if (existing === undefined) params.set(key, [value]);
    else if (Array.isArray(existing)) existing.push(value);
    else return false;
  } else {
    if (existing !== undefined) return false;
    params.set(key, value ?? '');
  }
  return true;
}

/** Go's `sort.Strings` order: UTF-8 bytes. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** The query pairs of a GET's fields: raw fields first, then typed ones, as gh parses them. */
export interface FieldQuery {
  /** Keys in `url.Values.Encode` order (sorted), each with its values in order. */
  readonly pairs: readonly (readonly [string, string])[];
  /** Whether a top-level `per_page` field exists (gh then adds no per_page of its own). */
  readonly hasPerPage: boolean;
}

/**
 * gh's `parseFields` then `addQuery` for a GET: `-f` values as strings, `-F` values typed
 * ({@link magicValue}), arrays as `key[]`, keys sorted as `url.Values.Encode` sorts them.
 * Undefined when gh would fail or build a shape this model does not reproduce; `{ error }`
 * with gh's message (`error parsing "k" value: open f: no such file or directory`) when the
 * first failing field is a `@file` gh cannot read.
 */
export function fieldsToQuery(
  rawFields: readonly string[],
  magicFields: readonly string[],
  context: ApiFieldContext,
): FieldQuery | FileError | undefined {
  const params: Params = new Map();
  const fields = [
    ...rawFields.map((field) => ({ field, magic: false })),
    ...magicFields.map((field) => ({ field, magic: true })),
  ];
  for (const { field, magic } of fields) {
    const added = addField(params, field, magic, context);
    if (added === false) return undefined;
    if (added !== true) return added;
  }
  const pairs: [string, string][] = [];
  for (const [key, value] of params) {
    if (Array.isArray(value)) for (const item of value) pairs.push([`${key}[]`, item]);
    else pairs.push([key, value]);
  }
  // url.Values.Encode sorts the keys; a key's values keep their order (a stable sort).
  pairs.sort((a, b) => compareBytes(a[0], b[0]));
  return { pairs, hasPerPage: params.has('per_page') };
}
