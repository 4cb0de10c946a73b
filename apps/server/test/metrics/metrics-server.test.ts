import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEMO,
  createForgeSim,
  createSimClock,
  seedDemoWorld,
  type ForgeSim,
} from '@relay/forge-sim';
import { errorBodySchema, relayEnvelopeSchema } from '@relay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerConfig, startServer, type RunningServer } from '../../src/index.js';
import {
  parseMetricSamples,
  sumOf,
  type MetricSample,
} from '../../src/metrics/__fixtures__/metric-samples.js';
import { demoRelayEnv, enrollAlice, registerAliceIdentity } from '../pipeline/relay-harness.js';

/**
 * GET /metrics of the real relay-server (startServer, loopback socket, SQLite file) against
 * @relay/forge-sim: a miss, a hit, a pooled read and a fallback move the counters; the
 * exposition passes `promtool check metrics`.
 */
const ADMIN = 'admin-token-for-metrics-tests-0123456789';
const METRICS = 'metrics-token-for-metrics-tests-0123';
let sim: ForgeSim;
let server: RunningServer;
let dir: string;
let callerToken: string;
let patSecret: string;
const secrets = new Map<string, string>();

/** The path of promtool (Debian package `prometheus`), when installed. */
const PROMTOOL = (() => {
  const found = spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path !== '' ? path : undefined;
})();

beforeAll(async () => {
  const clock = createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') });
  sim = await createForgeSim({ clock });
  seedDemoWorld(sim.world);
  dir = mkdtempSync(join(tmpdir(), 'relay-metrics-'));
  const config = loadServerConfig({
    RELAY_PORT: '0',
    RELAY_DATABASE: join(dir, 'relay.db'),
    RELAY_ADMIN_TOKEN: ADMIN,
    RELAY_METRICS_TOKEN: METRICS,
    ...demoRelayEnv(sim, 'team'),
  });
  if (!config.ok) throw new Error('invalid test configuration');
  server = await startServer(config.value, {
    now: () => clock.now(),
    readSecret: (name) => Promise.resolve(secrets.get(name)),
  });
  callerToken = await enrollAlice(server.database, clock.now(), 'team');
  patSecret = sim.tokens.addPat({ login: DEMO.users.alice }).token;
  secrets.set('alice_pat', patSecret);
  await registerAliceIdentity(server.url, ADMIN, 'team');
});
afterAll(async () => {
  await server.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const relay = (body: Record<string, unknown>) =>
  fetch(`${server.url}/v1/forge/request`, {
    method: 'POST',
    headers: { authorization: `Bearer ${callerToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ pool: 'team', method: 'GET', ...body }),
  });

const scrape = (headers: Record<string, string> = { authorization: `Bearer ${METRICS}` }) =>
  fetch(`${server.url}/metrics`, { headers });

describe('GET /metrics against the simulated forge', () => {
  let before: MetricSample[];
  let text: string;
  let samples: MetricSample[];

  beforeAll(async () => {
    before = parseMetricSamples(await (await scrape()).text());
    const path = `/repos/${DEMO.org}/${DEMO.publicRepo}/issues`;
    const miss = relayEnvelopeSchema.parse(await (await relay({ path })).json());
    expect(miss.relay).toMatchObject({ cache: 'miss', backend: 'forge_public' });
    const hit = relayEnvelopeSchema.parse(await (await relay({ path })).json());
    expect(hit.relay.cache).toBe('hit');
    const pooled = relayEnvelopeSchema.parse(await (await relay({ path: '/rate_limit' })).json());
    expect(pooled.identity).toEqual({ id: 'alice', kind: 'pat' });
    const fallback = await relay({ path: '/search/issues', query: { q: 'private-words' } });
    expect(fallback.status).toBe(424);
    expect(errorBodySchema.parse(await fallback.json()).error.reason).toBe('search_denied');
    const response = await scrape();
    expect(response.status).toBe(200);
    text = await response.text();
    samples = parseMetricSamples(text);
  });

  const moved = (name: string, labels: Record<string, string> = {}) =>
    sumOf(samples, name, labels) - sumOf(before, name, labels);

  it('counts the miss, the hit, the pooled read and the fallback by route kind, status and source', () => {
    expect(
      moved('relay_requests_total', {
        route_kind: 'issue_list',
        status: '200',
        source: 'anonymous',
      }),
    ).toBe(1);
    expect(
      moved('relay_requests_total', {
        route_kind: 'issue_list',
        status: '200',
        source: 'cache_hit',
      }),
    ).toBe(1);
    expect(moved('relay_requests_total', { route_kind: 'rate_limit', source: 'identity' })).toBe(1);
    expect(
      moved('relay_requests_total', { status: '424', source: 'fallback', reason: 'search_denied' }),
    ).toBe(1);
    expect(moved('relay_request_duration_seconds_count')).toBe(4);
    expect(
      moved('relay_http_requests_total', {
        method: 'POST',
        route: '/v1/forge/request',
        status: '200',
      }),
    ).toBe(3);
  });

  it('counts upstream requests and charged answers by lane and identity, with their latency', () => {
    expect(moved('relay_upstream_requests_total', { lane: 'anonymous' })).toBeGreaterThanOrEqual(1);
    expect(moved('relay_upstream_requests_total', { lane: 'identity', outcome: '2xx' })).toBe(1);
    expect(
      moved('relay_upstream_answers_total', {
        lane: 'identity',
        identity: 'alice',
        charge: 'charged',
      }),
    ).toBe(1);
    expect(
      moved('relay_upstream_answers_total', { lane: 'anonymous', charge: 'charged' }),
    ).toBeGreaterThanOrEqual(1);
    expect(moved('relay_upstream_request_duration_seconds_count')).toBe(
      moved('relay_upstream_requests_total'),
    );
  });

  it('computes the gauges at scrape time: quota, identities, cache, audit queue', () => {
    expect(sumOf(samples, 'relay_identities')).toBe(1);
    expect(
      samples.some(
        (s) =>
          s.name === 'relay_identity_rate_remaining' &&
          s.labels.identity === 'alice' &&
          s.labels.bucket === 'core',
      ),
    ).toBe(true);
    expect(sumOf(samples, 'relay_cache_entries')).toBeGreaterThanOrEqual(1);
    expect(sumOf(samples, 'relay_cache_bytes')).toBeGreaterThan(0);
    expect(samples.some((s) => s.name === 'relay_audit_pending_rows')).toBe(true);
    expect(sumOf(samples, 'relay_metrics_source_up')).toBe(
      samples.filter((s) => s.name === 'relay_metrics_source_up').length,
    );
    expect(text).toContain('process_cpu_seconds_total');
  });

  it('labels nothing with a token, a secret, a path or query value, a caller or a pool', () => {
    for (const value of [
      callerToken,
      ADMIN,
      METRICS,
      patSecret,
      'alice_pat',
      DEMO.publicRepo,
      'private-words',
      'laptop',
      'team',
    ]) {
      expect(text).not.toContain(value);
    }
  });

  it('refuses a scrape without the metrics token, and leaks nothing', async () => {
    for (const headers of [
      {},
      { authorization: `Bearer ${ADMIN}` },
      { authorization: `Bearer ${callerToken}` },
    ]) {
      const refused = await scrape(headers);
      expect(refused.status).toBe(401);
      const body = await refused.text();
      expect(errorBodySchema.parse(JSON.parse(body)).error.code).toBe('unauthorized');
      expect(body).not.toContain('relay_');
      expect(body).not.toContain('alice');
    }
  });

  const promtool = (input: string) => {
    const checked = spawnSync(PROMTOOL ?? 'promtool', ['check', 'metrics'], {
      input,
      encoding: 'utf8',
    });
    const problems = (checked.stdout + checked.stderr).split('\n').filter((line) => line !== '');
    return { status: checked.status, problems };
  };

  it.skipIf(PROMTOOL === undefined)(
    PROMTOOL === undefined
      ? 'passes promtool check metrics — SKIPPED: promtool is not on PATH (apt-get install prometheus)'
      : 'passes promtool check metrics: the relay_* families lint clean, the whole exposition parses',
    () => {
      // The relay's own families, strictly: parsed and linted without a single remark.
      const own = text
        .split('\n')
        .filter((line) => /^(# (HELP|TYPE) )?relay_/.test(line))
        .join('\n');
      expect(promtool(`${own}\n`)).toEqual({ status: 0, problems: [] });
      // The whole exposition parses (exit 3 is lint remarks only). prom-client's default
      // collectors name three gauges nodejs_active_*_total, which promtool's linter remarks on;
      // nothing else may be remarked on.
      const whole = promtool(text);
      expect([0, 3]).toContain(whole.status);
      for (const problem of whole.problems) {
        expect(problem).toMatch(
          /^nodejs_active_\w+_total non-counter metrics should not have "_total" suffix$/,
        );
      }
    },
  );
});
