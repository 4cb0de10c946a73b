/**
 * A/B of the hit envelope's encoding (issue 23, item 1), in one process, interleaved round by
 * round: what a hit pays to turn its envelope into the bytes written to the socket.
 *
 * - `string` (before): the answer's JSON kept as a string with the cache entry, the request's
 *   fields appended; @hono/node-server then measures it (`Buffer.byteLength`) and the socket
 *   write encodes it to UTF-8 (modelled by `Buffer.from`).
 * - `bytes` (`encodeEnvelope`): the answer's UTF-8 bytes kept with the cache entry, the request's
 *   fields encoded and copied after them.
 * - `envelope`: building the envelope alone (the part both arms share).
 * - baseline: `Buffer.from` of the same bytes as a constant string (what the bare Hono endpoint
 *   of the hit benchmark pays for its fixed body).
 *
 * The body is forge-sim's issue 1, the one the hit benchmark reads. A micro-measurement: it
 * leaves out everything else a hit does; the hit benchmark measures the whole request.
 *
 * Run: node --conditions=@relay/source --import tsx bench/envelope-encode.bench.ts
 */
import {
  buildEnvelope,
  encodeEnvelope,
  type EnvelopeAnswer,
} from '../src/pipeline/envelope-builder.js';
import type { RelayEnvelope } from '@relay/protocol';
import { BENCH_ORG, startBenchSim } from './bench-world.js';
import { QUICK, median, reportResult, round } from './bench-report.js';

const ROUNDS = QUICK ? 3 : 9;
const OPS = QUICK ? 20_000 : 100_000;

const { sim } = await startBenchSim({ rateLimits: 'unlimited', repos: 1, issuesPerRepo: 3 });
let source: EnvelopeAnswer;
try {
  const response = await fetch(`${sim.urls.api}/repos/${BENCH_ORG}/repo-0/issues/1`);
  const headers: Record<string, string> = {};
  for (const name of ['content-type', 'etag', 'last-modified', 'x-github-media-type']) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  source = { status: response.status, headers, body: await response.json(), bodyEncoding: 'json' };
} finally {
  await sim.close();
}

/** The previous implementation: the answer's JSON string kept per source. */
const previousPrefixes = new WeakMap<object, string>();
function serializePrevious(envelope: RelayEnvelope, answerSource: object): string {
  let prefix = previousPrefixes.get(answerSource);
  if (prefix === undefined) {
    prefix = `{"status":${JSON.stringify(envelope.status)},"headers":${JSON.stringify(envelope.headers)},"body":${JSON.stringify(envelope.body)},"body_encoding":${JSON.stringify(envelope.body_encoding)}`;
    previousPrefixes.set(answerSource, prefix);
  }
  return `${prefix},"identity":${JSON.stringify(envelope.identity)},"relay":${JSON.stringify(envelope.relay)}}`;
}

let n = 0;
const envelopeOf = () =>
  buildEnvelope(source, {
    pool: 'bench',
    requestId: `req_0198c1c2-7f3a-7000-8000-${String(100_000_000_000 + (n++ % 1000))}`,
    routeKind: 'issue_view',
    cacheable: true,
    cache: 'hit',
  });
const fixed = JSON.stringify(envelopeOf());
let sink = 0;

const arms = {
  envelope: () => {
    sink += envelopeOf().status;
  },
  baseline: () => {
    sink += Buffer.byteLength(fixed) + Buffer.from(fixed).length;
  },
  string: () => {
    const text = serializePrevious(envelopeOf(), source);
    sink += Buffer.byteLength(text) + Buffer.from(text).length;
  },
  bytes: () => {
    sink += encodeEnvelope(envelopeOf(), source).length;
  },
} as const;
type Arm = keyof typeof arms;

const timings: Record<Arm, number[]> = { envelope: [], baseline: [], string: [], bytes: [] };
for (const arm of Object.keys(arms) as Arm[]) for (let i = 0; i < OPS / 10; i++) arms[arm]();
for (let r = 0; r < ROUNDS; r++) {
  for (const arm of Object.keys(arms) as Arm[]) {
    const run = arms[arm];
    const start = process.hrtime.bigint();
    for (let i = 0; i < OPS; i++) run();
    timings[arm].push(Number(process.hrtime.bigint() - start) / OPS);
  }
}
const ns = (arm: Arm) => round(median(timings[arm]), 0);
reportResult('envelope-encode', {
  body_bytes: Buffer.byteLength(fixed),
  rounds: ROUNDS,
  ops_per_round: OPS,
  ns_per_hit: {
    envelope_only: ns('envelope'),
    baseline: ns('baseline'),
    string: ns('string'),
    bytes: ns('bytes'),
  },
  encoding_ns_beyond_envelope: {
    string: ns('string') - ns('envelope'),
    bytes: ns('bytes') - ns('envelope'),
  },
  ratio_to_baseline: {
    string: round(ns('string') / ns('baseline'), 2),
    bytes: round(ns('bytes') / ns('baseline'), 2),
  },
  bytes_vs_string: round(ns('bytes') / ns('string'), 2),
  sink: sink > 0,
});
