import type { ErrorCode, FallbackReason } from '@relay/protocol';

/** A relay error of the pipeline other than a 424 (the code's catalogue status applies). */
export interface PipelineError {
  readonly kind: 'error';
  readonly code: Exclude<ErrorCode, 'fallback_local'>;
  /** A generic message more precise than the catalogue summary (never a key, value or path). */
  readonly message?: string;
}

/** A 424 `fallback_local`: the read must run locally, for `reason`. */
export interface PipelineFallback {
  readonly kind: 'fallback';
  readonly code: 'fallback_local';
  readonly reason: FallbackReason;
}

/**
 * Why the pipeline did not produce an envelope. A closed union: switch on `kind`, then on `code`
 * or `reason`. Never carries a token, binding name, pattern, URL or upstream body.
 */
export type PipelineFailure = PipelineError | PipelineFallback;

/**
 * A relay error the pipeline answers with.
 *
 * @param code - the catalogue code (not `fallback_local`)
 * @param message - a generic message instead of the catalogue summary
 */
export function failWith(code: PipelineError['code'], message?: string): PipelineError {
  return message === undefined ? { kind: 'error', code } : { kind: 'error', code, message };
}

/**
 * A 424 `fallback_local` with its reason.
 *
 * @param reason - one of SPEC.md's fallback reasons
 */
export function fallBackLocal(reason: FallbackReason): PipelineFallback {
  return { kind: 'fallback', code: 'fallback_local', reason };
}
