import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a signed log URL stays valid, as GitHub documents (one minute). */
export const LOG_URL_TTL_MS = 60_000;

/** Why a signed URL was refused. */
export type LogUrlProblem = 'missing_signature' | 'bad_signature' | 'expired';

/**
 * Signs and verifies the log host's URLs: `/logs/{owner}/{repo}/jobs/{id}?se=<expiry>&sig=<hmac>`.
 */
export class LogSigner {
  readonly #key: Uint8Array;
  readonly #now: () => number;
  readonly #ttlMs: number;

  constructor(key: Uint8Array, now: () => number, ttlMs = LOG_URL_TTL_MS) {
    this.#key = key;
    this.#now = now;
    this.#ttlMs = ttlMs;
  }

  #mac(path: string, expires: string): string {
    return createHmac('sha256', this.#key).update(`${path}\n${expires}`).digest('base64url');
  }

  /** A signed path+query for `path`, valid for the TTL from now. */
  sign(path: string): string {
    const expires = String(Math.floor((this.#now() + this.#ttlMs) / 1000));
    return `${path}?se=${expires}&sig=${this.#mac(path, expires)}`;
  }

  /** Checks a path and its query. */
  verify(
    path: string,
    query: URLSearchParams,
  ): { ok: true } | { ok: false; problem: LogUrlProblem } {
    const expires = query.get('se');
    const sig = query.get('sig');
    if (expires === null || sig === null) return { ok: false, problem: 'missing_signature' };
    const expected = Buffer.from(this.#mac(path, expires));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      return { ok: false, problem: 'bad_signature' };
    if (Number(expires) * 1000 <= this.#now()) return { ok: false, problem: 'expired' };
    return { ok: true };
  }
}
