import { APP_TOKEN_REFRESH_MARGIN_MS, err, ok, type Result } from '@relay/protocol';
import { isForgeAppId, signAppJwt } from './app-jwt-signer.js';
import {
  PooledCredential,
  type CredentialError,
  type CredentialProvider,
  type SecretResolver,
} from './credential.js';
import type { PoolIdentity } from './pool-identity.js';
import { parseRetryAfter } from './retry-after-parser.js';

/**
 * The subset of `fetch` the provider needs (the shell passes the forge transport's). It may
 * reject with an error whose `code` is `relay_overloaded` when the relay's own pacing refused to
 * send the exchange ({@link isPacingRefusal}): the resolution then fails with
 * `token_exchange_refused` (no cooldown) instead of `token_exchange_failed`.
 */
export type ExchangeFetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * Whether an {@link ExchangeFetch} rejection is the relay's pacing refusing to send the exchange
 * (an error with `code` `relay_overloaded`), not a failure to reach the forge.
 *
 * @param error - what the exchange fetch rejected with
 */
export function isPacingRefusal(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { readonly code?: unknown }).code === 'relay_overloaded'
  );
}

/** Options of {@link createForgeAppCredentialProvider}. */
export interface ForgeAppCredentialProviderOptions {
  /** RELAY_FORGE_APP_ID; unset or malformed makes every forge_app identity fail locally. */
  readonly appId: string | undefined;
  /** Reads the app's private key from the secret binding named by the identity's `secret_ref`. */
  readonly resolveSecret: SecretResolver;
  /** Sends the token exchange (POST /app/installations/:id/access_tokens). */
  readonly fetch: ExchangeFetch;
  /** The forge API base URL (RELAY_FORGE_API_URL), e.g. `https://api.github.com`. */
  readonly apiBaseUrl: string;
  /** The clock, epoch milliseconds. */
  readonly now: () => number;
  /** A cached token is refreshed this long before it expires. Default 60 s. */
  readonly refreshMarginMs?: number;
  /** The User-Agent of the exchange. Default `relay`. */
  readonly userAgent?: string;
}

const TOKEN_PATTERN = /^[\x21-\x7e]{1,1024}$/;

interface ExchangeBody {
  readonly token: string;
  readonly expiresAt: number;
}

function parseExchangeBody(body: unknown, now: number): ExchangeBody | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { token, expires_at: expiresAtText } = body as Record<string, unknown>;
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return undefined;
  if (typeof expiresAtText !== 'string') return undefined;
  const expiresAt = Date.parse(expiresAtText);
  return Number.isNaN(expiresAt) || expiresAt <= now ? undefined : { token, expiresAt };
}

/**
 * The `forge_app` credential provider. For a selected identity it returns the installation token,
 * from an in-memory cache while the token is valid for longer than the refresh margin; otherwise
 * it reads the private key, signs an RS256 app JWT ({@link signAppJwt}) and exchanges it at
 * `POST {apiBaseUrl}/app/installations/{installation_id}/access_tokens`.
 *
 * - Concurrent resolutions for one installation share one exchange.
 * - The app id and the installation id are checked before the cache: a cached token does not
 *   hide a missing RELAY_FORGE_APP_ID.
 * - A cached token serves without reading the key. When a refresh inside the margin fails, the
 *   cached token serves until it actually expires.
 * - No error carries the key, the JWT, the token, the binding name or the forge's response body.
 *
 * @example
 * ```ts
 * const app = createForgeAppCredentialProvider({ appId: env.RELAY_FORGE_APP_ID, resolveSecret,
 *   fetch: transport.fetch, apiBaseUrl: 'https://api.github.com', now: Date.now });
 * ```
 */
export function createForgeAppCredentialProvider(
  options: ForgeAppCredentialProviderOptions,
): CredentialProvider {
  const { now, resolveSecret } = options;
  const margin = options.refreshMarginMs ?? APP_TOKEN_REFRESH_MARGIN_MS;
  const baseUrl = options.apiBaseUrl.replace(/\/+$/, '');
  const cache = new Map<number, PooledCredential>();
  const inflight = new Map<number, Promise<Result<PooledCredential, CredentialError>>>();

  async function exchange(
    identity: PoolIdentity,
    appId: string,
    installationId: number,
  ): Promise<Result<PooledCredential, CredentialError>> {
    let pem: string | undefined;
    try {
      pem = await resolveSecret(identity.secretRef);
    } catch {
      return err({ code: 'secret_unavailable' });
    }
    if (pem === undefined) return err({ code: 'secret_unavailable' });
    if (pem.trim() === '') return err({ code: 'secret_invalid' });
    const jwt = await signAppJwt({ appId, privateKeyPem: pem, now: now() });
    if (!jwt.ok) return jwt;

    let response: Response;
    try {
      response = await options.fetch(
        `${baseUrl}/app/installations/${installationId}/access_tokens`,
        {
          method: 'POST',
          headers: {
            accept: 'application/vnd.github+json',
            authorization: `Bearer ${jwt.value}`,
            'x-github-api-version': '2022-11-28',
            'user-agent': options.userAgent ?? 'relay',
          },
          redirect: 'manual',
        },
      );
    } catch (error) {
      if (isPacingRefusal(error)) return err({ code: 'token_exchange_refused' });
      return err({ code: 'token_exchange_failed', status: undefined, retryAfterMs: undefined });
    }
    const mintedAt = now();
    const failed = {
      code: 'token_exchange_failed',
      status: response.status,
      retryAfterMs: parseRetryAfter(response.headers, mintedAt),
    } as const;
    if (response.status !== 201 && response.status !== 200) {
      await response.body?.cancel();
      return err(failed);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      return err(failed);
    }
    const parsed = parseExchangeBody(body, mintedAt);
    if (parsed === undefined) return err(failed);
    return ok(
      new PooledCredential('forge_app', parsed.token, { mintedAt, expiresAt: parsed.expiresAt }),
    );
  }

  return {
    async resolve(identity: PoolIdentity): Promise<Result<PooledCredential, CredentialError>> {
      const appId = options.appId?.trim();
      if (!isForgeAppId(appId)) return err({ code: 'forge_app_id_missing' });
      const installationId = identity.installationId;
      if (installationId === null || !Number.isSafeInteger(installationId) || installationId <= 0) {
        return err({ code: 'installation_missing' });
      }
      const cached = cache.get(installationId);
      if (cached?.expiresAt !== undefined && now() < cached.expiresAt - margin) return ok(cached);

      let pending = inflight.get(installationId);
      if (pending === undefined) {
        pending = exchange(identity, appId, installationId).then((result) => {
          if (result.ok) cache.set(installationId, result.value);
          return result;
        });
        const settled = pending.finally(() => inflight.delete(installationId));
        inflight.set(installationId, settled);
        pending = settled;
      }
      const result = await pending;
      if (result.ok) return result;
      const stillValid = cache.get(installationId);
      if (stillValid?.expiresAt !== undefined && now() < stillValid.expiresAt)
        return ok(stillValid);
      return result;
    },

    invalidate(identity: PoolIdentity): void {
      if (identity.installationId !== null) cache.delete(identity.installationId);
    },
  };
}
