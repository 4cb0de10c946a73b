import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createForgeTransport } from '@relay/forge-transport';
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { createApp } from '../create-app.js';
import { createServerServices, type ServerServicesOptions } from '../create-server-services.js';
import type { AccessLogEntry } from '../http/access-log.js';
import type { ServerServices, ServerSettings } from '../server-services.js';
import { openSqliteDatabase, type RelayDatabase } from '../storage/sqlite-database.js';
import { startForgeStub, type ForgeStub } from './forge-stub.js';

/** The admin token of test apps. */
export const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';
/** The organization of test apps. */
export const ORG = 'octo-org';
/** A fixed start time: 2030-01-01T00:00:00Z. */
export const T0 = Date.UTC(2030, 0, 1);

/** A test app over a temporary SQLite file, a fake clock and the stub forge. */
export interface TestHarness {
  readonly app: Hono<AppEnv>;
  readonly services: ServerServices;
  readonly database: RelayDatabase;
  readonly forge: ForgeStub;
  readonly logs: AccessLogEntry[];
  readonly unexpected: unknown[];
  /** The fake clock, epoch milliseconds; advance it with `clock.now += ms`. */
  readonly clock: { now: number };
  close(): Promise<void>;
}

/** Options of {@link createTestHarness}. */
export interface TestHarnessOptions {
  readonly settings?: Partial<ServerSettings>;
  readonly services?: Partial<Omit<ServerServicesOptions, 'settings' | 'transport'>>;
}

/** Builds a {@link TestHarness}; every test closes it. */
export async function createTestHarness(options: TestHarnessOptions = {}): Promise<TestHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-server-'));
  const clock = { now: T0 };
  const forge = await startForgeStub();
  const database = await openSqliteDatabase(join(dir, 'relay.db'), {
    now: () => new Date(clock.now),
  });
  const transport = createForgeTransport({ hosts: { apiUrl: forge.url } });
  let seed = 0;
  let ids = 0;
  const services = createServerServices(database, {
    settings: {
      adminToken: ADMIN_TOKEN,
      membershipTtlS: 3600,
      defaultLoginPool: 'default',
      allowedForgeOrg: ORG,
      defaultAllowedOwners: ['octo-org'],
      ...options.settings,
    },
    transport,
    now: () => clock.now,
    randomBytes: (n) => {
      seed++;
      return Uint8Array.from({ length: n }, (_, i) => (seed * 31 + i * 7) % 256);
    },
    createId: (prefix) => `${prefix}_${String(++ids)}`,
    ...options.services,
  });
  const logs: AccessLogEntry[] = [];
  const unexpected: unknown[] = [];
  let requests = 0;
  const app = createApp({
    discovery: {
      publicUrl: () => 'http://relay.test',
      defaultPool: 'default',
      allowedOrg: ORG,
      minCliVersion: '0.1.0',
    },
    services,
    createRequestId: () => `req-${String(++requests)}`,
    onUnexpectedError: (error) => unexpected.push(error),
    onLog: (entry) => logs.push(entry),
    elapsed: () => clock.now,
  });
  return {
    app,
    services,
    database,
    forge,
    logs,
    unexpected,
    clock,
    async close() {
      await transport.close();
      await forge.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A JSON request init. */
export function jsonRequest(
  method: string,
  body: unknown,
  token?: string,
): { method: string; headers: Record<string, string>; body: string } {
  return {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

/** Headers carrying a bearer token. */
export function bearer(token: string): { headers: Record<string, string> } {
  return { headers: { authorization: `Bearer ${token}` } };
}

/** Registers a forge account with its token, an active member of {@link ORG} unless told. */
export function addForgeAccount(
  forge: ForgeStub,
  account: { id: number; login: string; token: string; membership?: 'active' | 'pending' | 'none' },
): void {
  forge.tokens.set(account.token, { id: account.id, login: account.login });
  const membership = account.membership ?? 'active';
  if (membership !== 'none')
    forge.memberships.set(`${ORG}/${account.login}`.toLowerCase(), membership);
}

/** Logs in through POST /v1/login/forge-cli and returns the response. */
export function login(
  harness: TestHarness,
  forgeToken: string,
  client: string,
  pool?: string,
): Promise<Response> {
  return Promise.resolve(
    harness.app.request(
      '/v1/login/forge-cli',
      jsonRequest('POST', {
        forge_token: forgeToken,
        client,
        ...(pool === undefined ? {} : { pool }),
      }),
    ),
  );
}
