import type { FallbackReason } from '@relay/protocol';
import type { GoJsonValue } from './go-json-encoder.js';
import type { JqExportResult } from './jq-export.js';
import { renderJsonExport } from './json-export-writer.js';

/** How a served command ends: gh's bytes and exit code, or a hand-off. */
export type CommandOutcome =
  /** Print these bytes and exit with `code`. */
  | {
      readonly kind: 'done';
      readonly code: number;
      readonly stdout: string;
      readonly stderr: string;
    }
  /** Run the native gh (a shape or field the relay does not serve exactly). */
  | { readonly kind: 'delegate'; readonly reason: OutcomeDelegateReason }
  /** The relay answered `fallback_local` with this reason. */
  | { readonly kind: 'fallback'; readonly reason: FallbackReason };

/** The delegate reasons a served command hands back (a subset of the planner's). */
export type OutcomeDelegateReason = 'invalid_usage' | 'unsupported_flag' | 'unsupported_shape';

/** Runs `--jq` over exported JSON; `missing` when no jq is installed (client rule 7). */
export type JqRunner = (filter: string, json: string) => Promise<JqExportResult | 'missing'>;

/** A finished command printing `stdout` (exit 0). */
export function printed(stdout: string, stderr = '', code = 0): CommandOutcome {
  return { kind: 'done', code, stdout, stderr };
}

/** Hand the invocation to the native gh. */
export function delegated(reason: OutcomeDelegateReason): CommandOutcome {
  return { kind: 'delegate', reason };
}

/**
 * gh's `--json` output of exported data: the JSON line, or the `--jq` results; a jq error or
 * a missing jq runs gh (its gojq words errors its own way).
 */
export async function writeExport(
  data: GoJsonValue,
  jqFilter: string | undefined,
  jq: JqRunner,
): Promise<CommandOutcome> {
  const json = renderJsonExport(data);
  if (jqFilter === undefined) return printed(json);
  const result = await jq(jqFilter, json);
  if (result === 'missing' || !result.ok) return delegated('unsupported_flag');
  return printed(result.text);
}
