import type { CliDependencies } from '../../cli-dependencies.js';
import { toJqFilterArgument } from '../../jq-filter.js';
import { checkJqExpression, formatJqOutput, normalizeJqInput } from '../../gh-jq.js';

/** What {@link runJqExport} produced. */
export type JqExportResult =
  /** gh's bytes for the filter's results. */
  | { readonly ok: true; readonly text: string }
  /** jq refused the filter or failed on the data: gh's own (gojq) message is needed. */
  | { readonly ok: false };

/**
 * Runs `--jq` over the exported JSON as gh does (client rule 12: the last `--jq` wins): gh
 * marshals the export, decodes it again into Go maps and hands that to gojq, so gojq sees
 * every object — nested structs included — with its keys sorted, and reads the process
 * environment (`env`, `$ENV`). The system jq computes the results over the same input
 * (gh-jq's `normalizeJqInput`: keys sorted at every level, Go's float64 numbers; `jq -c`, the
 * expression always the filter, an environment of PATH only) and gh-jq's `formatJqOutput`
 * prints them in gh's format. An expression jq and gojq may answer differently (gh-jq's
 * `checkJqExpression`: the environment, the clock, key-order-dependent steps after an object
 * is built, …) is not run, nor is a jq error printed: gh's gojq words it differently. Both
 * hand the command to gh.
 *
 * @param json - the export as {@link renderJsonExport} printed it
 */
export async function runJqExport(
  deps: CliDependencies,
  jqPath: string,
  filter: string,
  json: string,
): Promise<JqExportResult> {
  const check = checkJqExpression(filter);
  if (!check.ok) return { ok: false };
  const input = normalizeJqInput(json);
  if (input === undefined || (check.stringifies && input.riskyNumbers)) return { ok: false };
  const result = await deps.runProcess(jqPath, ['-c', toJqFilterArgument(filter)], {
    input: Buffer.from(input.text, 'utf8'),
    env: { PATH: deps.env.PATH },
  });
  if (result.code !== 0) return { ok: false };
  const output = Buffer.from(result.stdout).toString('utf8');
  // One printer with `relay native api --jq`: go-gh's scalars and json.Marshal, or undefined
  // for a result gh prints otherwise (an infinity jq clamps to the largest double, a negative
  // zero).
  const text = formatJqOutput(output);
  return text === undefined ? { ok: false } : { ok: true, text };
}
