import {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MEMBERSHIP_TTL_S,
  DEFAULT_REQUEST_TIMEOUT_MS,
  err,
  forgeLoginSchema,
  ok,
  parseAllowedOwnersList,
  poolIdSchema,
  type Result,
} from '@relay/protocol';

/** GitHub's signed log-download host suffixes (job logs redirect there). */
export const DEFAULT_FORGE_LOG_HOSTS: readonly string[] = [
  'actions.githubusercontent.com',
  'blob.core.windows.net',
];

/** The server's configuration, read from the environment of DESIGN.md §3. */
export interface ServerConfig {
  readonly host: string;
  /** 0 picks an ephemeral port. */
  readonly port: number;
  /** api_base and app_base of discovery; derived from host and port when unset. */
  readonly publicUrl: string | undefined;
  /** SQLite file, or `:memory:`. */
  readonly database: string;
  /** Unset: every /v1/admin/* answers 401. */
  readonly adminToken: string | undefined;
  readonly forgeApiUrl: string;
  readonly forgeWebUrl: string;
  readonly forgeRawUrl: string;
  readonly forgeLogHosts: readonly string[];
  readonly secretsDir: string | undefined;
  readonly membershipTtlS: number;
  readonly defaultAllowedOwners: readonly string[];
  readonly defaultLoginPool: string;
  readonly allowedForgeOrg: string | undefined;
  readonly maxResponseBytes: number;
  readonly requestTimeoutMs: number;
  readonly forgeAppId: number | undefined;
}

/** Why the environment is unusable: the variable and what it expects, never its value. */
export interface ConfigError {
  readonly code: 'invalid_config';
  readonly variable: string;
  readonly expected: string;
}

type Env = Readonly<Record<string, string | undefined>>;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a URL's host is a loopback host (the only hosts allowed over plain http). */
export function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname);
}

/**
 * Reads the server configuration from `env`. Blank variables count as unset. Errors name the
 * variable and what it expects, never the value it held.
 */
export function loadServerConfig(env: Env): Result<ServerConfig, ConfigError> {
  const value = (name: string): string | undefined => {
    const raw = env[name]?.trim();
    return raw === undefined || raw === '' ? undefined : raw;
  };
  const fail = (variable: string, expected: string) =>
    err<ConfigError>({ code: 'invalid_config', variable, expected });

  const integer = (name: string, fallback: number, min: number, max: number) => {
    const raw = value(name);
    if (raw === undefined) return ok(fallback);
    if (!/^\d+$/.test(raw)) return fail(name, `an integer ${min}-${max}`);
    const parsed = Number(raw);
    if (parsed < min || parsed > max) return fail(name, `an integer ${min}-${max}`);
    return ok(parsed);
  };

  const forgeUrl = (name: string, fallback: string) => {
    const raw = value(name) ?? fallback;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return fail(name, 'an absolute https URL (http only for loopback hosts)');
    }
    const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackUrl(url));
    if (
      !secure ||
      url.username !== '' ||
      url.password !== '' ||
      url.search !== '' ||
      url.hash !== ''
    ) {
      return fail(name, 'an absolute https URL (http only for loopback hosts)');
    }
    return ok(url.href.replace(/\/+$/, ''));
  };

  const port = integer('RELAY_PORT', 8787, 0, 65_535);
  if (!port.ok) return port;
  const membershipTtlS = integer(
    'RELAY_MEMBERSHIP_TTL_S',
    DEFAULT_MEMBERSHIP_TTL_S,
    60,
    31_536_000,
  );
  if (!membershipTtlS.ok) return membershipTtlS;
  const maxResponseBytes = integer(
    'MAX_RESPONSE_BYTES',
    DEFAULT_MAX_RESPONSE_BYTES,
    1024,
    1_073_741_824,
  );
  if (!maxResponseBytes.ok) return maxResponseBytes;
  const requestTimeoutMs = integer('REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS, 100, 600_000);
  if (!requestTimeoutMs.ok) return requestTimeoutMs;
  const forgeApiUrl = forgeUrl('RELAY_FORGE_API_URL', 'https://api.github.com');
  if (!forgeApiUrl.ok) return forgeApiUrl;
  const forgeWebUrl = forgeUrl('RELAY_FORGE_WEB_URL', 'https://github.com');
  if (!forgeWebUrl.ok) return forgeWebUrl;
  const forgeRawUrl = forgeUrl('RELAY_FORGE_RAW_URL', 'https://raw.githubusercontent.com');
  if (!forgeRawUrl.ok) return forgeRawUrl;

  const host = value('RELAY_HOST') ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host)) return fail('RELAY_HOST', 'a host name or IP address');

  const publicUrlRaw = value('RELAY_PUBLIC_URL');
  let publicUrl: string | undefined;
  if (publicUrlRaw !== undefined) {
    try {
      const url = new URL(publicUrlRaw);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError('scheme');
      if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
        throw new TypeError('parts');
      }
      publicUrl = url.href.replace(/\/+$/, '');
    } catch {
      return fail(
        'RELAY_PUBLIC_URL',
        'an absolute http(s) URL without credentials, query or fragment',
      );
    }
  }

  const adminToken = value('RELAY_ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 16) {
    return fail('RELAY_ADMIN_TOKEN', 'at least 16 characters');
  }

  const defaultLoginPool = value('DEFAULT_LOGIN_POOL') ?? 'default';
  if (!poolIdSchema.safeParse(defaultLoginPool).success) {
    return fail('DEFAULT_LOGIN_POOL', 'a pool id (1-100 of [A-Za-z0-9._-])');
  }
  const allowedForgeOrg = value('ALLOWED_FORGE_ORG');
  if (allowedForgeOrg !== undefined && !forgeLoginSchema.safeParse(allowedForgeOrg).success) {
    return fail('ALLOWED_FORGE_ORG', 'an organization login');
  }
  const owners = parseAllowedOwnersList(value('DEFAULT_ALLOWED_OWNERS'));
  if (owners.some((owner) => !forgeLoginSchema.safeParse(owner).success)) {
    return fail('DEFAULT_ALLOWED_OWNERS', 'a comma-separated list of owner logins');
  }
  const logHosts = value('RELAY_FORGE_LOG_HOSTS');
  const forgeLogHosts =
    logHosts === undefined
      ? DEFAULT_FORGE_LOG_HOSTS
      : logHosts
          .split(',')
          .map((h) =>
            h
              .trim()
              .toLowerCase()
              .replace(/^\.+|\.+$/g, ''),
          )
          .filter((h) => h.length > 0);
  if (forgeLogHosts.some((h) => !/^[a-z0-9.-]+$/.test(h)) || forgeLogHosts.length === 0) {
    return fail('RELAY_FORGE_LOG_HOSTS', 'a comma-separated list of host suffixes');
  }
  const appIdRaw = value('RELAY_FORGE_APP_ID');
  let forgeAppId: number | undefined;
  if (appIdRaw !== undefined) {
    if (!/^[1-9]\d{0,15}$/.test(appIdRaw) || !Number.isSafeInteger(Number(appIdRaw))) {
      return fail('RELAY_FORGE_APP_ID', 'a positive integer');
    }
    forgeAppId = Number(appIdRaw);
  }

  return ok({
    host,
    port: port.value,
    publicUrl,
    database: value('RELAY_DATABASE') ?? 'relay.db',
    adminToken,
    forgeApiUrl: forgeApiUrl.value,
    forgeWebUrl: forgeWebUrl.value,
    forgeRawUrl: forgeRawUrl.value,
    forgeLogHosts,
    secretsDir: value('RELAY_SECRETS_DIR'),
    membershipTtlS: membershipTtlS.value,
    defaultAllowedOwners: owners,
    defaultLoginPool,
    allowedForgeOrg,
    maxResponseBytes: maxResponseBytes.value,
    requestTimeoutMs: requestTimeoutMs.value,
    forgeAppId,
  });
}

/** Renders a configuration error for a person, without any value. */
export function formatConfigError(error: ConfigError): string {
  return `invalid configuration: ${error.variable} must be ${error.expected}`;
}
