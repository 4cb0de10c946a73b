/**
 * The answers of the relay's caller endpoints the dashboard reads (apps/server README,
 * "Endpoints"), as far as the dashboard uses them.
 */

/** GET /v1/pools/:pool/health. */
export interface PoolHealthAnswer {
  readonly pool: string;
  readonly identities_total: number;
  readonly identities_healthy: number;
  readonly identities_cooling_down: number;
  readonly string_rewrite_revision: number | null;
  readonly pool_policy: {
    readonly allowed_owners: readonly string[];
    readonly allow_public_repos: boolean;
    readonly allow_search: boolean;
    readonly allow_logs: boolean;
  } | null;
}

/** GET /v1/pools/:pool/stats. */
export interface PoolStatsAnswer {
  readonly window: string;
  readonly requests: number;
  readonly service_errors: number;
  readonly local_fallbacks: number;
  readonly cache_hit_rate: number | null;
  readonly eligible_cache_hit_rate: number | null;
  readonly cache_entries: number;
  readonly top_route_kinds: readonly { readonly route_kind: string; readonly requests: number }[];
  readonly fallback_reasons: Readonly<Record<string, number>>;
}

/** One bucket of GET /v1/pools/:pool/stats/timeseries. */
export interface TimeseriesPointAnswer {
  readonly start: string;
  readonly requests: number;
  readonly hits: number;
  readonly hit_rate: number | null;
  readonly free: number;
  readonly paid: number;
  readonly local_fallbacks: number;
  readonly service_errors: number;
}

/** GET /v1/pools/:pool/stats/timeseries. */
export interface StatsTimeseriesAnswer {
  readonly window: string;
  readonly bucket: string;
  readonly buckets: readonly TimeseriesPointAnswer[];
}

/** One identity of GET /v1/pools/:pool/identities. */
export interface IdentityStatusAnswer {
  readonly id: string;
  readonly kind: string;
  readonly weight: number;
  readonly rate_limits: readonly {
    readonly bucket: string;
    readonly remaining: number;
    readonly limit: number | null;
    readonly reset_at: string;
    readonly exhausted: boolean;
  }[];
  readonly cooldowns: readonly {
    readonly scope: string;
    readonly bucket?: string;
    readonly cause: string;
    readonly until: string;
  }[];
}

/** GET /v1/pools/:pool/identities. */
export interface PoolIdentitiesAnswer {
  readonly identities: readonly IdentityStatusAnswer[];
}

/** GET /v1/pools/:pool/denials. */
export interface PoolDenialsAnswer {
  readonly denials: readonly {
    readonly request_id: string;
    readonly occurred_at: string;
    readonly status: number;
    readonly error_code: string;
    readonly fallback_reason: string | null;
    readonly route_kind: string | null;
  }[];
}

/** Everything one refresh of the dashboard reads. */
export interface DashboardData {
  readonly health: PoolHealthAnswer;
  readonly identities: PoolIdentitiesAnswer;
  readonly stats: PoolStatsAnswer;
  readonly timeseries: StatsTimeseriesAnswer;
  readonly denials: PoolDenialsAnswer;
}
