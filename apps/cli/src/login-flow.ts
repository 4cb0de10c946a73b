import {
  DISCOVERY_PATH,
  defaultClientName,
  getDiscoveryDocumentSchema,
  getLoginResponseSchema,
  normalizeClientName,
} from '@relay/protocol';
import type { DiscoveryDocument } from '@relay/protocol';
import { resolveConfigDir, writeSavedLogin } from './auth-store.js';
import type { SavedLogin } from './auth-store.js';
import { canonicalUrl, hasUrlExtras, invalidPoolError, isPoolId } from './caller-auth.js';
import type { CliDependencies, CliEnv } from './cli-dependencies.js';
import { CliError } from './cli-error.js';
import { readNativeToken } from './native-token-reader.js';
import { joinUrl, sendRelayRequest, toReplyError, unreachableError } from './relay-http.js';
import { CLI_VERSION } from './version.js';

/** What `relay login` was given. */
export interface LoginOptions {
  /** The server (positional, `--server` or the older `--url`). */
  readonly server: string | undefined;
  readonly pool: string | undefined;
  /** An explicit client name (normalized, never truncated). */
  readonly client: string | undefined;
  /** Accept a discovery api_base on another host. */
  readonly trustDiscoveryRedirect: boolean;
}

const LOOPBACK = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/i;

/** Whether a URL's host is a loopback host. */
export function isLoopbackHost(url: URL): boolean {
  return LOOPBACK.test(url.hostname);
}

/**
 * Checks a login URL (client rule 1): https, or http for loopback hosts or under
 * RELAY_ALLOW_INSECURE_LOGIN=1; no credentials, query or fragment.
 *
 * @throws CliError `insecure_url` or `usage_error`
 */
export function checkLoginUrl(raw: string, env: CliEnv): URL {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    throw new CliError('usage_error', { message: 'The server is not a URL.' });
  }
  if (hasUrlExtras(url)) {
    throw new CliError('usage_error', {
      message: 'The server URL must not carry credentials, a query or a fragment.',
    });
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && (isLoopbackHost(url) || env.RELAY_ALLOW_INSECURE_LOGIN === '1')) {
    return url;
  }
  throw new CliError('insecure_url');
}

/**
 * Checks discovery's api_base with the login URL rules. The server chose it, not the command
 * line: what is malformed in it is a `relay_protocol_error` (exit 1), not a usage error;
 * `insecure_url` stays as it is.
 */
function checkApiBase(raw: string, env: CliEnv): URL {
  try {
    return checkLoginUrl(raw, env);
  } catch (error) {
    if (error instanceof CliError && error.code === 'usage_error') {
      throw new CliError('relay_protocol_error', {
        message:
          "Discovery's api_base is not a relay URL (it carries credentials, a query or a fragment, or does not parse).",
      });
    }
    throw error;
  }
}

function compareVersions(a: string, b: string): number {
  const parse = (v: string) => v.split('-')[0]?.split('.').map(Number) ?? [];
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i += 1) {
    const diff = (x[i] ?? 0) - (y[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

async function fetchDiscovery(deps: CliDependencies, server: URL): Promise<DiscoveryDocument> {
  const reply = await sendRelayRequest(deps.fetch, {
    method: 'GET',
    url: joinUrl(server.href, DISCOVERY_PATH),
    redirects: 'follow',
  });
  if (reply.kind === 'unreachable') throw unreachableError(reply.url);
  const parsed =
    reply.kind === 'ok' ? getDiscoveryDocumentSchema().safeParse(reply.json) : undefined;
  if (parsed?.success !== true) {
    throw new CliError('relay_protocol_error', {
      message: 'The server did not answer with a relay discovery document (service "relay").',
    });
  }
  return parsed.data;
}

/**
 * `relay login` (client rules 1 and 3, the login row): reads the local forge token, verifies
 * discovery, exchanges the token at api_base (same-origin redirects only) and saves
 * `auth.json` with mode 0600.
 *
 * @returns the saved login
 * @throws CliError `usage_error`, `insecure_url`, `native_token_missing`, `relay_unreachable`,
 *   `relay_protocol_error`, `redirect_refused`, `client_name_ambiguous` and the server's codes
 */
export async function performLogin(
  deps: CliDependencies,
  options: LoginOptions,
): Promise<SavedLogin> {
  const rawServer = options.server ?? deps.env.RELAY_URL?.trim();
  if (rawServer === undefined || rawServer === '') {
    throw new CliError('usage_error', { message: 'Which relay? Pass the server URL.' });
  }
  const server = checkLoginUrl(rawServer, deps.env);
  if (options.pool !== undefined && !isPoolId(options.pool)) throw invalidPoolError();
  let client: string;
  if (options.client === undefined) {
    client = defaultClientName(deps.hostname());
  } else {
    const normalized = normalizeClientName(options.client);
    if (!normalized.ok) {
      throw new CliError('usage_error', {
        message: `The client name is invalid (${normalized.error.cause}).`,
      });
    }
    client = normalized.value;
  }
  const { token: forgeToken } = await readNativeToken(deps);

  const discovery = await fetchDiscovery(deps, server);
  const apiBase = checkApiBase(discovery.api_base, deps.env);
  // A downgrade is refused whatever the flags say (client rule 1: neither override bypasses
  // it): `URL.host` leaves out the default port, so https://relay and http://relay would
  // otherwise count as the same host, and the forge token would travel in clear text.
  if (server.protocol === 'https:' && apiBase.protocol !== 'https:') {
    throw new CliError('redirect_refused', {
      message: 'Discovery points from https to plain http; the downgrade was refused.',
    });
  }
  if (apiBase.host !== server.host && !options.trustDiscoveryRedirect) {
    throw new CliError('redirect_refused', {
      message: `Discovery points to another host (${apiBase.host}); pass --trust-discovery-redirect to accept it.`,
    });
  }
  if (compareVersions(CLI_VERSION, discovery.min_cli_version) < 0) {
    throw new CliError('relay_protocol_error', {
      message: `This relay needs relay ${discovery.min_cli_version} or newer (this is ${CLI_VERSION}).`,
    });
  }
  const pool = options.pool ?? discovery.default_pool;
  const apiUrl = canonicalUrl(apiBase.href) ?? apiBase.href;
  const reply = await sendRelayRequest(deps.fetch, {
    method: 'POST',
    url: joinUrl(apiUrl, '/v1/login/forge-cli'),
    body: { forge_token: forgeToken, client, pool },
    redirects: 'same-origin',
  });
  if (reply.kind !== 'ok') throw toReplyError(reply);
  const response = getLoginResponseSchema().safeParse(reply.json);
  if (!response.success) {
    throw new CliError('relay_protocol_error', {
      message: 'The relay answered the login with an unexpected body.',
    });
  }
  const saved: SavedLogin = {
    url: apiUrl,
    pool: response.data.pool,
    token: response.data.token,
    login: response.data.login,
    client: response.data.client,
    timestamp: new Date(deps.now()).toISOString(),
  };
  await writeSavedLogin(resolveConfigDir(deps.env, deps.homeDir), saved, deps.now);
  return saved;
}
