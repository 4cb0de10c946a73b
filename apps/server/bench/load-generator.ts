/**
 * autocannon as a separate process (so the load generator never shares the event loop of the
 * server it measures), with its JSON result reduced to the figures the benchmarks report.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

/** One load run's figures. */
export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly total: number;
  /** Responses other than 2xx, plus errors and timeouts: must be 0 for a valid run. */
  readonly failures: number;
}

/** Options of {@link runLoad}. */
export interface LoadOptions {
  readonly url: string;
  readonly body: string;
  readonly headers: Record<string, string>;
  readonly connections: number;
  readonly durationS: number;
}

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/** Runs autocannon (POST, pipelining 1) and parses its `--json` output. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const args = [
    AUTOCANNON,
    '-c',
    String(options.connections),
    '-d',
    String(options.durationS),
    '-m',
    'POST',
    '-b',
    options.body,
    '-j',
    '-n',
  ];
  for (const [name, value] of Object.entries(options.headers)) args.push('-H', `${name}=${value}`);
  args.push(options.url);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${String(code)}`);
  const json = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  };
  return {
    requestsPerSecond: json.requests.average,
    p50Ms: json.latency.p50,
    p99Ms: json.latency.p99,
    total: json.requests.total,
    failures: json.non2xx + json.errors + json.timeouts,
  };
}
