/**
 * The Limits table of SPEC.md, and the defaults DESIGN.md §3 fixes, as named constants.
 * Durations are in milliseconds unless the name says otherwise; sizes are in bytes.
 */

const SECOND_MS = 1_000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Default cap on upstream bytes of one route response (MAX_RESPONSE_BYTES), 2 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
/** The hosted deployment's cap on upstream bytes of one route response, 4 MiB. */
export const HOSTED_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** Default upstream request timeout (REQUEST_TIMEOUT_MS), 15 s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 15 * SECOND_MS;
/** Lifetime of a route-to-identity lease, 10 s. */
export const LEASE_TTL_MS = 10 * SECOND_MS;
/** Default identity cooldown after health feedback or a credential failure, 120 s. */
export const COOLDOWN_MS = 120 * SECOND_MS;
/** An installation token is refreshed this long before it expires. */
export const APP_TOKEN_REFRESH_MARGIN_MS = 60 * SECOND_MS;
/** How long a valid stored pool policy may be reused after a database edit. */
export const POOL_POLICY_CACHE_MS = 30 * SECOND_MS;
/** Audit rows older than this are deleted. */
export const AUDIT_RETENTION_MS = 30 * DAY_MS;
/** Interval of the audit maintenance task. */
export const AUDIT_MAINTENANCE_INTERVAL_MS = HOUR_MS;
/** The longest stats window. */
export const STATS_WINDOW_MAX_MS = 30 * DAY_MS;
/** Named clients per caller; adding one more retires the least recently updated. */
export const CALLER_CLIENTS_MAX = 16;
/** Client name length after normalization. */
export const CLIENT_NAME_MIN_LENGTH = 1;
export const CLIENT_NAME_MAX_LENGTH = 80;
/** Lifetime of a cached job log (only after the owning run completed). */
export const JOB_LOG_CACHE_MS = 7 * DAY_MS;
/** Longest time a cached job log is served before an authenticated existence probe. */
export const JOB_LOG_ZERO_CONTACT_MS = HOUR_MS;
/** Freshness of an open pull request read. */
export const OPEN_PR_CACHE_MS = 2 * MINUTE_MS;
/** Freshness of a state-scoped PR file page for a known head. */
export const PR_FILES_CACHE_MS = 5 * MINUTE_MS;
/** String-rewrite rules in one policy. */
export const REWRITE_RULES_MAX = 128;
/** UTF-8 bytes of one rewrite pattern. */
export const REWRITE_PATTERN_MAX_BYTES = 256;
/** UTF-8 bytes of one rewrite replacement. */
export const REWRITE_REPLACEMENT_MAX_BYTES = 1024;
/** Bytes of one policy document or API body (a GET envelope included). */
export const REWRITE_DOCUMENT_MAX_BYTES = 65_536;
/** Bytes of one materialized, intermediate or final rewrite input. */
export const REWRITE_INPUT_MAX_BYTES = 1_048_576;
/** RE2's limit on a repetition count. */
export const REWRITE_REPEAT_MAX = 1000;
/** Client deadline for fetching the string-rewrite policy. */
export const POLICY_FETCH_TIMEOUT_MS = 5 * SECOND_MS;
/** Paginated relay reads: pages, and items per page. */
export const PAGINATED_READ_MAX_PAGES = 10;
export const PAGE_SIZE_MAX = 100;
/** Watch polling: floor, and the backoff ceiling. */
export const WATCH_POLL_FLOOR_MS = 30 * SECOND_MS;
export const WATCH_POLL_MAX_MS = 120 * SECOND_MS;
/** Client retries of transient relay failures, and the waits between them. */
export const RELAY_RETRIES_DEFAULT = 2;
export const RELAY_RETRY_DELAYS_MS: readonly number[] = [1 * SECOND_MS, 3 * SECOND_MS];
/** Merge-diagnostics header parsing: one line, and the whole block. */
export const HEADER_LINE_MAX_BYTES = 4 * 1024;
export const HEADER_BLOCK_MAX_BYTES = 32 * 1024;
/** Text budget of protected client content. */
export const CONTENT_BUDGET_BYTES = 1024 * 1024;
/** Unfiltered run-list page size: default and maximum. */
export const RUN_LIST_PAGE_SIZE_DEFAULT = 20;
export const RUN_LIST_PAGE_SIZE_MAX = 100;
/** A rate budget that was never observed is assumed to be a fresh one of this size. */
export const UNKNOWN_RATE_BUDGET = 5000;
/** Default selection weight of an identity. */
export const DEFAULT_IDENTITY_WEIGHT = 100;
/** Default caller token lifetime (RELAY_MEMBERSHIP_TTL_S), 30 days, in seconds. */
export const DEFAULT_MEMBERSHIP_TTL_S = 30 * 24 * 60 * 60;
/** Version of the discovery document, the relay API path prefix and the policy schema. */
export const DISCOVERY_VERSION = 1;
export const API_PREFIX = '/v1';
export const STRING_REWRITE_SCHEMA_VERSION = 1;
/** A secret binding name: 1-128 characters of `[A-Za-z0-9_.-]`. */
export const SECRET_REF_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
