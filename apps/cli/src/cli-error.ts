import { CLIENT_ERROR_CATALOGUE, ERROR_CATALOGUE, isErrorCode } from '@relay/protocol';
import type { ClientErrorCode, ErrorCode, FallbackReason } from '@relay/protocol';
import type { DelegateReason } from './native/argv/native-plan.js';

/** Every code the CLI can end with: the server catalogue's and the client catalogue's. */
export type CliErrorCode = ErrorCode | ClientErrorCode;

/** The details a {@link CliError} carries besides its code. */
export interface CliErrorDetails {
  /** A generic, user-facing message; never a token, pattern or matched text. */
  readonly message?: string;
  /**
   * Why a local run was needed when the code is `fallback_local`: the relay's 424 reason, or
   * the reason `relay native` delegates (RELAY_NO_FALLBACK=1 forbids the run).
   */
  readonly reason?: FallbackReason | DelegateReason;
  /** The HTTP status the relay answered with, when there was one. */
  readonly status?: number;
  /** The relay's request id, when there was one. */
  readonly requestId?: string;
}

/** The exit code of a CLI error code, from its catalogue. */
export function exitCodeOf(code: CliErrorCode): number {
  if (isErrorCode(code)) return ERROR_CATALOGUE[code].exitCode;
  return CLIENT_ERROR_CATALOGUE[code].exitCode;
}

function summaryOf(code: CliErrorCode): string {
  if (isErrorCode(code)) return ERROR_CATALOGUE[code].summary;
  return CLIENT_ERROR_CATALOGUE[code].summary;
}

/**
 * An expected failure of a command. The command runner maps it once to a stderr line
 * (`relay: <message> (<code>)`) and the code's exit code.
 */
export class CliError extends Error {
  /** The stable machine code. */
  readonly code: CliErrorCode;
  /** The exit code the CLI ends with. */
  readonly exitCode: number;
  /** The 424 or delegate reason, when the code is `fallback_local`. */
  readonly reason: FallbackReason | DelegateReason | undefined;
  /** The relay's HTTP status, when there was one. */
  readonly status: number | undefined;
  /** The relay's request id, when there was one. */
  readonly requestId: string | undefined;

  constructor(code: CliErrorCode, details: CliErrorDetails = {}) {
    super(details.message ?? summaryOf(code));
    this.name = 'CliError';
    this.code = code;
    this.exitCode = exitCodeOf(code);
    this.reason = details.reason;
    this.status = details.status;
    this.requestId = details.requestId;
  }
}

/** Renders a {@link CliError} as the one stderr line the CLI prints for it. */
export function formatCliError(error: CliError): string {
  const reason = error.reason === undefined ? '' : `, reason ${error.reason}`;
  const request = error.requestId === undefined ? '' : `, request ${error.requestId}`;
  return `relay: ${error.message} (${error.code}${reason}${request})\n`;
}
