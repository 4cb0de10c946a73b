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
import { parseForgeHosts, type ForgeHostsError } from '@relay/forge-transport';
import { DEFAULT_BODY_MAX_BYTES } from './http/json-body-reader.js';
import { DATABASE_URL_EXPECTED, parseDatabaseUrl } from './storage/database-location.js';
import { DEFAULT_REWRITE_CHECK_DEADLINE_MS } from './policy/rewrite-check-offload.js';
import { DEFAULT_GOVERNOR_MAX_WAIT_MS, DEFAULT_PACE_LIMITS } from './governor/upstream-governor.js';

/** Default of RELAY_HEADERS_TIMEOUT_MS: a request's headers must arrive within 10 s. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** Default of RELAY_REQUEST_BODY_TIMEOUT_MS: a whole request, body included, within 30 s. */
export const DEFAULT_REQUEST_BODY_TIMEOUT_MS = 30_000;
/** Default of RELAY_KEEP_ALIVE_TIMEOUT_MS: an idle kept-alive connection closes after 5 s. */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Default of RELAY_MAX_CONNECTIONS_PER_PEER: open connections from one address. */
export const DEFAULT_MAX_CONNECTIONS_PER_PEER = 64;
/** Default of RELAY_MAX_REQUEST_BYTES: request bodies (the string-rewrite PUT has its own). */
export const DEFAULT_MAX_REQUEST_BYTES = DEFAULT_BODY_MAX_BYTES;

/** Default of RELAY_VISIBILITY_PROOF_TTL_S: a public-visibility proof is reused for 60 s. */
export const DEFAULT_VISIBILITY_PROOF_TTL_S = 60;

/** Default of RELAY_MAX_CALLER_CONCURRENCY: relay requests of one caller in progress. */
export const DEFAULT_MAX_CALLER_CONCURRENCY = 8;

/** The levels of RELAY_LOG_LEVEL, most severe first; `silent` writes nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A level of RELAY_LOG_LEVEL. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Default of RELAY_LOG_LEVEL. */
export const DEFAULT_LOG_LEVEL: LogLevel = 'info';

/**
 * One of `values` from a variable: blank or unset is `fallback`; case and surrounding spaces do
 * not matter; anything else is undefined (an invalid configuration).
 */
function parseChoice<T extends string>(
  raw: string | undefined,
  values: readonly T[],
  fallback: T,
): T | undefined {
  const value = raw?.trim().toLowerCase();
  if (value === undefined || value === '') return fallback;
  return values.find((candidate) => candidate === value);
}

/**
 * RELAY_LOG_LEVEL as a level: blank or unset is {@link DEFAULT_LOG_LEVEL}; case and surrounding
 * spaces do not matter; anything else is undefined (an invalid configuration).
 *
 * @param raw - the variable's value
 */
export function parseLogLevel(raw: string | undefined): LogLevel | undefined {
  return parseChoice(raw, LOG_LEVELS, DEFAULT_LOG_LEVEL);
}

/**
 * RELAY_AUDIT_WRITER: where a SQLite file's audit batches are written. `event-loop` (the default)
 * writes them on the server's own thread; `worker` on a worker thread with its own connection
 * (README "Audit"): more cache hits a second and a lower p99 under load (the batches leave the
 * event loop), for about 20 MB more resident memory (a second V8 isolate).
 */
export const AUDIT_WRITERS = ['event-loop', 'worker'] as const;

/** A value of RELAY_AUDIT_WRITER. */
export type AuditWriterPlace = (typeof AUDIT_WRITERS)[number];

/** Default of RELAY_AUDIT_WRITER: within the memory goal of BENCHMARKS.md. */
export const DEFAULT_AUDIT_WRITER: AuditWriterPlace = 'event-loop';

/**
 * RELAY_AUDIT_WRITER as a place: blank or unset is {@link DEFAULT_AUDIT_WRITER}; case and
 * surrounding spaces do not matter; anything else is undefined (an invalid configuration).
 *
 * @param raw - the variable's value
 */
export function parseAuditWriter(raw: string | undefined): AuditWriterPlace | undefined {
  return parseChoice(raw, AUDIT_WRITERS, DEFAULT_AUDIT_WRITER);
}

/** The server's configuration, read from the environment of DESIGN.md §3. */
export interface ServerConfig {
  readonly host: string;
  /** 0 picks an ephemeral port. */
  readonly port: number;
  /** api_base and app_base of discovery; derived from host and port when unset. */
  readonly publicUrl: string | undefined;
  /** SQLite file, or `:memory:` (RELAY_DATABASE, or a `sqlite:` RELAY_DATABASE_URL). */
  readonly database: string;
  /**
   * A `postgres://` RELAY_DATABASE_URL: the relay's state lives in PostgreSQL and `database` is
   * not used. Never logged (it may hold a password).
   */
  readonly postgresUrl?: string;
  /** RELAY_DATABASE_SCHEMA: the PostgreSQL schema of the relay's tables. Default `public`. */
  readonly postgresSchema?: string;
  /**
   * RELAY_REDIS_URL (`redis://` or `rediss://`): the Coordinator, the shared cache and the
   * governor's windows live in Redis so that several replicas behave as one relay (README,
   * "Scaling out"). Needs a `postgres://` RELAY_DATABASE_URL. Never logged (it may hold a
   * password).
   */
  readonly redisUrl?: string;
  /** RELAY_REDIS_PREFIX: the prefix of every Redis key of this relay. Default `relay:`. */
  readonly redisPrefix?: string;
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
  /** A request's headers must arrive within this time of its first byte (and a new connection's). */
  readonly headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this time of its first byte. */
  readonly requestBodyTimeoutMs: number;
  /** An idle kept-alive connection is closed after this time. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections from one peer address at most; 0: no cap. */
  readonly maxConnectionsPerPeer: number;
  /** The largest request body read, bytes (the string-rewrite PUT keeps its 65,536). */
  readonly maxRequestBytes: number;
  /** How long a public-visibility proof is reused, seconds (1-60). */
  readonly visibilityProofTtlS: number;
  /** Relay requests of one caller in progress at most; 0: no bound. */
  readonly maxCallerConcurrency: number;
  /**
   * The upstream governor (README "Staying under GitHub's limits"): per identity (and token-free
   * source), requests in flight (RELAY_GOVERNOR_MAX_IN_FLIGHT, default 80) and points in any 60 s
   * (RELAY_GOVERNOR_POINTS_PER_MINUTE, default 720), and the longest wait for headroom before a
   * 424 `relay_overloaded` (RELAY_GOVERNOR_MAX_WAIT_MS, default 2000; 0: no wait).
   */
  readonly governor: {
    readonly maxInFlight: number;
    readonly pointsPerMinute: number;
    readonly maxWaitMs: number;
  };
  /** The longest one offloaded string-rewrite check may run, ms. */
  readonly rewriteCheckDeadlineMs: number;
  /** RELAY_METRICS_TOKEN: the bearer token of GET /metrics; unset → /metrics is not served. */
  readonly metricsToken: string | undefined;
  /** RELAY_LOG_LEVEL: the least severe level written to stdout. */
  readonly logLevel: LogLevel;
  /**
   * RELAY_AUDIT_WRITER: where audit batches are written on a SQLite file (PostgreSQL and an
   * in-memory database always write them on the event loop).
   */
  readonly auditWriter: AuditWriterPlace;
}

/** Why the environment is unusable: the variable and what it expects, never its value. */
export interface ConfigError {
  readonly code: 'invalid_config';
  readonly variable: string;
  readonly expected: string;
}

type Env = Readonly<Record<string, string | undefined>>;

const FORGE_URL_EXPECTED =
  'an absolute https URL (http only for loopback hosts) without credentials, query or fragment';

/** The variable behind each setting of forge-transport's host configuration. */
const FORGE_HOST_VARIABLES: Readonly<Record<ForgeHostsError['setting'], string>> = {
  api: 'RELAY_FORGE_API_URL',
  web: 'RELAY_FORGE_WEB_URL',
  raw: 'RELAY_FORGE_RAW_URL',
  patch: 'RELAY_FORGE_WEB_URL',
  logHosts: 'RELAY_FORGE_LOG_HOSTS',
};

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
  // A repository that turns private is refused within this bound: never longer than a minute.
  const visibilityProofTtlS = integer(
    'RELAY_VISIBILITY_PROOF_TTL_S',
    DEFAULT_VISIBILITY_PROOF_TTL_S,
    1,
    60,
  );
  if (!visibilityProofTtlS.ok) return visibilityProofTtlS;
  const maxCallerConcurrency = integer(
    'RELAY_MAX_CALLER_CONCURRENCY',
    DEFAULT_MAX_CALLER_CONCURRENCY,
    0,
    10_000,
  );
  if (!maxCallerConcurrency.ok) return maxCallerConcurrency;
  const governorMaxInFlight = integer(
    'RELAY_GOVERNOR_MAX_IN_FLIGHT',
    DEFAULT_PACE_LIMITS.maxInFlight,
    1,
    10_000,
  );
  if (!governorMaxInFlight.ok) return governorMaxInFlight;
  const governorPointsPerMinute = integer(
    'RELAY_GOVERNOR_POINTS_PER_MINUTE',
    DEFAULT_PACE_LIMITS.pointsPerMinute,
    1,
    1_000_000,
  );
  if (!governorPointsPerMinute.ok) return governorPointsPerMinute;
  const governorMaxWaitMs = integer(
    'RELAY_GOVERNOR_MAX_WAIT_MS',
    DEFAULT_GOVERNOR_MAX_WAIT_MS,
    0,
    60_000,
  );
  if (!governorMaxWaitMs.ok) return governorMaxWaitMs;
  const rewriteCheckDeadlineMs = integer(
    'RELAY_REWRITE_CHECK_DEADLINE_MS',
    DEFAULT_REWRITE_CHECK_DEADLINE_MS,
    10,
    60_000,
  );
  if (!rewriteCheckDeadlineMs.ok) return rewriteCheckDeadlineMs;
  const requestBodyTimeoutMs = integer(
    'RELAY_REQUEST_BODY_TIMEOUT_MS',
    DEFAULT_REQUEST_BODY_TIMEOUT_MS,
    100,
    600_000,
  );
  if (!requestBodyTimeoutMs.ok) return requestBodyTimeoutMs;
  const headersTimeoutMs = integer(
    'RELAY_HEADERS_TIMEOUT_MS',
    Math.min(DEFAULT_HEADERS_TIMEOUT_MS, requestBodyTimeoutMs.value),
    100,
    requestBodyTimeoutMs.value,
  );
  // Node refuses a headers timeout longer than the whole request's.
  if (!headersTimeoutMs.ok) {
    return fail(
      'RELAY_HEADERS_TIMEOUT_MS',
      `an integer 100-600000, at most RELAY_REQUEST_BODY_TIMEOUT_MS`,
    );
  }
  const keepAliveTimeoutMs = integer(
    'RELAY_KEEP_ALIVE_TIMEOUT_MS',
    DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
    100,
    600_000,
  );
  if (!keepAliveTimeoutMs.ok) return keepAliveTimeoutMs;
  const maxConnectionsPerPeer = integer(
    'RELAY_MAX_CONNECTIONS_PER_PEER',
    DEFAULT_MAX_CONNECTIONS_PER_PEER,
    0,
    1_000_000,
  );
  if (!maxConnectionsPerPeer.ok) return maxConnectionsPerPeer;
  const maxRequestBytes = integer(
    'RELAY_MAX_REQUEST_BYTES',
    DEFAULT_MAX_REQUEST_BYTES,
    1024,
    1_048_576,
  );
  if (!maxRequestBytes.ok) return maxRequestBytes;
  // The forge hosts are judged by forge-transport, the allowlist the transport then enforces.
  const apiUrl = value('RELAY_FORGE_API_URL');
  const webUrl = value('RELAY_FORGE_WEB_URL');
  const rawUrl = value('RELAY_FORGE_RAW_URL');
  const logHostList = value('RELAY_FORGE_LOG_HOSTS')
    ?.split(',')
    .filter((entry) => entry.trim() !== '');
  if (logHostList?.length === 0) {
    return fail('RELAY_FORGE_LOG_HOSTS', 'a comma-separated list of host suffixes');
  }
  const forgeHosts = parseForgeHosts({
    ...(apiUrl === undefined ? {} : { apiUrl }),
    ...(webUrl === undefined ? {} : { webUrl }),
    ...(rawUrl === undefined ? {} : { rawUrl }),
    ...(logHostList === undefined ? {} : { logHosts: logHostList }),
  });
  if (!forgeHosts.ok) {
    const { setting } = forgeHosts.error;
    return fail(
      FORGE_HOST_VARIABLES[setting],
      setting === 'logHosts' ? 'a comma-separated list of host suffixes' : FORGE_URL_EXPECTED,
    );
  }
  const baseUrl = (kind: 'api' | 'web' | 'raw') => {
    const base = forgeHosts.value.bases[kind];
    return base.origin + base.basePath;
  };

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

  const metricsToken = value('RELAY_METRICS_TOKEN');
  if (metricsToken !== undefined && (metricsToken.length < 16 || /\s/.test(metricsToken))) {
    return fail('RELAY_METRICS_TOKEN', 'at least 16 characters without spaces');
  }
  const logLevel = parseLogLevel(env.RELAY_LOG_LEVEL);
  if (logLevel === undefined) return fail('RELAY_LOG_LEVEL', LOG_LEVELS.join(', '));
  const auditWriter = parseAuditWriter(env.RELAY_AUDIT_WRITER);
  if (auditWriter === undefined) return fail('RELAY_AUDIT_WRITER', AUDIT_WRITERS.join(', '));

  // RELAY_DATABASE_URL selects the engine (sqlite: or postgres://); RELAY_DATABASE remains the
  // SQLite file of the quick start. Both at once would leave it unclear which one holds the data.
  const databaseUrlRaw = value('RELAY_DATABASE_URL');
  let database = value('RELAY_DATABASE') ?? 'relay.db';
  let postgresUrl: string | undefined;
  if (databaseUrlRaw !== undefined) {
    if (value('RELAY_DATABASE') !== undefined) {
      return fail('RELAY_DATABASE_URL', 'unset while RELAY_DATABASE is set (set only one of them)');
    }
    const location = parseDatabaseUrl(databaseUrlRaw);
    if (!location.ok) return fail('RELAY_DATABASE_URL', DATABASE_URL_EXPECTED);
    if (location.value.dialect === 'sqlite') database = location.value.path;
    else postgresUrl = location.value.url;
  }
  const postgresSchema = value('RELAY_DATABASE_SCHEMA');
  if (postgresSchema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(postgresSchema)) {
    return fail('RELAY_DATABASE_SCHEMA', 'a lowercase SQL identifier (a-z, 0-9, _; 1-63)');
  }

  // Redis is the shared state of several replicas; replicas share no SQLite file, so Redis comes
  // with PostgreSQL only.
  const redisUrl = value('RELAY_REDIS_URL');
  if (redisUrl !== undefined) {
    if (!isRedisUrl(redisUrl)) {
      return fail('RELAY_REDIS_URL', 'a redis:// or rediss:// URL');
    }
    if (postgresUrl === undefined) {
      return fail('RELAY_REDIS_URL', 'unset, or set with a postgres:// RELAY_DATABASE_URL');
    }
  }
  const redisPrefix = value('RELAY_REDIS_PREFIX');
  if (redisPrefix !== undefined && !/^[A-Za-z0-9_.:-]{1,64}$/.test(redisPrefix)) {
    return fail('RELAY_REDIS_PREFIX', '1-64 of A-Z a-z 0-9 _ . : -');
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
    database,
    ...(postgresUrl === undefined ? {} : { postgresUrl }),
    ...(postgresUrl === undefined || postgresSchema === undefined ? {} : { postgresSchema }),
    ...(redisUrl === undefined ? {} : { redisUrl }),
    ...(redisUrl === undefined || redisPrefix === undefined ? {} : { redisPrefix }),
    adminToken,
    forgeApiUrl: baseUrl('api'),
    forgeWebUrl: baseUrl('web'),
    forgeRawUrl: baseUrl('raw'),
    forgeLogHosts: forgeHosts.value.logHosts,
    secretsDir: value('RELAY_SECRETS_DIR'),
    membershipTtlS: membershipTtlS.value,
    defaultAllowedOwners: owners,
    defaultLoginPool,
    allowedForgeOrg,
    maxResponseBytes: maxResponseBytes.value,
    requestTimeoutMs: requestTimeoutMs.value,
    forgeAppId,
    headersTimeoutMs: headersTimeoutMs.value,
    requestBodyTimeoutMs: requestBodyTimeoutMs.value,
    keepAliveTimeoutMs: keepAliveTimeoutMs.value,
    maxConnectionsPerPeer: maxConnectionsPerPeer.value,
    maxRequestBytes: maxRequestBytes.value,
    visibilityProofTtlS: visibilityProofTtlS.value,
    maxCallerConcurrency: maxCallerConcurrency.value,
    governor: {
      maxInFlight: governorMaxInFlight.value,
      pointsPerMinute: governorPointsPerMinute.value,
      maxWaitMs: governorMaxWaitMs.value,
    },
    rewriteCheckDeadlineMs: rewriteCheckDeadlineMs.value,
    metricsToken,
    logLevel,
    auditWriter,
  });
}

/** Renders a configuration error for a person, without any value. */
export function formatConfigError(error: ConfigError): string {
  return `invalid configuration: ${error.variable} must be ${error.expected}`;
}

/**
 * Node flags relay-server is started with. `--max-semi-space-size=8` bounds V8's young
 * generation to 2 × 8 MiB (V8's default grows it to 2 × 64 MiB under load, and that is resident
 * memory). V8 sizes the young generation when the process starts, so this cannot be set from
 * inside it (`v8.setFlagsFromString` is ignored for it): the `relay-server` bin carries it in its
 * `#!/usr/bin/env -S node …` line, the root `pnpm start` passes it, and other launchers pass it on
 * the command line or in `NODE_OPTIONS`.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];

/**
 * V8 flags relay-server sets from inside the process at start-up (V8 reads them at every
 * collection, so setting them at run time works): the old generation may grow to 1.5 times what
 * survived the last full collection before the next one, instead of up to 4 times, which V8
 * chooses when collections are fast next to the allocation rate (they are here: a request
 * allocates much, keeps little).
 */
export const SERVER_RUNTIME_V8_FLAGS: readonly string[] = ['--heap-growing-percent=50'];

/**
 * The {@link SERVER_RUNTIME_V8_FLAGS} to set, leaving out those the operator gave on the node
 * command line (`--heap-growing-percent=…` or `--heap_growing_percent=…` in `execArgv`).
 *
 * @param execArgv - the process's node flags (`process.execArgv`).
 * @returns the flags to pass to `v8.setFlagsFromString`, one at a time.
 */
export function runtimeV8Flags(execArgv: readonly string[]): string[] {
  const flagName = (flag: string) => flag.replace(/^--/, '').split('=')[0]?.replaceAll('_', '-');
  const given = new Set(execArgv.map(flagName));
  return SERVER_RUNTIME_V8_FLAGS.filter((flag) => !given.has(flagName(flag)));
}

/**
 * Whether `raw` is a `redis://` or `rediss://` URL with a host.
 *
 * @param raw - the value of RELAY_REDIS_URL
 */
function isRedisUrl(raw: string): boolean {
  if (!URL.canParse(raw)) return false;
  const url = new URL(raw);
  return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
}
