import { encodeGoJson } from './go-json-encoder.js';
import type { GoJsonValue } from './go-json-encoder.js';

/**
 * The bytes of gh's `--json` output without `--jq` and without colour (cmdutil's
 * jsonExporter: `json.Encoder` with HTML escaping off): one compact line, every object a Go
 * map (keys byte-sorted), then `\n`.
 */
export function renderJsonExport(data: GoJsonValue): string {
  return `${encodeGoJson(data, { escapeHtml: false, sortKeys: true })}\n`;
}

/**
 * Picks the requested fields of one exported item (gh's `ExportData(fields)`): a map holding
 * only those keys.
 *
 * @param convert - the field's value from the item, per field
 */
export function exportFields<F extends string, T>(
  item: T,
  fields: readonly F[],
  convert: (item: T, field: F) => GoJsonValue,
): Readonly<Record<string, GoJsonValue>> {
  const out: Record<string, GoJsonValue> = {};
  for (const field of fields) out[field] = convert(item, field);
  return out;
}
