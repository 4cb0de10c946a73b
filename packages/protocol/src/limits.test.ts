import { describe, expect, it } from 'vitest';
import * as limits from './limits.js';

describe('limits', () => {
  it.each([
    ['DEFAULT_MAX_RESPONSE_BYTES', 2_097_152],
    ['HOSTED_MAX_RESPONSE_BYTES', 4_194_304],
    ['DEFAULT_REQUEST_TIMEOUT_MS', 15_000],
    ['LEASE_TTL_MS', 10_000],
    ['COOLDOWN_MS', 120_000],
    ['APP_TOKEN_REFRESH_MARGIN_MS', 60_000],
    ['POOL_POLICY_CACHE_MS', 30_000],
    ['AUDIT_RETENTION_MS', 2_592_000_000],
    ['STATS_WINDOW_MAX_MS', 2_592_000_000],
    ['CALLER_CLIENTS_MAX', 16],
    ['CLIENT_NAME_MAX_LENGTH', 80],
    ['JOB_LOG_CACHE_MS', 604_800_000],
    ['JOB_LOG_ZERO_CONTACT_MS', 3_600_000],
    ['OPEN_PR_CACHE_MS', 120_000],
    ['PR_FILES_CACHE_MS', 300_000],
    ['REWRITE_RULES_MAX', 128],
    ['REWRITE_PATTERN_MAX_BYTES', 256],
    ['REWRITE_REPLACEMENT_MAX_BYTES', 1024],
    ['REWRITE_DOCUMENT_MAX_BYTES', 65_536],
    ['REWRITE_INPUT_MAX_BYTES', 1_048_576],
    ['POLICY_FETCH_TIMEOUT_MS', 5_000],
    ['PAGINATED_READ_MAX_PAGES', 10],
    ['PAGE_SIZE_MAX', 100],
    ['WATCH_POLL_FLOOR_MS', 30_000],
    ['WATCH_POLL_MAX_MS', 120_000],
    ['RELAY_RETRIES_DEFAULT', 2],
    ['HEADER_LINE_MAX_BYTES', 4096],
    ['HEADER_BLOCK_MAX_BYTES', 32_768],
    ['CONTENT_BUDGET_BYTES', 1_048_576],
    ['RUN_LIST_PAGE_SIZE_DEFAULT', 20],
    ['RUN_LIST_PAGE_SIZE_MAX', 100],
    ['UNKNOWN_RATE_BUDGET', 5000],
    ['DEFAULT_IDENTITY_WEIGHT', 100],
    ['DEFAULT_MEMBERSHIP_TTL_S', 2_592_000],
  ] as const)('%s is %i', (name, value) => {
    expect(limits[name]).toBe(value);
  });

  it('waits 1 s then 3 s between client retries', () => {
    expect(limits.RELAY_RETRY_DELAYS_MS).toEqual([1000, 3000]);
  });
});
