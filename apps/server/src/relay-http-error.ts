import type { ErrorCode } from '@relay/protocol';

/** Every code a route may raise. */
export type RelayHttpErrorCode = Exclude<ErrorCode, 'fallback_local'>;

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
