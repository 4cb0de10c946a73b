import { z } from 'zod';
import {
  ERROR_CATALOGUE,
  ERROR_CODES,
  FALLBACK_REASONS,
  type ErrorCode,
  type FallbackReason,
} from './error-catalogue.js';
import { lazySchema } from './lazy-schema.js';

/**
 * The schema of the body of every relay-produced error (DESIGN.md §3):
 * `{"error": {"code", "message", "reason" (424 only), "request_id"}}`. Built on the first call,
 * then memoised; {@link errorBodySchema} is the same instance.
 */
export const getErrorBodySchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    error: z
      .strictObject({
        code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
        message: z.string(),
        reason: z.enum(FALLBACK_REASONS).optional(),
        request_id: z.string().min(1),
      })
      .refine((e) => (e.code === 'fallback_local') === (e.reason !== undefined), {
        error: 'reason is present exactly when code is fallback_local',
        path: ['reason'],
      }),
  }),
);

/**
 * The body of every relay-produced error (DESIGN.md §3):
 * `{"error": {"code", "message", "reason" (424 only), "request_id"}}`. Built at import;
 * {@link getErrorBodySchema} builds it on first use.
 */
export const errorBodySchema = /* @__PURE__ */ getErrorBodySchema();

/** A relay error body. */
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** What {@link createErrorBody} needs. */
export interface ErrorBodyOptions {
  /** The request id that the `x-relay-request-id` header also carries. */
  readonly requestId: string;
  /** A generic message; defaults to the catalogue summary. Never a secret, pattern or match. */
  readonly message?: string;
}

/** Builds the error body of `code`; `fallback_local` needs its reason. */
export function createErrorBody(
  code: Exclude<ErrorCode, 'fallback_local'>,
  options: ErrorBodyOptions,
): ErrorBody;
export function createErrorBody(
  code: 'fallback_local',
  options: ErrorBodyOptions & { readonly reason: FallbackReason },
): ErrorBody;
export function createErrorBody(
  code: ErrorCode,
  options: ErrorBodyOptions & { readonly reason?: FallbackReason },
): ErrorBody {
  const message = options.message ?? defaultMessage(code, options.reason);
  const error: ErrorBody['error'] = { code, message, request_id: options.requestId };
  if (code === 'fallback_local') {
    if (options.reason === undefined) throw new TypeError('fallback_local needs a reason');
    error.reason = options.reason;
  }
  return { error };
}

function defaultMessage(code: ErrorCode, reason: FallbackReason | undefined): string {
  const summary = ERROR_CATALOGUE[code].summary;
  return reason === undefined ? summary : `${summary} (${reason})`;
}
