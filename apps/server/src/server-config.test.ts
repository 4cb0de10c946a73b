import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FORGE_LOG_HOSTS } from '@relay/forge-transport';
import {
  formatConfigError,
  loadServerConfig,
  runtimeV8Flags,
  SERVER_NODE_FLAGS,
  SERVER_RUNTIME_V8_FLAGS,
} from './server-config.js';

describe('loadServerConfig', () => {
  it('applies the DESIGN.md §3 defaults to an empty environment', () => {
    expect(loadServerConfig({})).toEqual({
      ok: true,
      value: {
        host: '127.0.0.1',
        port: 8787,
        publicUrl: undefined,
        database: 'relay.db',
        adminToken: undefined,
        forgeApiUrl: 'https://api.github.com',
        forgeWebUrl: 'https://github.com',
        forgeRawUrl: 'https://raw.githubusercontent.com',
        forgeLogHosts: DEFAULT_FORGE_LOG_HOSTS,
        secretsDir: undefined,
        membershipTtlS: 2_592_000,
        defaultAllowedOwners: [],
        defaultLoginPool: 'default',
        allowedForgeOrg: undefined,
        maxResponseBytes: 2_097_152,
        requestTimeoutMs: 15_000,
        forgeAppId: undefined,
        headersTimeoutMs: 10_000,
        requestBodyTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        maxConnectionsPerPeer: 64,
        maxRequestBytes: 16_384,
        visibilityProofTtlS: 60,
        maxCallerConcurrency: 8,
        governor: { maxInFlight: 80, pointsPerMinute: 720, maxWaitMs: 2_000 },
        rewriteCheckDeadlineMs: 2_000,
        metricsToken: undefined,
        logLevel: 'info',
        auditWriter: 'event-loop',
      },
    });
  });

  it('reads every variable', () => {
    const result = loadServerConfig({
      RELAY_HOST: '0.0.0.0',
      RELAY_PORT: '0',
      RELAY_PUBLIC_URL: 'https://relay.example.com/',
      RELAY_DATABASE: ':memory:',
      RELAY_ADMIN_TOKEN: 'a-very-long-admin-token',
      RELAY_FORGE_API_URL: 'http://127.0.0.1:9000/',
      RELAY_FORGE_WEB_URL: 'http://localhost:9001',
      RELAY_FORGE_RAW_URL: 'https://raw.example.com',
      RELAY_FORGE_LOG_HOSTS: ' Logs.Example.com , .blob.example.net. ',
      RELAY_SECRETS_DIR: '/run/secrets',
      RELAY_MEMBERSHIP_TTL_S: '3600',
      DEFAULT_ALLOWED_OWNERS: 'Octo-Org,acme',
      DEFAULT_LOGIN_POOL: 'team',
      ALLOWED_FORGE_ORG: 'octo-org',
      MAX_RESPONSE_BYTES: '4194304',
      REQUEST_TIMEOUT_MS: '5000',
      RELAY_FORGE_APP_ID: '12345',
      RELAY_HEADERS_TIMEOUT_MS: '2000',
      RELAY_REQUEST_BODY_TIMEOUT_MS: '4000',
      RELAY_KEEP_ALIVE_TIMEOUT_MS: '1500',
      RELAY_MAX_CONNECTIONS_PER_PEER: '0',
      RELAY_MAX_REQUEST_BYTES: '32768',
      RELAY_VISIBILITY_PROOF_TTL_S: '15',
      RELAY_GOVERNOR_MAX_IN_FLIGHT: '40',
      RELAY_GOVERNOR_POINTS_PER_MINUTE: '300',
      RELAY_GOVERNOR_MAX_WAIT_MS: '0',
      RELAY_MAX_CALLER_CONCURRENCY: '0',
      RELAY_REWRITE_CHECK_DEADLINE_MS: '500',
      RELAY_METRICS_TOKEN: 'a-long-metrics-scrape-token',
      RELAY_LOG_LEVEL: ' Debug ',
      RELAY_AUDIT_WRITER: ' Worker ',
    });
    expect(result.ok && result.value).toMatchObject({
      host: '0.0.0.0',
      port: 0,
      publicUrl: 'https://relay.example.com',
      database: ':memory:',
      adminToken: 'a-very-long-admin-token',
      forgeApiUrl: 'http://127.0.0.1:9000',
      forgeWebUrl: 'http://localhost:9001',
      forgeLogHosts: ['logs.example.com', 'blob.example.net'],
      membershipTtlS: 3600,
      defaultAllowedOwners: ['octo-org', 'acme'],
      defaultLoginPool: 'team',
      allowedForgeOrg: 'octo-org',
      maxResponseBytes: 4_194_304,
      requestTimeoutMs: 5000,
      forgeAppId: 12345,
      headersTimeoutMs: 2000,
      requestBodyTimeoutMs: 4000,
      keepAliveTimeoutMs: 1500,
      maxConnectionsPerPeer: 0,
      maxRequestBytes: 32_768,
      visibilityProofTtlS: 15,
      maxCallerConcurrency: 0,
      governor: { maxInFlight: 40, pointsPerMinute: 300, maxWaitMs: 0 },
      rewriteCheckDeadlineMs: 500,
      metricsToken: 'a-long-metrics-scrape-token',
      logLevel: 'debug',
      auditWriter: 'worker',
    });
  });

  it('bounds the headers timeout by the whole request timeout (default included)', () => {
    const shorter = loadServerConfig({ RELAY_REQUEST_BODY_TIMEOUT_MS: '5000' });
    expect(shorter.ok && shorter.value.headersTimeoutMs).toBe(5000);
    const longer = loadServerConfig({
      RELAY_HEADERS_TIMEOUT_MS: '6000',
      RELAY_REQUEST_BODY_TIMEOUT_MS: '5000',
    });
    expect(!longer.ok && longer.error.variable).toBe('RELAY_HEADERS_TIMEOUT_MS');
  });

  it.each(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const)(
    'accepts RELAY_LOG_LEVEL=%s',
    (level) => {
      const result = loadServerConfig({ RELAY_LOG_LEVEL: level.toUpperCase() });
      expect(result.ok && result.value.logLevel).toBe(level);
    },
  );

  it.each([
    [{}, { database: 'relay.db' }],
    [
      { RELAY_DATABASE_URL: 'sqlite:/var/lib/relay/relay.db' },
      { database: '/var/lib/relay/relay.db' },
    ],
    [{ RELAY_DATABASE_URL: 'sqlite::memory:' }, { database: ':memory:' }],
    [
      { RELAY_DATABASE_URL: 'postgres://relay:pw@db.internal:5433/relay?sslmode=require' },
      { postgresUrl: 'postgres://relay:pw@db.internal:5433/relay?sslmode=require' },
    ],
    [
      { RELAY_DATABASE_URL: 'postgresql://db.internal/relay', RELAY_DATABASE_SCHEMA: 'relay' },
      { postgresUrl: 'postgresql://db.internal/relay', postgresSchema: 'relay' },
    ],
  ])('selects the database engine from %j', (env, expected) => {
    const result = loadServerConfig(env);
    expect(result.ok && result.value).toMatchObject(expected);
    if (!('postgresUrl' in expected)) expect(result.ok && result.value.postgresUrl).toBeUndefined();
  });

  it('refuses RELAY_DATABASE_URL beside RELAY_DATABASE, and never repeats a password', () => {
    const both = loadServerConfig({
      RELAY_DATABASE: 'relay.db',
      RELAY_DATABASE_URL: 'postgres://u:hunter22@db/relay',
    });
    expect(!both.ok && both.error.variable).toBe('RELAY_DATABASE_URL');
    const bad = loadServerConfig({ RELAY_DATABASE_URL: 'postgres://u:hunter22@/relay' });
    expect(!bad.ok && formatConfigError(bad.error)).not.toContain('hunter22');
  });

  it('takes RELAY_REDIS_URL and RELAY_REDIS_PREFIX with PostgreSQL only, never repeating a password', () => {
    const pg = { RELAY_DATABASE_URL: 'postgres://db.internal/relay' };
    const result = loadServerConfig({
      ...pg,
      RELAY_REDIS_URL: 'rediss://:pw@redis.internal:6380/2',
      RELAY_REDIS_PREFIX: 'relay-a:',
    });
    expect(result.ok && result.value).toMatchObject({
      redisUrl: 'rediss://:pw@redis.internal:6380/2',
      redisPrefix: 'relay-a:',
    });
    expect(loadServerConfig(pg).ok && loadServerConfig(pg)).not.toHaveProperty('value.redisUrl');
    const onSqlite = loadServerConfig({ RELAY_REDIS_URL: 'redis://redis.internal' });
    expect(!onSqlite.ok && onSqlite.error.variable).toBe('RELAY_REDIS_URL');
    for (const bad of ['http://redis.internal', 'redis://', 'redis://:hunter22@']) {
      const refused = loadServerConfig({ ...pg, RELAY_REDIS_URL: bad });
      expect(!refused.ok && refused.error.variable).toBe('RELAY_REDIS_URL');
      expect(!refused.ok && formatConfigError(refused.error)).not.toContain('hunter22');
    }
    const prefix = loadServerConfig({
      ...pg,
      RELAY_REDIS_URL: 'redis://redis.internal',
      RELAY_REDIS_PREFIX: 'bad prefix',
    });
    expect(!prefix.ok && prefix.error.variable).toBe('RELAY_REDIS_PREFIX');
  });

  it('treats blank variables as unset', () => {
    const result = loadServerConfig({ RELAY_PORT: ' ', RELAY_ADMIN_TOKEN: '' });
    expect(result.ok && result.value.port).toBe(8787);
    expect(result.ok && result.value.adminToken).toBeUndefined();
  });

  it.each([
    ['RELAY_PORT', 'http'],
    ['RELAY_PORT', '65536'],
    ['RELAY_PORT', '-1'],
    ['RELAY_HOST', 'evil host'],
    ['RELAY_PUBLIC_URL', 'relay.example.com'],
    ['RELAY_PUBLIC_URL', 'https://user:pw@relay.example.com'],
    ['RELAY_ADMIN_TOKEN', 'short-secret'],
    ['RELAY_FORGE_API_URL', 'http://api.github.com'],
    ['RELAY_FORGE_API_URL', 'https://user:pw@api.github.com'],
    ['RELAY_FORGE_API_URL', 'https://api.github.com/?x=1'],
    ['RELAY_FORGE_WEB_URL', 'ftp://github.com'],
    ['RELAY_FORGE_RAW_URL', 'not a url'],
    ['RELAY_FORGE_LOG_HOSTS', 'a b.example'],
    ['RELAY_FORGE_LOG_HOSTS', ','],
    ['RELAY_MEMBERSHIP_TTL_S', '1'],
    ['DEFAULT_ALLOWED_OWNERS', 'ok,not ok'],
    ['DEFAULT_LOGIN_POOL', 'a/b'],
    ['ALLOWED_FORGE_ORG', '-org'],
    ['MAX_RESPONSE_BYTES', '2MiB'],
    ['REQUEST_TIMEOUT_MS', '0'],
    ['RELAY_FORGE_APP_ID', '0'],
    ['RELAY_FORGE_APP_ID', '99999999999999999'],
    ['RELAY_HEADERS_TIMEOUT_MS', '50'],
    ['RELAY_HEADERS_TIMEOUT_MS', '10s'],
    ['RELAY_REQUEST_BODY_TIMEOUT_MS', '0'],
    ['RELAY_REQUEST_BODY_TIMEOUT_MS', '600001'],
    ['RELAY_KEEP_ALIVE_TIMEOUT_MS', '0'],
    ['RELAY_MAX_CONNECTIONS_PER_PEER', '-1'],
    ['RELAY_MAX_CONNECTIONS_PER_PEER', 'many'],
    ['RELAY_MAX_REQUEST_BYTES', '1023'],
    ['RELAY_MAX_REQUEST_BYTES', '16KiB'],
    ['RELAY_VISIBILITY_PROOF_TTL_S', '0'],
    ['RELAY_VISIBILITY_PROOF_TTL_S', '61'],
    ['RELAY_VISIBILITY_PROOF_TTL_S', '1m'],
    ['RELAY_MAX_CALLER_CONCURRENCY', '-1'],
    ['RELAY_MAX_CALLER_CONCURRENCY', 'lots'],
    ['RELAY_REWRITE_CHECK_DEADLINE_MS', '5'],
    ['RELAY_METRICS_TOKEN', 'short-scrape'],
    ['RELAY_METRICS_TOKEN', 'a long token with spaces'],
    ['RELAY_LOG_LEVEL', 'verbose'],
    ['RELAY_AUDIT_WRITER', 'thread'],
    ['RELAY_DATABASE_URL', 'mysql://root@localhost/relay'],
    ['RELAY_DATABASE_URL', 'postgres://secret-user:hunter22@db.example.com'],
    ['RELAY_DATABASE_URL', 'file:relay.db'],
    ['RELAY_DATABASE_SCHEMA', 'Relay-Schema'],
  ])('rejects %s=%j, naming the variable but not the value', (variable, value) => {
    const result = loadServerConfig({ [variable]: value });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.variable).toBe(variable);
    expect(formatConfigError(result.error)).toBe(
      `invalid configuration: ${variable} must be ${result.error.expected}`,
    );
    if (value.length > 3) expect(result.error.expected).not.toContain(value);
  });
});

describe('heap settings', () => {
  it('sets the runtime V8 flags unless the node command line gives them', () => {
    expect(runtimeV8Flags([])).toEqual(['--heap-growing-percent=50']);
    expect(runtimeV8Flags(['--max-semi-space-size=8', '--enable-source-maps'])).toEqual([
      ...SERVER_RUNTIME_V8_FLAGS,
    ]);
    expect(runtimeV8Flags(['--heap-growing-percent=20'])).toEqual([]);
    expect(runtimeV8Flags(['--heap_growing_percent=20'])).toEqual([]);
  });

  it('starts the relay-server bin and pnpm start with the node flags', () => {
    const flags = SERVER_NODE_FLAGS.join(' ');
    const shebang = readFileSync(new URL('main.ts', import.meta.url), 'utf8').split('\n')[0];
    expect(shebang).toBe(`#!/usr/bin/env -S node ${flags}`);
    const root = JSON.parse(
      readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
    ) as { scripts: Record<string, string> };
    expect(root.scripts.start).toContain(`node ${flags} apps/server/dist/main.js`);
  });
});
