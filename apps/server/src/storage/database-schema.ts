/**
 * The tables of the relay's database, as Kysely sees them. Times are ISO 8601 UTC text
 * (`Date#toISOString`, fixed width, so they sort and compare as text on every dialect).
 */
export interface DatabaseSchema {
  relay_meta: {
    key: string;
    value: string;
    updated_at: string;
  };
  /** A pool; `policy_json` is the stored policy text, kept verbatim (never repaired). */
  pools: {
    id: string;
    policy_json: string;
    created_at: string;
  };
  /** A caller, bound to an immutable forge user id (null only on historical rows). */
  callers: {
    id: string;
    /** bigint: PostgreSQL drivers return it as text. */
    forge_user_id: number | string | null;
    login: string;
    role: string;
    disabled: number;
    org_identity_verified_at: string | null;
    created_at: string;
    updated_at: string;
  };
  caller_grants: {
    caller_id: string;
    pool_id: string;
    created_at: string;
  };
  /** A named client of a caller; its token is stored as its SHA-256 only. */
  caller_clients: {
    id: string;
    caller_id: string;
    name: string;
    token_sha256: string;
    expires_at: string;
    created_at: string;
    updated_at: string;
    last_used_at: string | null;
  };
  identities: {
    id: string;
    pool_id: string;
    kind: string;
    login: string;
    secret_ref: string;
    /** bigint: PostgreSQL drivers return it as text. */
    installation_id: number | string | null;
    weight: number;
    active: number;
    created_at: string;
    updated_at: string;
  };
  identity_scopes: {
    identity_id: string;
    position: number;
    owner: string;
    repo: string | null;
    allow_private: number;
  };
  /** The single deployment-wide string-rewrite policy row (`id` 1). */
  string_rewrite_policy: {
    id: number;
    schema_version: number;
    /** bigint: PostgreSQL drivers return it as text. */
    revision: number | string;
    updated_at: string;
    rules_json: string;
  };
  /** One row per validated relay request (SPEC.md "Audit record"). */
  audit: {
    request_id: string;
    occurred_at: string;
    pool_id: string;
    caller_id: string;
    client_id: string | null;
    route_key: string | null;
    route_kind: string | null;
    identity_id: string | null;
    status: number;
    error_code: string | null;
    fallback_reason: string | null;
    backend: string | null;
    cache_result: string | null;
    cacheable: number;
    coalesced: number;
    duration_ms: number;
  };
  /**
   * Daily pool figures, kept with the audit rows so that a 30-day stats query reads a few
   * thousand rollup rows instead of a million audit rows. '' stands for an absent value.
   */
  audit_daily: {
    pool_id: string;
    day: string;
    route_kind: string;
    backend: string;
    fallback_reason: string;
    requests: number;
    service_errors: number;
    local_fallbacks: number;
    hits: number;
    eligible: number;
    eligible_hits: number;
    coalesced: number;
  };
  /** Daily requests per caller of a pool. */
  audit_daily_callers: {
    pool_id: string;
    day: string;
    caller_id: string;
    requests: number;
  };
  /** Shared cache entries of the SQLite CacheStore. */
  cache_entries: {
    cache_key: string;
    entry_json: string;
    /** bigint: PostgreSQL drivers return it as text. */
    bytes: number | string;
    /** The repository of the entry (`owner/repo`, lowercase), or null. */
    scope: string | null;
  };
}
