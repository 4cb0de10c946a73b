import { DISCOVERY_PATH, DISCOVERY_VERSION, type DiscoveryDocument } from '@relay/protocol';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';

/** What the discovery document is built from. */
export interface DiscoveryOptions {
  /** The relay's public base URL (api_base and app_base). */
  readonly publicUrl: () => string;
  readonly defaultPool: string;
  readonly allowedOrg: string | undefined;
  readonly minCliVersion: string;
}

/** Builds the discovery document. */
export function createDiscoveryDocument(options: DiscoveryOptions): DiscoveryDocument {
  const base = options.publicUrl();
  return {
    service: 'relay',
    version: DISCOVERY_VERSION,
    api_base: base,
    app_base: base,
    default_pool: options.defaultPool,
    allowed_org: options.allowedOrg ?? '',
    auth: { cli_forge_token: options.allowedOrg !== undefined, web_login: false },
    min_cli_version: options.minCliVersion,
  };
}

/** GET /.well-known/relay: no authentication. */
export function createDiscoveryRoute(options: DiscoveryOptions): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  route.get(DISCOVERY_PATH, (c) => c.json(createDiscoveryDocument(options)));
  return route;
}
