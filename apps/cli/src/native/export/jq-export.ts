import type { CliDependencies } from '../../cli-dependencies.js';
import { toJqFilterArgument } from '../../jq-filter.js';
import { encodeGoJson } from './go-json-encoder.js';
import type { GoJsonValue } from './go-json-encoder.js';

/** What {@link runJqExport} produced. */
export type JqExportResult =
  /** gh's bytes for the filter's results. */
  | { readonly ok: true; readonly text: string }
  /** jq refused the filter or failed on the data: gh's own (gojq) message is needed. */
  | { readonly ok: false };

/**
 * One `--jq` result as go-gh's `jq.EvaluateFormatted` prints it without a terminal and
 * without colour: a string raw, an integral number without a fraction, any other number
 * with two decimals, `null` as an empty line, booleans as words, arrays and objects as
 * `json.Marshal` (keys sorted, `<>&` escaped); then `\n`.
 */
export function formatJqResult(value: GoJsonValue): string {
  if (value === null) return '\n';
  if (typeof value === 'string') return `${value}\n`;
  if (typeof value === 'boolean') return `${String(value)}\n`;
  if (typeof value === 'number') {
    return `${Number.isInteger(value) ? formatIntegral(value) : formatTwoDecimals(value)}\n`;
  }
  return `${encodeGoJson(value, { escapeHtml: true, sortKeys: true })}\n`;
}

/**
 * Go's `strconv.FormatFloat(f, 'f', 2, 64)` of a finite non-integral double: its exact
 * decimal value rounded to two places, an exact half to the even digit (`0.125` → `0.12`,
 * where JavaScript's `toFixed` rounds up to `0.13`); the sign kept (`-0.001` → `-0.00`).
 */
function formatTwoDecimals(value: number): string {
  // A double is n / 2^k: doubling reaches an integer (below 2^53) without rounding.
  let scaled = Math.abs(value);
  let k = 0n;
  while (!Number.isInteger(scaled)) {
    scaled *= 2;
    k += 1n;
  }
  const denominator = 1n << k;
  const hundredths = BigInt(scaled) * 100n;
  let rounded = hundredths / denominator;
  const twice = (hundredths % denominator) * 2n;
  if (twice > denominator || (twice === denominator && rounded % 2n === 1n)) rounded += 1n;
  const digits = rounded.toString().padStart(3, '0');
  return `${value < 0 ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * Go's `strconv.FormatFloat(f, 'f', 0, 64)`: positional digits, never an exponent, and the
 * double's exact value — beyond 2^53 that is not JavaScript's shortest spelling
 * (`98000000079999991808`, not `98000000080000000000`).
 */
function formatIntegral(value: number): string {
  if (Math.abs(value) <= Number.MAX_SAFE_INTEGER) return String(value === 0 ? 0 : value);
  return BigInt(value).toString();
}

/**
 * Parses the output of `jq -c` (one JSON text a line) into results; `undefined` when a line
 * is not JSON.
 */
export function parseJqLines(output: string): GoJsonValue[] | undefined {
  const results: GoJsonValue[] = [];
  for (const line of output.split('\n')) {
    if (line === '') continue;
    try {
      results.push(JSON.parse(line) as GoJsonValue);
    } catch {
      return undefined;
    }
  }
  return results;
}

/**
 * Runs `--jq` over the exported JSON as gh does (client rule 12: the last `--jq` wins): the
 * system jq computes the results (`jq -c`, the expression always the filter, an environment
 * of PATH only) and this module prints them in gh's format ({@link formatJqResult}). A jq
 * error is not printed: gh's gojq words it differently, so the caller runs gh.
 *
 * @param json - the export as {@link renderJsonExport} printed it
 */
export async function runJqExport(
  deps: CliDependencies,
  jqPath: string,
  filter: string,
  json: string,
): Promise<JqExportResult> {
  const result = await deps.runProcess(jqPath, ['-c', toJqFilterArgument(filter)], {
    input: Buffer.from(json, 'utf8'),
    env: { PATH: deps.env.PATH },
  });
  if (result.code !== 0) return { ok: false };
  const values = parseJqLines(Buffer.from(result.stdout).toString('utf8'));
  if (values === undefined) return { ok: false };
  return { ok: true, text: values.map((value) => formatJqResult(value)).join('') };
}
