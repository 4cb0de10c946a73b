import type { DashboardData } from './relay-answers.js';

/** Why a read failed: the token was refused, the pool is not granted, or anything else. */
export type RelayReadFailure = 'unauthorized' | 'pool_forbidden' | 'unavailable';

/** A failed read of the caller endpoints. */
export class RelayReadError extends Error {
  readonly code: RelayReadFailure;

  constructor(code: RelayReadFailure, status: number) {
    super(`relay read failed: ${code} (HTTP ${String(status)})`);
    this.name = 'RelayReadError';
    this.code = code;
  }
}

/** The windows the dashboard offers, and the bucket width of each. */
export const WINDOW_BUCKETS = {
  '1h': '5m',
  '24h': '1h',
  '7d': '6h',
  '30d': '1d',
} as const;

/** A window the dashboard offers. */
export type DashboardWindow = keyof typeof WINDOW_BUCKETS;

/** Whether `value` is a window the dashboard offers. */
export function isDashboardWindow(value: string): value is DashboardWindow {
  return Object.hasOwn(WINDOW_BUCKETS, value);
}

/** What one refresh needs: the relay's base (the page's own origin), pool, token and window. */
export interface DashboardReadOptions {
  /** The URL the API paths resolve against: the dashboard page's own URL. */
  readonly base: string;
  readonly pool: string;
  readonly token: string;
  readonly window: DashboardWindow;
  /** The fetch to use; default the global one. */
  readonly fetch?: typeof fetch;
}

/**
 * The URLs of one refresh, relative to the dashboard page (served at `<relay>/dashboard/`): the
 * token never enters a URL.
 */
export function toDashboardUrls(
  base: string,
  pool: string,
  window: DashboardWindow,
): Record<keyof DashboardData, string> {
  const root = new URL('../', base);
  const at = (path: string, query: Record<string, string> = {}) => {
    const url = new URL(`v1/pools/${encodeURIComponent(pool)}/${path}`, root);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    return url.href;
  };
  return {
    health: at('health'),
    identities: at('identities'),
    stats: at('stats', { window }),
    timeseries: at('stats/timeseries', { window, bucket: WINDOW_BUCKETS[window] }),
    denials: at('denials', { window, limit: '50' }),
  };
}

/**
 * Reads every panel's data with the caller token (`Authorization: Bearer`), in parallel. The
 * token goes in the header only, with `credentials: 'omit'` (no cookie) and no referrer.
 *
 * @throws RelayReadError - `unauthorized` (401), `pool_forbidden` (403) or `unavailable`
 */
export async function readDashboardData(options: DashboardReadOptions): Promise<DashboardData> {
  const fetchFn = options.fetch ?? fetch;
  const urls = toDashboardUrls(options.base, options.pool, options.window);
  const read = async <T>(url: string): Promise<T> => {
    let response: Response;
    try {
      response = await fetchFn(url, {
        headers: { authorization: `Bearer ${options.token}`, accept: 'application/json' },
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
        cache: 'no-store',
      });
    } catch {
      throw new RelayReadError('unavailable', 0);
    }
    if (response.status === 401) throw new RelayReadError('unauthorized', 401);
    if (response.status === 403) throw new RelayReadError('pool_forbidden', 403);
    if (!response.ok) throw new RelayReadError('unavailable', response.status);
    return (await response.json()) as T;
  };
  const [health, identities, stats, timeseries, denials] = await Promise.all([
    read<DashboardData['health']>(urls.health),
    read<DashboardData['identities']>(urls.identities),
    read<DashboardData['stats']>(urls.stats),
    read<DashboardData['timeseries']>(urls.timeseries),
    read<DashboardData['denials']>(urls.denials),
  ]);
  return { health, identities, stats, timeseries, denials };
}
