import { formatWatchHeader, renderChecksTable, sortChecksTable } from '../export/checks-export.js';
import type { CheckAggregate, CheckCounts, CheckRow } from '../export/checks-export.js';

/**
 * `pr checks --watch` on the relay (SPEC.md client rules 8 and 10): gh v2.60's non-TTY watch
 * loop (the header and table per refresh while checks are pending, the last table printed
 * twice), polled no more often than every 30 s and backing off to 120 s while nothing
 * changes; a state that would end the watch is confirmed by re-reading every page with
 * `cache-control: max-age=0` first.
 */

/** The shortest wait between polls (rule 10), whatever `--interval` asks. */
export const WATCH_FLOOR_MS = 30_000;
/** The longest wait the back-off reaches (a longer `--interval` is kept as asked). */
export const WATCH_CEILING_MS = 120_000;

/** The first wait: the asked interval, floored at {@link WATCH_FLOOR_MS}. */
export function firstWatchDelay(intervalSeconds: number): number {
  return Math.max(intervalSeconds * 1000, WATCH_FLOOR_MS);
}

/**
 * The next wait: back to the first wait when the checks changed, else doubled up to
 * {@link WATCH_CEILING_MS} (never below the first wait).
 */
export function nextWatchDelay(
  previousMs: number,
  intervalSeconds: number,
  changed: boolean,
): number {
  const first = firstWatchDelay(intervalSeconds);
  if (changed) return first;
  return Math.max(first, Math.min(previousMs * 2, WATCH_CEILING_MS));
}

/** What the watch loop needs: gh's flags, the clock, stdout, and the relay. */
export interface WatchOptions {
  /** `--interval` in seconds (gh's default 10), as gh prints it in the header. */
  readonly intervalSeconds: number;
  /** `--fail-fast`: stop at the first failure. */
  readonly failFast: boolean;
  /** Waits between polls (a fake clock in tests). */
  readonly sleep: (ms: number) => Promise<void>;
  /** Writes to stdout as the watch goes. */
  readonly write: (text: string) => void;
  /**
   * One acquisition of the checks (`fresh`: every read with `max-age=0`).
   *
   * @throws CliError when the relay fails or cannot serve the checks (no gh mid-watch)
   */
  readonly observe: (fresh: boolean) => Promise<CheckAggregate>;
}

/** Whether gh's loop would end on these counts. */
function isTerminal(counts: CheckCounts, failFast: boolean): boolean {
  return counts.pending === 0 || (failFast && counts.failed > 0);
}

function tableOf(rows: readonly CheckRow[]): { readonly rows: CheckRow[]; readonly text: string } {
  const sorted = [...rows];
  sortChecksTable(sorted);
  return { rows: sorted, text: renderChecksTable(sorted) };
}

/**
 * Runs gh's watch loop from a first acquisition; resolves the last counts (gh's exit code
 * comes from them). Output goes through {@link WatchOptions.write} as it happens.
 *
 * @throws CliError from {@link WatchOptions.observe}
 */
export async function watchChecks(
  first: CheckAggregate,
  options: WatchOptions,
): Promise<CheckCounts> {
  const confirm = async (state: CheckAggregate): Promise<CheckAggregate> =>
    isTerminal(state.counts, options.failFast) ? options.observe(true) : state;
  let state = await confirm(first);
  let delay = firstWatchDelay(options.intervalSeconds);
  for (;;) {
    const table = tableOf(state.rows);
    if (state.counts.pending !== 0) options.write(formatWatchHeader(options.intervalSeconds));
    options.write(table.text);
    if (isTerminal(state.counts, options.failFast)) {
      // gh prints the final table again after leaving the loop, sorting the sorted rows.
      sortChecksTable(table.rows);
      options.write(renderChecksTable(table.rows));
      return state.counts;
    }
    await options.sleep(delay);
    const next = await confirm(await options.observe(false));
    delay = nextWatchDelay(delay, options.intervalSeconds, tableOf(next.rows).text !== table.text);
    state = next;
  }
}
