import { occurrencesOf, parsePublicationArgv, singleValue } from './publication-flag-grammar.js';
import type { PublicationFlagSpec } from './publication-flag-grammar.js';
import type {
  ArgvPart,
  ContentField,
  ContentSource,
  PublicationClassification,
} from './publication-model.js';
import { UNMODELED } from './publication-model.js';

/** How a field of a raw REST shape is sent: rewritten content, or one of fixed values. */
type RawFieldRule =
  { readonly kind: 'content' } | { readonly kind: 'enum'; readonly values: readonly string[] };

/** One allowlisted raw REST write of `gh api`. */
export interface RawRestShape {
  /** A name for docs and tests. */
  readonly name: string;
  readonly method: 'POST' | 'PATCH';
  /** The path, without the optional leading `/`; owner and name are literal. */
  readonly path: RegExp;
  /** Every field the shape may carry. */
  readonly fields: Readonly<Record<string, RawFieldRule>>;
  /** Fields that must be present (at least one of `anyOf` when set). */
  readonly required: readonly string[];
  readonly anyOf?: readonly string[];
}

const CONTENT: RawFieldRule = { kind: 'content' };
/** `OWNER/REPO` as the forge spells them (no `{owner}` placeholders: they depend on git). */
const REPO = String.raw`repos/[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/(?!\.\.?/)[A-Za-z0-9._-]{1,100}`;
const NUMBER = '[1-9][0-9]{0,18}';

function pathOf(suffix: string): RegExp {
  return new RegExp(`^/?${REPO}/${suffix}$`);
}

/**
 * The raw REST writes of `gh api` that client rule 16 models: issue and pull-request text and
 * comments. Any other `gh api` write takes the best-effort path.
 */
export const RAW_REST_SHAPES: readonly RawRestShape[] = [
  {
    name: 'issue create',
    method: 'POST',
    path: pathOf('issues'),
    fields: { title: CONTENT, body: CONTENT },
    required: ['title'],
  },
  {
    name: 'issue edit',
    method: 'PATCH',
    path: pathOf(`issues/${NUMBER}`),
    fields: { title: CONTENT, body: CONTENT },
    required: [],
    anyOf: ['title', 'body'],
  },
  {
    name: 'issue comment',
    method: 'POST',
    path: pathOf(`issues/${NUMBER}/comments`),
    fields: { body: CONTENT },
    required: ['body'],
  },
  {
    name: 'issue comment edit',
    method: 'PATCH',
    path: pathOf(`issues/comments/${NUMBER}`),
    fields: { body: CONTENT },
    required: ['body'],
  },
  {
    name: 'pull request edit',
    method: 'PATCH',
    path: pathOf(`pulls/${NUMBER}`),
    fields: { title: CONTENT, body: CONTENT },
    required: [],
    anyOf: ['title', 'body'],
  },
  {
    name: 'pull request review',
    method: 'POST',
    path: pathOf(`pulls/${NUMBER}/reviews`),
    fields: {
      body: CONTENT,
      event: { kind: 'enum', values: ['APPROVE', 'REQUEST_CHANGES', 'COMMENT'] },
    },
    required: ['event'],
  },
  {
    name: 'pull request review comment edit',
    method: 'PATCH',
    path: pathOf(`pulls/comments/${NUMBER}`),
    fields: { body: CONTENT },
    required: ['body'],
  },
];

/** gh v2.60.0's `api` flags that a modeled raw write may use; any other is not modeled. */
const API_FLAGS: readonly PublicationFlagSpec[] = [
  { long: 'method', short: 'X', kind: 'string' },
  { long: 'field', short: 'F', kind: 'slice' },
  { long: 'raw-field', short: 'f', kind: 'slice' },
  { long: 'silent', kind: 'bool' },
];

interface RawField {
  readonly key: string;
  /** `-f` (a raw string) or `-F` (typed: only `@file` / `@-` is modeled for text). */
  readonly typed: boolean;
  readonly value: string;
}

function splitField(typed: boolean, text: string): RawField | null {
  const equals = text.indexOf('=');
  if (equals <= 0) return null;
  return { key: text.slice(0, equals), typed, value: text.slice(equals + 1) };
}

function sourceOf(field: RawField): ContentSource | null {
  if (!field.typed) return { kind: 'inline', value: field.value };
  if (!field.value.startsWith('@')) return null;
  const path = field.value.slice(1);
  if (path === '') return null;
  return path === '-' ? { kind: 'stdin' } : { kind: 'file', path };
}

/**
 * Classifies `gh api` argv as one of the {@link RAW_REST_SHAPES}, strictly: exactly one path,
 * the method explicit (`-X`/`--method`, upper case) or POST implied by fields, only `-f`, `-F`
 * and `--silent` besides, each allowlisted field once, text fields as `-f key=text` or
 * `-F key=@file` (`@-` for standard input), enum fields as `-f key=VALUE`. The plan passes every
 * text through a snapshot (`-F key=@<snapshot>`).
 *
 * @param argv - gh's argv (`api …`)
 */
export function classifyRawRestPublication(argv: readonly string[]): PublicationClassification {
  if (argv[0] !== 'api') return UNMODELED;
  const parsed = parsePublicationArgv(argv, 1, API_FLAGS);
  if (parsed?.positionals.length !== 1) return UNMODELED;
  const path = parsed.positionals[0]?.value ?? '';
  const method = singleValue(parsed, 'method');
  if (method === null) return UNMODELED;
  const fields: RawField[] = [];
  for (const occurrence of parsed.occurrences) {
    if (occurrence.spec.long !== 'field' && occurrence.spec.long !== 'raw-field') continue;
    const field = splitField(occurrence.spec.long === 'field', occurrence.value);
    if (field === null) return UNMODELED;
    fields.push(field);
  }
  const effectiveMethod = method ?? 'POST';
  const shape = RAW_REST_SHAPES.find(
    (candidate) => candidate.method === effectiveMethod && candidate.path.test(path),
  );
  if (shape === undefined) return UNMODELED;
  const keys = fields.map((field) => field.key);
  if (new Set(keys).size !== keys.length) return UNMODELED;
  if (!shape.required.every((key) => keys.includes(key))) return UNMODELED;
  if (shape.anyOf !== undefined && !shape.anyOf.some((key) => keys.includes(key))) return UNMODELED;

  const parts: ArgvPart[] = [
    { kind: 'fixed', value: 'api' },
    { kind: 'fixed', value: '--method' },
    { kind: 'fixed', value: effectiveMethod },
    { kind: 'literal', value: path },
  ];
  if (occurrencesOf(parsed, 'silent').at(-1)?.value === 'true') {
    parts.push({ kind: 'fixed', value: '--silent' });
  }
  const content: ContentField[] = [];
  for (const field of fields) {
    const rule = shape.fields[field.key];
    if (rule === undefined) return UNMODELED;
    if (rule.kind === 'enum') {
      if (field.typed || !rule.values.includes(field.value)) return UNMODELED;
      parts.push(
        { kind: 'fixed', value: '-f' },
        { kind: 'literal', value: `${field.key}=${field.value}` },
      );
      continue;
    }
    const source = sourceOf(field);
    if (source === null) return UNMODELED;
    const index = content.push({ name: `field ${field.key}`, source }) - 1;
    parts.push(
      { kind: 'fixed', value: '-F' },
      { kind: 'snapshot', field: index, prefix: `${field.key}=@` },
    );
  }
  return { kind: 'modeled', plan: { kind: 'api', parts, fields: content, assets: [] } };
}
