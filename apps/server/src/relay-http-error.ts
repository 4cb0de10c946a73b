import type { ErrorCode } from '@relay/protocol';

/**
 * Codes the server answers with that the protocol catalogue does not hold yet (login and
 * provisioning refusals that need an operator or user decision). Both are 409.
 */
export const SERVER_ONLY_ERRORS = {
  client_name_ambiguous: {
    status: 409,
    summary: 'The client name matches more than one historical client.',
  },
  caller_ambiguous: {
    status: 409,
    summary: 'Several historical callers match this account; an operator must decide.',
  },
} as const;

/** A code of {@link SERVER_ONLY_ERRORS}. */
export type ServerOnlyErrorCode = keyof typeof SERVER_ONLY_ERRORS;

/** Every code a route may raise. */
export type RelayHttpErrorCode = Exclude<ErrorCode, 'fallback_local'> | ServerOnlyErrorCode;

/** A relay error raised inside a route, mapped to its error body once, in `onError`. */
export class RelayHttpError extends Error {
  override readonly name = 'RelayHttpError';
  /**
   * @param code - the catalogue code
   * @param message - a generic message (never a token, secret, pattern or matched text);
   *   defaults to the catalogue summary
   */
  constructor(
    readonly code: RelayHttpErrorCode,
    readonly publicMessage?: string,
  ) {
    super(publicMessage ?? code);
  }
}
