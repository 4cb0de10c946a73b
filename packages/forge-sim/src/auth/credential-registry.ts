import { createHash, randomBytes } from 'node:crypto';
import { importSPKI, jwtVerify, errors as joseErrors } from 'jose';
import type { SimClock } from '../world/sim-clock.js';

/** Who is calling, after the Authorization header was looked up. */
export type Principal =
  | { readonly kind: 'anonymous'; readonly client: string }
  | {
      readonly kind: 'pat';
      readonly id: string;
      readonly login: string;
      readonly scopes: readonly string[];
    }
  | {
      readonly kind: 'installation';
      readonly id: string;
      readonly installationId: number;
      readonly account: string;
      readonly repositories: readonly string[] | 'all';
      readonly expiresAt: number;
    }
  | { readonly kind: 'app'; readonly id: string; readonly appId: number };

/** Why a presented credential was refused (answered 401 "Bad credentials"). */
export type CredentialProblem = 'unknown' | 'revoked' | 'expired';

/** A registered personal access token. */
export interface PatRecord {
  /** Stable label used in the request log (never the secret). */
  readonly id: string;
  readonly token: string;
  readonly login: string;
  readonly scopes: readonly string[];
  revoked: boolean;
}

/** A registered GitHub App. */
export interface AppRecord {
  readonly id: number;
  readonly slug: string;
  readonly publicKeyPem: string;
}

/** An installation of an app on an account. */
export interface InstallationRecord {
  readonly id: number;
  readonly appId: number;
  readonly account: string;
  /** `'all'` or the repository names (without owner) the installation may read. */
  readonly repositories: readonly string[] | 'all';
  suspended: boolean;
}

interface InstallationToken {
  readonly id: string;
  readonly token: string;
  readonly installationId: number;
  readonly expiresAt: number;
  revoked: boolean;
}

/** Why an app JWT was refused by the access-token endpoint. */
export type JwtProblem =
  'malformed' | 'unknown_app' | 'bad_signature' | 'expired' | 'too_long' | 'not_yet_valid';

/** Length of an installation token's life, as on GitHub. */
export const INSTALLATION_TOKEN_TTL_MS = 60 * 60 * 1000;

/** Options of {@link CredentialRegistry}. */
export interface CredentialRegistryOptions {
  readonly clock: SimClock;
  /** Source of token bytes. Default: crypto.randomBytes. */
  readonly randomBytes?: (n: number) => Uint8Array;
}

/**
 * Personal access tokens, apps, installations and installation tokens, and the lookup
 * from an Authorization header to a {@link Principal}.
 */
export class CredentialRegistry {
  readonly #clock: SimClock;
  readonly #random: (n: number) => Uint8Array;
  readonly #pats = new Map<string, PatRecord>();
  readonly #apps = new Map<number, AppRecord>();
  readonly #installations = new Map<number, InstallationRecord>();
  readonly #installationTokens = new Map<string, InstallationToken>();
  #counter = 0;

  constructor(options: CredentialRegistryOptions) {
    this.#clock = options.clock;
    this.#random = options.randomBytes ?? ((n) => randomBytes(n));
  }

  #secret(prefix: string): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const bytes = this.#random(36);
    let out = prefix;
    for (const b of bytes) out += alphabet[b % alphabet.length] ?? 'A';
    return out;
  }

  /**
   * Registers a classic personal access token for `login` (the user must exist in the
   * world for `/user` to answer). Returns the record; `token` is the secret to send.
   */
  addPat(input: { login: string; scopes?: readonly string[]; token?: string }): PatRecord {
    this.#counter += 1;
    const record: PatRecord = {
      id: `pat-${this.#counter}`,
      token: input.token ?? this.#secret('ghp_'),
      login: input.login,
      scopes: [...(input.scopes ?? ['repo', 'read:org'])],
      revoked: false,
    };
    this.#pats.set(record.token, record);
    return record;
  }

  /** Revokes a token (PAT or installation token): later requests get 401. */
  revoke(token: string): void {
    const pat = this.#pats.get(token);
    if (pat) pat.revoked = true;
    const inst = this.#installationTokens.get(token);
    if (inst) inst.revoked = true;
  }

  /** Registers a GitHub App with the public key its JWTs are verified against. */
  addApp(input: { id: number; publicKeyPem: string; slug?: string }): AppRecord {
    const app: AppRecord = {
      id: input.id,
      publicKeyPem: input.publicKeyPem,
      slug: input.slug ?? `app-${input.id}`,
    };
    this.#apps.set(app.id, app);
    return app;
  }

  /** Installs an app on an account, for all repositories or the named ones. */
  addInstallation(input: {
    id: number;
    appId: number;
    account: string;
    repositories?: readonly string[] | 'all';
  }): InstallationRecord {
    const record: InstallationRecord = {
      id: input.id,
      appId: input.appId,
      account: input.account,
      repositories: input.repositories ?? 'all',
      suspended: false,
    };
    this.#installations.set(record.id, record);
    return record;
  }

  /** An installation by id. */
  getInstallation(id: number): InstallationRecord | undefined {
    return this.#installations.get(id);
  }

  /** Issues an installation token directly (skipping the JWT exchange). */
  issueInstallationToken(installationId: number): { token: string; expiresAt: number; id: string } {
    this.#counter += 1;
    const token: InstallationToken = {
      id: `inst-${installationId}-${this.#counter}`,
      token: this.#secret('ghs_'),
      installationId,
      expiresAt: this.#clock.now() + INSTALLATION_TOKEN_TTL_MS,
      revoked: false,
    };
    this.#installationTokens.set(token.token, token);
    return { token: token.token, expiresAt: token.expiresAt, id: token.id };
  }

  /**
   * Verifies an app JWT as GitHub does: RS256 signed by the registered app key, `iss`
   * the app id, `exp` in the future and no more than ten minutes after `iat`.
   */
  async verifyAppJwt(
    jwt: string,
  ): Promise<{ ok: true; app: AppRecord } | { ok: false; problem: JwtProblem }> {
    const parts = jwt.split('.');
    if (parts.length !== 3) return { ok: false, problem: 'malformed' };
    let iss: unknown;
    try {
      iss = (
        JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8')) as { iss?: unknown }
      ).iss;
    } catch {
      return { ok: false, problem: 'malformed' };
    }
    const app = this.#apps.get(Number(iss));
    if (!app) return { ok: false, problem: 'unknown_app' };
    try {
      const key = await importSPKI(app.publicKeyPem, 'RS256');
      const { payload } = await jwtVerify(jwt, key, {
        algorithms: ['RS256'],
        currentDate: new Date(this.#clock.now()),
        clockTolerance: 60,
        requiredClaims: ['iat', 'exp', 'iss'],
      });
      if ((payload.exp ?? 0) - (payload.iat ?? 0) > 600) return { ok: false, problem: 'too_long' };
      return { ok: true, app };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) return { ok: false, problem: 'expired' };
      if (error instanceof joseErrors.JWTClaimValidationFailed)
        return { ok: false, problem: 'not_yet_valid' };
      return { ok: false, problem: 'bad_signature' };
    }
  }

  /**
   * Looks up the credential of an Authorization header (`token X`, `Bearer X`). JWTs are
   * not resolved here (only the app endpoints accept them).
   */
  resolve(
    authorization: string | undefined,
    client: string,
  ): { ok: true; principal: Principal } | { ok: false; problem: CredentialProblem } {
    if (authorization === undefined || authorization.trim() === '') {
      return { ok: true, principal: { kind: 'anonymous', client } };
    }
    const match = /^(?:token|bearer)\s+(\S+)$/i.exec(authorization.trim());
    const secret = match?.[1];
    if (secret === undefined) return { ok: false, problem: 'unknown' };
    const pat = this.#pats.get(secret);
    if (pat) {
      if (pat.revoked) return { ok: false, problem: 'revoked' };
      return {
        ok: true,
        principal: { kind: 'pat', id: pat.id, login: pat.login, scopes: pat.scopes },
      };
    }
    const inst = this.#installationTokens.get(secret);
    if (inst) {
      if (inst.revoked) return { ok: false, problem: 'revoked' };
      if (inst.expiresAt <= this.#clock.now()) return { ok: false, problem: 'expired' };
      const installation = this.#installations.get(inst.installationId);
      if (!installation || installation.suspended) return { ok: false, problem: 'revoked' };
      return {
        ok: true,
        principal: {
          kind: 'installation',
          id: inst.id,
          installationId: installation.id,
          account: installation.account,
          repositories: installation.repositories,
          expiresAt: inst.expiresAt,
        },
      };
    }
    return { ok: false, problem: 'unknown' };
  }

  /**
   * A label for the request log and fault matching: the credential's id (`pat-1`,
   * `inst-7-2`), `anonymous`, `jwt`, or `invalid` — never the secret itself.
   */
  describe(authorization: string | undefined): string {
    if (authorization === undefined || authorization.trim() === '') return 'anonymous';
    const secret = /^(?:token|bearer)\s+(\S+)$/i.exec(authorization.trim())?.[1];
    if (secret === undefined) return 'invalid';
    const known = this.#pats.get(secret) ?? this.#installationTokens.get(secret);
    if (known) return known.id;
    if (secret.split('.').length === 3) return 'jwt';
    return `unknown-${createHash('sha256').update(secret).digest('hex').slice(0, 8)}`;
  }
}
