import type { ServerLogger } from '../logging/server-logger.js';
import type { RelayMetrics } from '../metrics/relay-metrics.js';
import type { GovernorEvent } from './upstream-governor.js';

/** Where {@link createGovernorEventSink} sends the governor's events. */
export interface GovernorEventSinkOptions {
  /** The server's logger: one line per pace change. */
  readonly logger?: Pick<ServerLogger, 'warn' | 'info'>;
  /** The relay's metrics: every event counted. */
  readonly metrics?: Pick<RelayMetrics, 'recordGovernorEvent'>;
}

/**
 * The sender as a label or log field: an identity id or token-free source as it is, and
 * `unregistered` for a credential the relay did not hand out (its key is a digest of it).
 *
 * @param key - the governor's key
 */
export function toSenderLabel(key: string): string {
  return key.startsWith('token:') ? 'unregistered' : key;
}

/**
 * The governor's event sink: every event is counted (`relay_governor_events_total`); a pace
 * change is logged once — `governor_pace_slowed` (warn, with the new factor) when a
 * secondary-limit answer halves a sender's pace, `governor_pace_restored` (info) when it is back
 * to full. Queueing and refusals are counted, not logged (a burst would write a line per request).
 *
 * @param options - logger and metrics
 */
export function createGovernorEventSink(
  options: GovernorEventSinkOptions,
): (event: GovernorEvent) => void {
  const { logger, metrics } = options;
  return (event) => {
    const sender = toSenderLabel(event.key);
    metrics?.recordGovernorEvent(event.kind, sender);
    if (event.kind === 'slowed') {
      logger?.warn({ sender, factor: event.factor }, 'governor_pace_slowed');
    } else if (event.kind === 'restored') {
      logger?.info({ sender }, 'governor_pace_restored');
    }
  };
}
