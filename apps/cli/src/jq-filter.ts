import type { CliDependencies } from './cli-dependencies.js';

/** What one jq run produced. */
export interface JqResult {
  readonly ok: boolean;
  readonly stdout: Uint8Array;
  readonly stderr: Uint8Array;
}

/**
 * Guards a jq expression so that jq always takes it as the filter (client rule: "the jq
 * expression is always a filter"): an expression that starts with `-` would be read as an
 * option, so it gets a leading space, which jq ignores.
 */
export function toJqFilterArgument(expression: string): string {
  return expression.startsWith('-') ? ` ${expression}` : expression;
}

/**
 * Runs the system jq over one JSON input: one compact JSON value a line (`-c`; gh's own
 * printing of each result is applied by the caller), only the user's expression as the
 * filter, an empty environment but PATH.
 */
export async function runJqFilter(
  deps: CliDependencies,
  jqPath: string,
  expression: string,
  input: Uint8Array,
): Promise<JqResult> {
  const result = await deps.runProcess(jqPath, ['-c', toJqFilterArgument(expression)], {
    input,
    env: { PATH: deps.env.PATH },
  });
  return { ok: result.code === 0, stdout: result.stdout, stderr: result.stderr };
}
