import type { GoJsonValue } from './go-json-encoder.js';
import type { JsonField } from './json-field-catalogue.js';
import { renderTsvTable } from './tsv-table.js';

/** A label field of `gh label list --json`. */
export type LabelField = JsonField<'label list'>;

/** A label as the REST API returns it (`GET /repos/{o}/{r}/labels`), sanitized. */
export interface RestLabel {
  readonly id: number;
  readonly node_id: string;
  readonly url: string;
  readonly name: string;
  readonly description: string | null;
  readonly color: string;
  readonly default: boolean;
}

/**
 * How each field of gh's label catalogue is served (README "label list"): `rest` from the
 * REST label with gh's exact shape; `delegate` when REST has no such data (the whole
 * invocation runs gh).
 */
export const LABEL_FIELD_SOURCES = {
  color: 'rest',
  createdAt: 'delegate',
  description: 'rest',
  id: 'rest',
  isDefault: 'rest',
  name: 'rest',
  updatedAt: 'delegate',
  url: 'rest',
} as const satisfies Readonly<Record<LabelField, 'rest' | 'delegate'>>;

/** Label names whose web URL path segment is the same under every URL-escaping rule. */
const PLAIN_LABEL_NAME = /^[A-Za-z0-9._~ -]+$/;

/**
 * The label's web URL as GraphQL's `Label.url` gives it (`https://github.com/o/r/labels/x`,
 * spaces as `%20`), from the REST `url` (`…/repos/o/r/labels/x`, canonical owner/repo case);
 * `undefined` when the name needs escaping this cannot prove.
 */
export function labelWebUrl(label: RestLabel): string | undefined {
  if (!PLAIN_LABEL_NAME.test(label.name)) return undefined;
  let path: string;
  try {
    path = new URL(label.url).pathname;
  } catch {
    return undefined;
  }
  const match = /^(?:\/api\/v3)?\/repos\/([^/]+)\/([^/]+)\/labels\/[^/]+$/.exec(path);
  if (match === null) return undefined;
  return `https://github.com/${match[1] ?? ''}/${match[2] ?? ''}/labels/${label.name.replace(/ /g, '%20')}`;
}

/**
 * One label's exported field (gh's `label` struct; `description` null → `""`);
 * `undefined` when the field cannot be served.
 */
export function labelFieldValue(label: RestLabel, field: LabelField): GoJsonValue | undefined {
  switch (field) {
    case 'color':
      return label.color;
    case 'description':
      return label.description ?? '';
    case 'id':
      return label.node_id;
    case 'isDefault':
      return label.default;
    case 'name':
      return label.name;
    case 'url':
      return labelWebUrl(label);
    case 'createdAt':
    case 'updatedAt':
      return undefined;
  }
}

/** `gh label list` without a terminal: `name\tdescription\t#color` per label. */
export function renderLabelTable(labels: readonly RestLabel[]): string {
  return renderTsvTable(
    labels.map((label) => [label.name, label.description ?? '', `#${label.color}`]),
  );
}

/** Whether a decoded REST value has the label shape this module reads. */
export function isRestLabel(value: unknown): value is RestLabel {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'number' &&
    typeof v.node_id === 'string' &&
    typeof v.url === 'string' &&
    typeof v.name === 'string' &&
    (typeof v.description === 'string' || v.description === null) &&
    typeof v.color === 'string' &&
    typeof v.default === 'boolean'
  );
}
