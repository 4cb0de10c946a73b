import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CredentialRegistry,
  type AppRecord,
  type InstallationRecord,
  type PatRecord,
} from './auth/credential-registry.js';
import { createApiHost } from './hosts/api-host.js';
import { createLogHost, createRawHost, createWebHost } from './hosts/content-hosts.js';
import type { SimHostHandler } from './hosts/host-types.js';
import { LogSigner } from './hosts/log-signer.js';
import { FaultInjector } from './http/fault-injector.js';
import { startHttpShell, type RunningServer } from './http/http-shell.js';
import {
  GITHUB_RATE_LIMITS,
  RateLimiter,
  type RateLimitTable,
  type RateResource,
} from './http/rate-limiter.js';
import { RequestLog, type SimHost } from './http/request-log.js';
import {
  GITHUB_SECONDARY_LIMITS,
  SecondaryLimiter,
  type SecondaryLimits,
} from './http/secondary-limiter.js';
import { ExampleTemplates } from './render/example-templates.js';
import type { SimUrls } from './render/sim-urls.js';
import { ForgeWorld } from './world/forge-world.js';
import { createSimClock, type SimClock } from './world/sim-clock.js';

/** Options of {@link createForgeSim}. */
export interface ForgeSimOptions {
  /** Time source. Default: a clock following the wall clock that `advance` can push forward. */
  readonly clock?: SimClock;
  /** Primary rate limits per caller kind and bucket. Default: GitHub's published limits. */
  readonly rateLimits?: RateLimitTable;
  /** How long repository statistics take to compute after the first request. Default 1000 ms. */
  readonly statsDelayMs?: number;
  /** Waits used by latency and drip faults. Default: real timers. */
  readonly delay?: (ms: number) => Promise<void>;
  /** Source of random bytes for token secrets. Default: crypto.randomBytes. */
  readonly randomBytes?: (n: number) => Uint8Array;
  /**
   * Uniform draws in [0, 1) for faults injected with a `probability`. Default `Math.random`;
   * pass `createSeededRandom(seed)` for a repeatable run.
   */
  readonly random?: () => number;
  /**
   * Model GitHub's secondary limits on the API host (per credential: requests in flight and
   * points in a sliding minute, answered with the secondary-limit 403 and a Retry-After).
   * Off by default; `true` uses {@link GITHUB_SECONDARY_LIMITS} (100 concurrent, 900 a minute).
   */
  readonly secondaryLimits?: boolean | SecondaryLimits;
}

/** Control over credentials: PATs, apps and installations. */
export interface ForgeSimTokens {
  /** Registers a PAT for `login`; returns the record (`token` is the secret, `id` the log label). */
  addPat(input: { login: string; scopes?: readonly string[]; token?: string }): PatRecord;
  /** Revokes a PAT or installation token (later requests: 401 Bad credentials). */
  revoke(token: string): void;
  /** Issues an installation token without the JWT exchange. */
  issueInstallationToken(installationId: number): { token: string; expiresAt: number; id: string };
}

/** Control over GitHub Apps. */
export interface ForgeSimApps {
  /** Registers an app and the SPKI PEM public key its RS256 JWTs are verified with. */
  addApp(input: { id: number; publicKeyPem: string; slug?: string }): AppRecord;
  /** Installs an app on an account (all repositories, or the named ones). */
  addInstallation(input: {
    id: number;
    appId: number;
    account: string;
    repositories?: readonly string[] | 'all';
  }): InstallationRecord;
}

/** Control over rate limits. */
export interface ForgeSimRateLimits {
  /** Sets a credential's budget use (by PAT login, installation id or anonymous address). */
  setUsed(who: RateSubject, resource: RateResource, used: number): void;
  /** Uses up a whole bucket. */
  exhaust(who: RateSubject, resource?: RateResource): void;
  /** Forgets every bucket. */
  reset(): void;
}

/** Whose budget: a PAT user, an installation or an anonymous client address. */
export type RateSubject =
  { readonly login: string } | { readonly installationId: number } | { readonly anonymous: string };

/** A running simulator. */
export interface ForgeSim {
  /** Base URLs of the four hosts (http://127.0.0.1:PORT). */
  readonly urls: SimUrls;
  /** The seedable world. */
  readonly world: ForgeWorld;
  readonly tokens: ForgeSimTokens;
  readonly apps: ForgeSimApps;
  readonly rateLimits: ForgeSimRateLimits;
  /** Fault switches. */
  readonly faults: FaultInjector;
  /** Every request served, in order. */
  readonly requests: RequestLog;
  /** The simulator's time. */
  readonly clock: SimClock;
  /** Stops every server. */
  close(): Promise<void>;
}

/**
 * Starts a simulated GitHub on loopback: an API host, a web host (HTML, .patch, .diff),
 * a raw-content host and a signed log-download host, each on an ephemeral port of
 * 127.0.0.1, sharing one seedable world.
 *
 * @example
 * const sim = await createForgeSim();
 * sim.world.addRepo({ owner: 'octo', name: 'hello', private: false });
 * const { token } = sim.tokens.addPat({ login: 'octo' });
 * const res = await fetch(`${sim.urls.api}/repos/octo/hello`, { headers: { authorization: `token ${token}` } });
 * await sim.close();
 */
export async function createForgeSim(options: ForgeSimOptions = {}): Promise<ForgeSim> {
  const clock = options.clock ?? createSimClock();
  const now = (): number => clock.now();
  const world = new ForgeWorld(clock);
  const credentials = new CredentialRegistry({
    clock,
    ...(options.randomBytes ? { randomBytes: options.randomBytes } : {}),
  });
  const rateLimiter = new RateLimiter(now, options.rateLimits ?? GITHUB_RATE_LIMITS);
  const secondaryOption = options.secondaryLimits ?? false;
  const secondary =
    secondaryOption === false
      ? undefined
      : new SecondaryLimiter(
          now,
          secondaryOption === true ? GITHUB_SECONDARY_LIMITS : secondaryOption,
        );
  const faults = new FaultInjector(options.random ? { random: options.random } : {});
  const requests = new RequestLog();
  const logSigner = new LogSigner(randomBytes(32), now);
  const delay = options.delay ?? ((ms: number) => sleep(ms));

  const slots = new Map<SimHost, SimHostHandler>();
  const late = (host: SimHost): SimHostHandler => ({
    handle: (req) => {
      const h = slots.get(host);
      if (!h) throw new Error('simulator not ready');
      return h.handle(req);
    },
    injected: (req, action) => {
      const h = slots.get(host);
      if (!h) throw new Error('simulator not ready');
      return h.injected(req, action);
    },
  });
  const servers: RunningServer[] = [];
  const start = async (host: SimHost): Promise<string> => {
    const server = await startHttpShell({
      host,
      handler: late(host),
      faults,
      log: requests,
      now,
      describeCredential: (auth) => credentials.describe(auth),
      delay,
      ...(host === 'api' && secondary !== undefined ? { secondary } : {}),
    });
    servers.push(server);
    return server.url;
  };
  const urls: SimUrls = {
    api: await start('api'),
    web: await start('web'),
    raw: await start('raw'),
    log: await start('log'),
  };
  const templates = new ExampleTemplates(urls);
  const contentDeps = { world, urls, templates, clock, logSigner };
  slots.set(
    'api',
    createApiHost({
      world,
      credentials,
      rateLimiter,
      urls,
      templates,
      clock,
      logSigner,
      statsDelayMs: options.statsDelayMs ?? 1000,
    }),
  );
  slots.set('web', createWebHost(contentDeps));
  slots.set('raw', createRawHost(contentDeps));
  slots.set('log', createLogHost(contentDeps));

  const principalOf = (who: RateSubject): Parameters<RateLimiter['setUsed']>[0] =>
    'login' in who
      ? { kind: 'pat', id: 'control', login: who.login, scopes: [] }
      : 'installationId' in who
        ? {
            kind: 'installation',
            id: 'control',
            installationId: who.installationId,
            account: '',
            repositories: 'all',
            expiresAt: 0,
          }
        : { kind: 'anonymous', client: who.anonymous };

  return {
    urls,
    world,
    clock,
    faults,
    requests,
    tokens: {
      addPat: (input) => credentials.addPat(input),
      revoke: (token) => {
        credentials.revoke(token);
      },
      issueInstallationToken: (id) => credentials.issueInstallationToken(id),
    },
    apps: {
      addApp: (input) => credentials.addApp(input),
      addInstallation: (input) => credentials.addInstallation(input),
    },
    rateLimits: {
      setUsed: (who, resource, used) => {
        rateLimiter.setUsed(principalOf(who), resource, used);
      },
      exhaust: (who, resource = 'core') => {
        const p = principalOf(who);
        rateLimiter.setUsed(p, resource, rateLimiter.peek(p, resource).limit);
      },
      reset: () => {
        rateLimiter.reset();
      },
    },
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}
