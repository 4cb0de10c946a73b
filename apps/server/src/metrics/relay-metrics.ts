import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * How a relay request (POST /v1/forge/request) was answered, as a metric label:
 * - `cache_hit`: a fresh shared-cache entry, no upstream work;
 * - `stale`: an expired entry served because every eligible lane was unavailable;
 * - `anonymous`: the anonymous forge API (304 validations of an anonymous entry included);
 * - `web`: a public web, raw-content or patch page;
 * - `identity`: a pooled identity (its authenticated 304 refreshes included);
 * - `coalesced`: a duplicate of a miss in flight, answered by that miss's upstream call;
 * - `fallback`: 424 `fallback_local` (the `reason` label says why);
 * - `error`: any other relay error (the `reason` label carries its code);
 * - `none`: an envelope no lane above accounts for.
 */
export type RelayRequestSource =
  | 'cache_hit'
  | 'stale'
  | 'anonymous'
  | 'web'
  | 'identity'
  | 'coalesced'
  | 'fallback'
  | 'error'
  | 'none';

/**
 * The lane of one upstream request: `anonymous` (the API without a credential), `identity` (the
 * API with a pooled credential), or the token-free host it read (`web`, `raw`, `patch`).
 */
export type UpstreamLane = 'anonymous' | 'identity' | 'web' | 'raw' | 'patch';

/**
 * Whether an upstream answer spent forge quota: an authenticated 304 and public pages are free,
 * every other API answer is charged (an anonymous one to the relay address's own quota).
 */
export type UpstreamCharge = 'charged' | 'free';

/** One finished relay request, as the metrics see it (labels only, never values of the request). */
export interface RelayRequestFacts {
  /** The route kind, or `none` when the request was not classified. */
  readonly routeKind: string;
  /** The envelope's upstream status when an envelope was answered, else the relay's status. */
  readonly status: number;
  readonly source: RelayRequestSource;
  /** The fallback reason or error code; empty when the request was answered. */
  readonly reason: string;
  /** A duplicate of a miss in flight. */
  readonly coalesced: boolean;
  /** Seconds from the first byte of the request to its answer. */
  readonly durationSeconds: number;
}

/** The rate budget of one identity and resource bucket, as identity selection assumes it now. */
export interface IdentityRateGauge {
  readonly identity: string;
  readonly bucket: string;
  readonly remaining: number;
  /** Requests per window, when the forge said. */
  readonly limit: number | undefined;
  /** When the window resets, epoch seconds. */
  readonly resetAtSeconds: number;
}

/** Live cooldowns of one identity with one scope kind and cause. */
export interface IdentityCooldownGauge {
  readonly identity: string;
  /** `global`, `bucket` or `route` (never the route key itself). */
  readonly scope: string;
  readonly cause: string;
  readonly count: number;
}

/** One sender of the upstream governor (an identity id or a token-free source). */
export interface GovernorSenderGauge {
  readonly sender: string;
  /** Points spent in the last 60 s. */
  readonly points: number;
  /** Requests in flight. */
  readonly inFlight: number;
  /** The adaptive pace factor (1: full pace; 0.5 right after a secondary-limit answer). */
  readonly factor: number;
}

/**
 * Where the gauges read their values at scrape time; each is optional (absent: the gauge has no
 * sample). A source that throws empties its gauges (an unlabelled gauge then reads 0) and sets
 * `relay_metrics_source_up{source}` to 0.
 */
export interface MetricsGaugeSources {
  /** Identities registered (every pool). */
  readonly countIdentities?: () => Promise<number>;
  /** Observed rate budgets per identity and bucket. */
  readonly rateBudgets?: () => Promise<readonly IdentityRateGauge[]>;
  /** Live cooldowns per identity. */
  readonly cooldowns?: () => Promise<readonly IdentityCooldownGauge[]>;
  /** Entries and stored body bytes of the shared cache (its persistent store). */
  readonly cacheSize?: () => Promise<{ readonly entries: number; readonly bytes: number }>;
  /** Entries and estimated heap bytes of the in-memory cache front. */
  readonly cacheFrontSize?: () => { readonly entries: number; readonly bytes: number };
  /** Audit rows queued or being written. */
  readonly auditBacklog?: () => number;
  /** The upstream governor's senders: points in the window, requests in flight, pace factor. */
  readonly governorSenders?: () => Promise<readonly GovernorSenderGauge[]>;
}

/** Options of {@link createRelayMetrics}. */
export interface RelayMetricsOptions {
  /** The gauges' sources, read at scrape time. */
  readonly sources?: MetricsGaugeSources;
  /**
   * Also collect prom-client's default process and Node.js metrics (`process_*`, `nodejs_*`:
   * CPU, memory, event-loop lag, GC) into this registry. Default false.
   */
  readonly defaultMetrics?: boolean;
}

/**
 * The relay's metrics: one prom-client {@link Registry} per app (never the global default, so
 * several apps in one process keep their own), counters and histograms updated on the request
 * path, and gauges computed at scrape time.
 *
 * Every label value is a route pattern, an HTTP method or status, a route kind, a source, a
 * reason or error code, a lane, a resource bucket or an identity id: never a token, a secret, a
 * path or query value, a caller, a pool or a pattern.
 */
export interface RelayMetrics {
  readonly registry: Registry;
  /** One HTTP request of any endpoint (`route` is the matched route pattern). */
  recordHttpRequest(method: string, route: string, status: number): void;
  /** One relay request (POST /v1/forge/request). */
  recordRelayRequest(facts: RelayRequestFacts): void;
  /**
   * One upstream request of the relay pipeline.
   *
   * @param outcome - the status class (`2xx` … `5xx`) or the transport error code
   */
  recordUpstreamRequest(lane: UpstreamLane, outcome: string, durationSeconds: number): void;
  /** One upstream answer, charged or free, by lane and identity id (`''` for token-free lanes). */
  recordUpstreamAnswer(lane: UpstreamLane, identity: string, charge: UpstreamCharge): void;
  /** One background problem (audit batch failed, audit row dropped, cache write failed, …). */
  recordBackgroundProblem(code: string): void;
  /**
   * One event of the upstream governor (issue 27): a request `queued` for headroom or `refused`
   * (424 `relay_overloaded`), a sender's pace `slowed` after a secondary-limit answer or
   * `restored`. `sender` is an identity id or a token-free source (`anonymous:api`, …).
   */
  recordGovernorEvent(event: 'queued' | 'refused' | 'slowed' | 'restored', sender: string): void;
  /** The Prometheus text exposition of every metric. */
  render(): Promise<string>;
  /** The content type of {@link RelayMetrics.render}'s text. */
  readonly contentType: string;
}

/** Latency buckets of relay answers, seconds: a cache hit is about a millisecond. */
const RELAY_DURATION_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30,
];
/** Latency buckets of upstream requests, seconds (REQUEST_TIMEOUT_MS defaults to 15 s). */
const UPSTREAM_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30];

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The method as a label: one of the standard methods, else `other` (a client chooses the method
 * string, so it is never a label value as sent).
 *
 * @param method - the request method
 */
export function toMethodLabel(method: string): string {
  return KNOWN_METHODS.has(method) ? method : 'other';
}

/**
 * The status class of an upstream answer (`2xx` … `5xx`), for labels.
 *
 * @param status - the HTTP status
 */
export function toStatusClass(status: number): string {
  return status >= 100 && status < 600 ? `${String(Math.floor(status / 100))}xx` : 'other';
}

/**
 * Creates the metrics of one relay app, in a registry of its own.
 *
 * @param options - the gauges' sources and whether to add the default process metrics
 * @example
 * ```ts
 * const metrics = createRelayMetrics({ sources: { auditBacklog: () => audit.backlog() } });
 * metrics.recordHttpRequest('GET', '/.well-known/relay', 200);
 * const text = await metrics.render();
 * ```
 */
export function createRelayMetrics(options: RelayMetricsOptions = {}): RelayMetrics {
  const registry = new Registry();
  const registers = [registry];
  const sources = options.sources ?? {};
  if (options.defaultMetrics === true) collectDefaultMetrics({ register: registry });

  /**
   * A counter for the request path: increments are tallied in a Map (a string key and an
   * addition) and handed to the prom-client counter when a scrape collects it; prom-client
   * validates and hashes the label set at every `inc` (about a microsecond).
   */
  function tallyCounter<L extends string>(config: {
    readonly name: string;
    readonly help: string;
    readonly labelNames: readonly L[];
  }): (labels: Readonly<Record<L, string | number>>) => void {
    const tallies = new Map<string, { labels: Record<L, string | number>; count: number }>();
    const counter: Counter<L> = new Counter<L>({
      ...config,
      registers,
      collect: () => {
        for (const tally of tallies.values()) {
          if (tally.count === 0) continue;
          counter.inc(tally.labels, tally.count);
          tally.count = 0;
        }
      },
    });
    return (labels) => {
      let key = '';
      for (const name of config.labelNames) key += `${String(labels[name])}\u0000`;
      const tally = tallies.get(key);
      if (tally === undefined) tallies.set(key, { labels: { ...labels }, count: 1 });
      else tally.count += 1;
    };
  }

  const countHttpRequest = tallyCounter({
    name: 'relay_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
  });
  const countRelayRequest = tallyCounter({
    name: 'relay_requests_total',
    help: 'Relay requests (POST /v1/forge/request) by route kind, status, source and reason.',
    labelNames: ['route_kind', 'status', 'source', 'reason'],
  });
  const relayDuration = new Histogram({
    name: 'relay_request_duration_seconds',
    help: 'Time to answer a relay request, by source.',
    labelNames: ['source'] as const,
    buckets: RELAY_DURATION_BUCKETS,
    registers,
  });
  const countCoalesced = tallyCounter({
    name: 'relay_coalesced_requests_total',
    help: 'Relay requests answered by the upstream call of an identical miss in flight.',
    labelNames: ['route_kind'],
  });
  const countUpstreamRequest = tallyCounter({
    name: 'relay_upstream_requests_total',
    help: 'Upstream requests of the relay pipeline, by lane and outcome (status class or transport error code).',
    labelNames: ['lane', 'outcome'],
  });
  const upstreamDuration = new Histogram({
    name: 'relay_upstream_request_duration_seconds',
    help: 'Time of one upstream request of the relay pipeline, by lane.',
    labelNames: ['lane'] as const,
    buckets: UPSTREAM_DURATION_BUCKETS,
    registers,
  });
  const countUpstreamAnswer = tallyCounter({
    name: 'relay_upstream_answers_total',
    help: 'Upstream answers by lane, identity id (empty for token-free lanes) and charge (charged: spent forge quota; free: authenticated 304 or public page).',
    labelNames: ['lane', 'identity', 'charge'],
  });
  const countBackgroundProblem = tallyCounter({
    name: 'relay_background_problems_total',
    help: 'Background problems by code (audit_batch_failed, audit_queue_full, audit_retention_failed, cache_write_failed).',
    labelNames: ['code'],
  });

  const countGovernorEvent = tallyCounter({
    name: 'relay_governor_events_total',
    help: 'Upstream governor events by event (queued, refused, slowed, restored) and sender (identity id or token-free source).',
    labelNames: ['event', 'sender'],
  });

  // Gauges are computed at scrape time. prom-client collects every metric of a scrape
  // concurrently, so the gauges fed by one source share one read of it per scrape (`shared`).
  const reads = new Map<string, Promise<unknown>>();
  function shared<T>(name: string, read: () => Promise<T> | T): Promise<T> {
    let pending = reads.get(name) as Promise<T> | undefined;
    if (pending === undefined) {
      pending = Promise.resolve()
        .then(read)
        .finally(() => reads.delete(name));
      reads.set(name, pending);
    }
    return pending;
  }
  const readers = {
    identities: sources.countIdentities,
    rate_budgets: sources.rateBudgets,
    cooldowns: sources.cooldowns,
    cache: sources.cacheSize,
    cache_front: sources.cacheFrontSize,
    audit: sources.auditBacklog,
    governor: sources.governorSenders,
  } as const;
  type SourceName = keyof typeof readers;
  /** Fills `gauge` from a source at scrape time; a source that fails leaves it empty. */
  function gaugeOf<T>(
    source: SourceName,
    read: (() => Promise<T> | T) | undefined,
    fill: (value: T) => void,
  ) {
    return async function collect(this: Gauge) {
      this.reset();
      if (read === undefined) return;
      try {
        fill(await shared(source, read));
      } catch {
        this.reset();
      }
    };
  }

  const sourceUp = new Gauge<'source'>({
    name: 'relay_metrics_source_up',
    help: 'Whether this scrape could read a gauge source (1) or not (0).',
    labelNames: ['source'] as const,
    registers,
    collect: async () => {
      sourceUp.reset();
      await Promise.all(
        Object.entries(readers).map(async ([name, read]) => {
          if (read === undefined) return;
          try {
            await shared<unknown>(name, read);
            sourceUp.set({ source: name }, 1);
          } catch {
            sourceUp.set({ source: name }, 0);
          }
        }),
      );
    },
  });

  const identities = new Gauge({
    name: 'relay_identities',
    help: 'Identities registered, every pool.',
    registers,
    collect: gaugeOf('identities', readers.identities, (count) => {
      identities.set(count);
    }),
  });

  const rateGauge = (
    name: string,
    help: string,
    value: (budget: IdentityRateGauge) => number | undefined,
  ) => {
    const gauge = new Gauge<'identity' | 'bucket'>({
      name,
      help,
      labelNames: ['identity', 'bucket'] as const,
      registers,
      collect: gaugeOf('rate_budgets', readers.rate_budgets, (budgets) => {
        for (const budget of budgets) {
          const sample = value(budget);
          if (sample !== undefined) {
            gauge.set({ identity: budget.identity, bucket: budget.bucket }, sample);
          }
        }
      }),
    });
    return gauge;
  };
  rateGauge(
    'relay_identity_rate_remaining',
    'Requests left per identity and resource bucket, as selection assumes them now (a reset window counts as fresh).',
    (budget) => budget.remaining,
  );
  rateGauge(
    'relay_identity_rate_limit',
    'Requests per window per identity and resource bucket, as the forge last said.',
    (budget) => budget.limit,
  );
  rateGauge(
    'relay_identity_rate_reset_timestamp_seconds',
    'When the observed rate window of an identity and bucket resets, Unix seconds.',
    (budget) => budget.resetAtSeconds,
  );

  const cooldowns = new Gauge<'identity' | 'scope' | 'cause'>({
    name: 'relay_identity_cooldowns',
    help: 'Live cooldowns per identity, by scope kind (global, bucket, route) and cause.',
    labelNames: ['identity', 'scope', 'cause'] as const,
    registers,
    collect: gaugeOf('cooldowns', readers.cooldowns, (entries) => {
      for (const entry of entries) {
        cooldowns.set(
          { identity: entry.identity, scope: entry.scope, cause: entry.cause },
          entry.count,
        );
      }
    }),
  });

  const sizeGauge = (
    name: string,
    help: string,
    source: 'cache' | 'cache_front',
    value: (size: { readonly entries: number; readonly bytes: number }) => number,
  ) => {
    const gauge: Gauge = new Gauge({
      name,
      help,
      registers,
      collect: gaugeOf(source, readers[source], (size) => {
        gauge.set(value(size));
      }),
    });
  };
  sizeGauge(
    'relay_cache_entries',
    'Entries of the shared cache (persistent store).',
    'cache',
    (s) => s.entries,
  );
  sizeGauge(
    'relay_cache_bytes',
    'Stored body bytes of the shared cache (persistent store).',
    'cache',
    (s) => s.bytes,
  );
  sizeGauge(
    'relay_cache_front_entries',
    'Entries held by the in-memory cache front.',
    'cache_front',
    (s) => s.entries,
  );
  sizeGauge(
    'relay_cache_front_bytes',
    'Estimated heap bytes held by the in-memory cache front.',
    'cache_front',
    (s) => s.bytes,
  );

  const auditPending: Gauge = new Gauge({
    name: 'relay_audit_pending_rows',
    help: 'Audit rows queued or being written (the audit queue depth).',
    registers,
    collect: gaugeOf('audit', readers.audit, (rows) => {
      auditPending.set(rows);
    }),
  });

  const governorGauge = (
    name: string,
    help: string,
    value: (sender: GovernorSenderGauge) => number,
  ) => {
    const gauge = new Gauge<'sender'>({
      name,
      help,
      labelNames: ['sender'] as const,
      registers,
      collect: gaugeOf('governor', readers.governor, (senders) => {
        for (const sender of senders) gauge.set({ sender: sender.sender }, value(sender));
      }),
    });
    return gauge;
  };
  governorGauge(
    'relay_governor_points_last_minute',
    'Upstream points each sender of the governor spent in the last 60 s.',
    (sender) => sender.points,
  );
  governorGauge(
    'relay_governor_in_flight',
    'Upstream requests in flight per sender of the governor.',
    (sender) => sender.inFlight,
  );
  governorGauge(
    'relay_governor_pace_factor',
    'The adaptive pace factor per sender of the governor (1: full pace; halved after a secondary-limit answer).',
    (sender) => sender.factor,
  );

  return {
    registry,
    recordHttpRequest(method, route, status) {
      countHttpRequest({ method: toMethodLabel(method), route, status });
    },
    recordRelayRequest(facts) {
      countRelayRequest({
        route_kind: facts.routeKind,
        status: facts.status,
        source: facts.source,
        reason: facts.reason,
      });
      relayDuration.observe({ source: facts.source }, facts.durationSeconds);
      if (facts.coalesced) countCoalesced({ route_kind: facts.routeKind });
    },
    recordUpstreamRequest(lane, outcome, durationSeconds) {
      countUpstreamRequest({ lane, outcome });
      upstreamDuration.observe({ lane }, durationSeconds);
    },
    recordUpstreamAnswer(lane, identity, charge) {
      countUpstreamAnswer({ lane, identity, charge });
    },
    recordBackgroundProblem(code) {
      countBackgroundProblem({ code });
    },
    recordGovernorEvent(event, sender) {
      countGovernorEvent({ event, sender });
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
