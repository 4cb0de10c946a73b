/** The simulated host that served a request. */
export type SimHost = 'api' | 'web' | 'raw' | 'log';

/** One served request, as tests assert against it. */
export interface LoggedRequest {
  /** Order of arrival, from 1. */
  readonly seq: number;
  /** Sim-clock time of arrival (epoch ms). */
  readonly at: number;
  readonly method: string;
  readonly host: SimHost;
  /** Path without query. */
  readonly path: string;
  /** Query string without `?` ('' when none). */
  readonly query: string;
  /**
   * Which credential was presented: `anonymous`, a credential id (`pat-1`,
   * `inst-42-3`), `jwt`, `invalid` or `unknown-<hash>`. Never the secret.
   */
  readonly credential: string;
  /** Response status (0 when the connection was reset). */
  readonly status: number;
  /** The fault applied, if any. */
  readonly fault: string | undefined;
  /** x-ratelimit-resource charged, if any. */
  readonly rateResource: string | undefined;
}

/** Filter of {@link RequestLog.find}. */
export type RequestFilter = Partial<
  Pick<LoggedRequest, 'method' | 'host' | 'path' | 'credential' | 'status'>
> & {
  readonly pathPrefix?: string;
};

/** Every request the simulator served, in order. */
export class RequestLog {
  readonly #entries: LoggedRequest[] = [];

  /** Appends an entry (the servers call this). */
  record(entry: Omit<LoggedRequest, 'seq'>): LoggedRequest {
    const full = { ...entry, seq: this.#entries.length + 1 };
    this.#entries.push(full);
    return full;
  }

  /** All entries so far. */
  get entries(): readonly LoggedRequest[] {
    return this.#entries;
  }

  /** Entries matching every given field (`pathPrefix` matches the start of the path). */
  find(filter: RequestFilter = {}): LoggedRequest[] {
    return this.#entries.filter(
      (e) =>
        (filter.method === undefined || e.method === filter.method) &&
        (filter.host === undefined || e.host === filter.host) &&
        (filter.path === undefined || e.path === filter.path) &&
        (filter.pathPrefix === undefined || e.path.startsWith(filter.pathPrefix)) &&
        (filter.credential === undefined || e.credential === filter.credential) &&
        (filter.status === undefined || e.status === filter.status),
    );
  }

  /** Number of entries matching the filter. */
  count(filter: RequestFilter = {}): number {
    return this.find(filter).length;
  }

  /** Forgets every entry (sequence numbers restart). */
  clear(): void {
    this.#entries.length = 0;
  }
}
