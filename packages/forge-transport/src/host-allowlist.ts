import { err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';

/** The forge hosts the relay reads from, each configured by a base URL (DESIGN.md §3). */
export const FORGE_HOST_KINDS = ['api', 'web', 'raw', 'patch'] as const;
/** A configured forge host: the API, public web pages, raw content, or patch/diff pages. */
export type ForgeHostKind = (typeof FORGE_HOST_KINDS)[number];

/** RELAY_FORGE_API_URL's default. */
export const DEFAULT_FORGE_API_URL = 'https://api.github.com';
/** RELAY_FORGE_WEB_URL's default. */
export const DEFAULT_FORGE_WEB_URL = 'https://github.com';
/** RELAY_FORGE_RAW_URL's default. */
export const DEFAULT_FORGE_RAW_URL = 'https://raw.githubusercontent.com';
/** Where the forge's web host redirects `.diff` and `.patch` pages. */
export const DEFAULT_FORGE_PATCH_URL = 'https://patch-diff.githubusercontent.com';
/**
 * RELAY_FORGE_LOG_HOSTS's default: the host suffixes of GitHub's signed job-log downloads
 * (`*.actions.githubusercontent.com`, and the results storage on `*.blob.core.windows.net`).
 */
export const DEFAULT_FORGE_LOG_HOSTS: readonly string[] = [
  'actions.githubusercontent.com',
  'blob.core.windows.net',
];

/** The forge host configuration, as the server reads it from the environment. */
export interface ForgeHostsOptions {
  /** Forge API base. Default {@link DEFAULT_FORGE_API_URL}. */
  readonly apiUrl?: string;
  /** Public web base (also `.diff`/`.patch` pages). Default {@link DEFAULT_FORGE_WEB_URL}. */
  readonly webUrl?: string;
  /** Raw content base. Default {@link DEFAULT_FORGE_RAW_URL}. */
  readonly rawUrl?: string;
  /** Patch/diff base the web host redirects to. Default {@link DEFAULT_FORGE_PATCH_URL}. */
  readonly patchUrl?: string;
  /**
   * Host suffixes allowed as job-log redirect targets, matched on the canonical hostname
   * exactly or as a dot-suffix. Default {@link DEFAULT_FORGE_LOG_HOSTS}.
   */
  readonly logHosts?: readonly string[];
}

/** One validated base URL. Immutable. */
export interface ForgeBase {
  /** Canonical origin: scheme, canonical hostname and port. */
  readonly origin: string;
  /** Canonical hostname: lowercase, IP forms normalised, no trailing dot. */
  readonly hostname: string;
  /** The base path without a trailing slash (`''` for a bare origin, `/api/v3` for GHES). */
  readonly basePath: string;
}

/** The validated host allowlist. Immutable. */
export interface ForgeHosts {
  /** The base of each configured host. */
  readonly bases: Readonly<Record<ForgeHostKind, ForgeBase>>;
  /** Canonical log host suffixes. */
  readonly logHosts: readonly string[];
}

/** Why a host configuration is unusable. */
export type ForgeHostsErrorCode =
  | 'invalid_url'
  | 'unsupported_scheme'
  | 'insecure_scheme'
  | 'userinfo_not_allowed'
  | 'query_or_fragment_not_allowed'
  | 'invalid_log_host';

/** A host configuration error; `setting` names the option, never echoes its value. */
export interface ForgeHostsError {
  readonly code: ForgeHostsErrorCode;
  readonly setting: ForgeHostKind | 'logHosts';
}

/**
 * Canonicalises a hostname as the WHATWG URL parser leaves it (lowercase, IPv4 forms such as
 * `0x7f.1` or `2130706433` already rewritten to dotted decimal): strips one trailing dot.
 *
 * @param hostname - a `URL.hostname`
 * @returns the canonical hostname, or undefined when nothing usable remains
 */
export function canonicalizeHostname(hostname: string): string | undefined {
  const stripped = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (stripped === '' || stripped.endsWith('.') || stripped.startsWith('.')) return undefined;
  return stripped.toLowerCase();
}

const IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/**
 * Whether a canonical hostname is an IP literal (dotted IPv4 or bracketed IPv6).
 *
 * @param hostname - a canonical hostname
 */
export function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || IPV4.test(hostname);
}

/**
 * Whether a canonical hostname is a loopback host: `localhost`, `127.0.0.0/8` or `[::1]`.
 * Only these may be reached over plain `http://` (tests, the demo).
 *
 * @param hostname - a canonical hostname
 */
export function isLoopbackHostname(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * Whether a canonical hostname is an allowlisted log host: equal to a suffix, or ending with
 * `.` + suffix. IP literals match only exactly.
 *
 * @param hostname - a canonical hostname
 * @param logHosts - canonical suffixes
 */
export function matchesLogHost(hostname: string, logHosts: readonly string[]): boolean {
  return logHosts.some(
    (suffix) =>
      hostname === suffix ||
      (!isIpLiteral(hostname) && !isIpLiteral(suffix) && hostname.endsWith(`.${suffix}`)),
  );
}

/**
 * Whether a URL may be followed as a job-log download target (DESIGN.md §3). A real log host is
 * reached over https on its default port only (an explicit `:443` is the default), and its
 * canonical hostname must equal a log host or end with `.` + one. The one exception is a loopback
 * log host (tests, the demo, forge-sim): when the target's hostname is loopback and is itself
 * one of the configured log hosts, exactly, it is followed over http or https on the port the
 * forge announced. Userinfo is never allowed.
 *
 * @param url - the redirect target, as {@link parseCanonicalUrl} returns it
 * @param logHosts - canonical log host suffixes ({@link ForgeHosts.logHosts})
 * @returns whether the target is an allowed log download
 */
export function isAllowedLogTarget(url: URL, logHosts: readonly string[]): boolean {
  if (url.username !== '' || url.password !== '') return false;
  const hostname = canonicalizeHostname(url.hostname);
  if (hostname === undefined) return false;
  if (isLoopbackHostname(hostname)) {
    return (url.protocol === 'http:' || url.protocol === 'https:') && logHosts.includes(hostname);
  }
  return url.protocol === 'https:' && url.port === '' && matchesLogHost(hostname, logHosts);
}

function hasControlOrBackslash(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}

/**
 * Parses an absolute URL and canonicalises its host, refusing userinfo, schemes other than
 * https, and http to anything but a loopback host.
 *
 * @param value - an absolute URL, or a reference resolved against `base`
 * @param base - the URL a relative reference is resolved against
 * @returns the canonical URL, or the reason it is refused
 */
export function parseCanonicalUrl(
  value: string,
  base?: URL,
): Result<URL, Exclude<ForgeHostsErrorCode, 'invalid_log_host' | 'query_or_fragment_not_allowed'>> {
  if (hasControlOrBackslash(value)) return err('invalid_url');
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return err('invalid_url');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return err('unsupported_scheme');
  if (url.username !== '' || url.password !== '') return err('userinfo_not_allowed');
  const hostname = canonicalizeHostname(url.hostname);
  if (hostname === undefined) return err('invalid_url');
  if (url.protocol === 'http:' && !isLoopbackHostname(hostname)) return err('insecure_scheme');
  if (hostname !== url.hostname) url.hostname = hostname;
  return ok(url);
}

function parseBase(value: string, setting: ForgeHostKind): Result<ForgeBase, ForgeHostsError> {
  const parsed = parseCanonicalUrl(value);
  if (!parsed.ok) return err({ code: parsed.error, setting });
  const url = parsed.value;
  if (url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#')) {
    return err({ code: 'query_or_fragment_not_allowed', setting });
  }
  const basePath = url.pathname.replace(/\/+$/u, '');
  return ok({ origin: url.origin, hostname: url.hostname, basePath });
}

function parseLogHost(entry: string): string | undefined {
  const trimmed = entry.trim().replace(/^\./u, '');
  if (!/^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])$/u.test(trimmed)) {
    return undefined;
  }
  try {
    return canonicalizeHostname(new URL(`https://${trimmed}/`).hostname);
  } catch {
    return undefined;
  }
}

/**
 * Validates the forge host configuration into the allowlist the transport enforces.
 *
 * @param options - base URLs and log host suffixes; every field has a default
 * @returns the allowlist, or the first unusable setting
 * @example
 * ```ts
 * const hosts = parseForgeHosts({ apiUrl: process.env.RELAY_FORGE_API_URL });
 * if (!hosts.ok) throw new Error(`bad ${hosts.error.setting}: ${hosts.error.code}`);
 * ```
 */
export function parseForgeHosts(
  options: ForgeHostsOptions = {},
): Result<ForgeHosts, ForgeHostsError> {
  const values: Record<ForgeHostKind, string> = {
    api: options.apiUrl ?? DEFAULT_FORGE_API_URL,
    web: options.webUrl ?? DEFAULT_FORGE_WEB_URL,
    raw: options.rawUrl ?? DEFAULT_FORGE_RAW_URL,
    patch: options.patchUrl ?? DEFAULT_FORGE_PATCH_URL,
  };
  const bases: Partial<Record<ForgeHostKind, ForgeBase>> = {};
  for (const kind of FORGE_HOST_KINDS) {
    const base = parseBase(values[kind], kind);
    if (!base.ok) return base;
    bases[kind] = base.value;
  }
  const logHosts: string[] = [];
  for (const entry of options.logHosts ?? DEFAULT_FORGE_LOG_HOSTS) {
    const host = parseLogHost(entry);
    if (host === undefined) return err({ code: 'invalid_log_host', setting: 'logHosts' });
    if (!logHosts.includes(host)) logHosts.push(host);
  }
  return ok({
    bases: Object.freeze(bases as Record<ForgeHostKind, ForgeBase>),
    logHosts: Object.freeze(logHosts),
  });
}
