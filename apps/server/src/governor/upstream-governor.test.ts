import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFakeScheduler } from './__fixtures__/fake-scheduler.js';
import { PACE_RECOVERY_MS, PACE_WINDOW_MS } from './pace-ledger.js';
import {
  DEFAULT_PACE_LIMITS,
  GOVERNOR_CLAIM_TTL_MS,
  createUpstreamGovernor,
  isSecondaryLimitAnswer,
  type GovernorEvent,
  type GovernorPermit,
} from './upstream-governor.js';

const OK_ANSWER = {
  status: 200,
  remaining: 4000,
  limit: 5000,
  resource: 'core',
  retryAfter: false,
};

describe('createUpstreamGovernor', () => {
  it('defaults to 80 % of GitHub’s documented secondary limits', () => {
    expect(DEFAULT_PACE_LIMITS).toEqual({ maxInFlight: 80, pointsPerMinute: 720 });
  });

  it('admits at once with headroom, queues without, and refuses after the wait', async () => {
    const clock = createFakeScheduler();
    const events: GovernorEvent[] = [];
    const governor = createUpstreamGovernor({
      limits: { maxInFlight: 10, pointsPerMinute: 2 },
      maxWaitMs: 1000,
      now: clock.now,
      schedule: clock.schedule,
      onEvent: (event) => events.push(event),
    });
    expect((await governor.admit('id1', 'c')).ok).toBe(true);
    expect((await governor.admit('id1', 'c')).ok).toBe(true);
    const third = governor.admit('id1', 'c');
    await clock.advance(999);
    let settled = false;
    void third.then(() => (settled = true));
    await clock.settle();
    expect(settled).toBe(false);
    await clock.advance(1);
    expect(await third).toEqual({
      ok: false,
      error: { code: 'relay_overloaded', cause: 'waited' },
    });
    expect(events).toEqual([
      { kind: 'queued', key: 'id1' },
      { kind: 'refused', key: 'id1', cause: 'waited' },
    ]);
    expect(await governor.atLimit(['id1', 'id2'])).toEqual(new Set(['id1']));
  });

  it('admits a waiter when the window frees a point within the wait', async () => {
    const clock = createFakeScheduler();
    const governor = createUpstreamGovernor({
      limits: { maxInFlight: 10, pointsPerMinute: 1 },
      maxWaitMs: PACE_WINDOW_MS + 10,
      now: clock.now,
      schedule: clock.schedule,
    });
    await governor.admit('id1', 'c');
    const second = governor.admit('id1', 'c');
    await clock.advance(PACE_WINDOW_MS);
    const result = await second;
    expect(result.ok).toBe(true);
  });

  it('admits a waiter when an in-flight slot is released', async () => {
    const clock = createFakeScheduler();
    const governor = createUpstreamGovernor({
      limits: { maxInFlight: 1, pointsPerMinute: 100 },
      maxWaitMs: 1000,
      now: clock.now,
      schedule: clock.schedule,
    });
    const first = await governor.admit('id1', 'c');
    if (!first.ok) throw new Error('expected a permit');
    const second = governor.admit('id1', 'c');
    await clock.advance(10);
    first.value.release();
    first.value.release();
    await clock.settle();
    expect((await second).ok).toBe(true);
    expect((await governor.inspect('id1')).inFlight).toBe(1);
  });

  it('serves waiting callers round-robin: a burst of one cannot starve another', async () => {
    const clock = createFakeScheduler();
    const governor = createUpstreamGovernor({
      limits: { maxInFlight: 1, pointsPerMinute: 1000 },
      maxWaitMs: 60_000,
      now: clock.now,
      schedule: clock.schedule,
    });
    const held = await governor.admit('id1', 'a');
    if (!held.ok) throw new Error('expected a permit');
    const order: string[] = [];
    const waiters: Promise<void>[] = [];
    const enqueue = (caller: string, label: string) => {
      waiters.push(
        governor.admit('id1', caller).then((result) => {
          if (!result.ok) throw new Error('refused');
          order.push(label);
          // Each request takes 10 ms upstream.
          clock.schedule(() => {
            result.value.release();
          }, 10);
        }),
      );
    };
    for (let i = 0; i < 5; i++) enqueue('a', `a${String(i)}`);
    enqueue('b', 'b0');
    enqueue('b', 'b1');
    held.value.release();
    await clock.advance(1000);
    await Promise.all(waiters);
    expect(order).toEqual(['a0', 'b0', 'a1', 'b1', 'a2', 'a3', 'a4']);
  });

  it('refuses at once when the queue of a key is full', async () => {
    const clock = createFakeScheduler();
    const governor = createUpstreamGovernor({
      limits: { maxInFlight: 1, pointsPerMinute: 1 },
      maxWaitMs: 1000,
      maxQueued: 1,
      now: clock.now,
      schedule: clock.schedule,
    });
    await governor.admit('id1', 'a');
    void governor.admit('id1', 'a');
    expect(await governor.admit('id1', 'b')).toEqual({
      ok: false,
      error: { code: 'relay_overloaded', cause: 'queue_full' },
    });
    await clock.advance(2000);
  });

  it('halves a key’s pace on a secondary-limit answer and restores it over ten minutes', async () => {
    const clock = createFakeScheduler();
    const events: GovernorEvent[] = [];
    const governor = createUpstreamGovernor({
      now: clock.now,
      schedule: clock.schedule,
      onEvent: (event) => events.push(event),
    });
    await governor.observe('id1', { ...OK_ANSWER, status: 403, remaining: 4000 });
    expect((await governor.inspect('id1')).limits).toEqual({
      maxInFlight: 40,
      pointsPerMinute: 360,
    });
    await clock.advance(PACE_RECOVERY_MS / 2);
    expect((await governor.inspect('id1')).factor).toBe(0.75);
    await governor.observe('id1', OK_ANSWER);
    await clock.advance(PACE_RECOVERY_MS / 2);
    await governor.observe('id1', OK_ANSWER);
    await governor.observe('id1', OK_ANSWER);
    expect(events).toEqual([
      { kind: 'slowed', key: 'id1', factor: 0.5 },
      { kind: 'restored', key: 'id1' },
    ]);
    // Idle and at full pace again: no longer listed.
    expect(await governor.senders()).toEqual([]);
  });

  it('counts claims of selections against headroom until admitted, released or expired', async () => {
    const clock = createFakeScheduler();
    const governor = createUpstreamGovernor({
      limits: { maxInFlight: 10, pointsPerMinute: 2 },
      maxWaitMs: 0,
      now: clock.now,
      schedule: clock.schedule,
    });
    // The set is read when asked: a claim made after atLimit answered still counts.
    const busy = await governor.atLimit(['id1', 'id2']);
    expect(busy.has('id1')).toBe(false);
    governor.claim('id1');
    expect(busy.has('id1')).toBe(false);
    const release = governor.claim('id1');
    expect(busy.has('id1')).toBe(true);
    expect(busy.has('id2')).toBe(false);
    release();
    release();
    expect(busy.has('id1')).toBe(false);
    // Admission takes the claim over: one point in the window, no claim left.
    expect((await governor.admit('id1', 'c')).ok).toBe(true);
    expect((await governor.atLimit(['id1'])).has('id1')).toBe(false);
    // A claim no request followed stops counting after its time.
    governor.claim('id1');
    expect((await governor.atLimit(['id1'])).has('id1')).toBe(true);
    await clock.advance(GOVERNOR_CLAIM_TTL_MS);
    expect((await governor.atLimit(['id1'])).has('id1')).toBe(false);
  });

  it('lists its busy senders for the gauges', async () => {
    const clock = createFakeScheduler();
    const governor = createUpstreamGovernor({ now: clock.now, schedule: clock.schedule });
    await governor.admit('id1', 'c');
    await governor.observe('id2', { ...OK_ANSWER, status: 429 });
    expect(await governor.senders()).toMatchObject([
      { key: 'id1', standing: { pointsInWindow: 1, inFlight: 1, factor: 1 } },
      { key: 'id2', standing: { pointsInWindow: 0, inFlight: 0, factor: 0.5 } },
    ]);
  });

  it('paces a search bucket from its x-ratelimit-limit', async () => {
    const clock = createFakeScheduler();
    const governor = createUpstreamGovernor({
      maxWaitMs: 0,
      now: clock.now,
      schedule: clock.schedule,
    });
    await governor.observe('id1', {
      status: 200,
      remaining: 9,
      limit: 10,
      resource: 'search',
      retryAfter: false,
    });
    const results: boolean[] = [];
    for (let i = 0; i < 10; i++) {
      const result = await governor.admit('id1', 'c', { bucket: 'search' });
      if (result.ok) result.value.release();
      results.push(result.ok);
    }
    // 80 % of 10 a minute: 8 admitted, then refused (wait 0) instead of spending the bucket.
    expect(results.filter(Boolean)).toHaveLength(8);
    // The core pace of the same identity is not spent by the refusals.
    expect((await governor.inspect('id1')).pointsInWindow).toBe(8);
  });
});

describe('isSecondaryLimitAnswer', () => {
  it.each([
    [{ ...OK_ANSWER, status: 429 }, true],
    [{ ...OK_ANSWER, status: 403, remaining: 10 }, true],
    [{ ...OK_ANSWER, status: 403, remaining: 0 }, false],
    [{ ...OK_ANSWER, status: 403, remaining: undefined }, false],
    [{ ...OK_ANSWER, status: 502, retryAfter: true }, true],
    [OK_ANSWER, false],
  ])('%o → %s', (answer, expected) => {
    expect(isSecondaryLimitAnswer(answer)).toBe(expected);
  });
});

describe('the pace property', () => {
  it('random bursts over random pools never put more than the configured points into any 60 s window of any identity', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(
          fc.record({
            gapMs: fc.integer({ min: 0, max: 20_000 }),
            identity: fc.nat(),
            caller: fc.integer({ min: 0, max: 2 }),
            holdMs: fc.integer({ min: 0, max: 5_000 }),
          }),
          { minLength: 1, maxLength: 80 },
        ),
        async (identities, pointsPerMinute, maxInFlight, burst) => {
          const clock = createFakeScheduler();
          const governor = createUpstreamGovernor({
            limits: { maxInFlight, pointsPerMinute },
            maxWaitMs: 30_000,
            now: clock.now,
            schedule: clock.schedule,
          });
          const sent = new Map<string, number[]>();
          let inFlight = new Map<string, number>();
          const pending: Promise<void>[] = [];
          for (const request of burst) {
            await clock.advance(request.gapMs);
            const key = `id${String(request.identity % identities)}`;
            pending.push(
              governor.admit(key, `c${String(request.caller)}`).then((result) => {
                if (!result.ok) return;
                const times = sent.get(key) ?? [];
                times.push(clock.now());
                sent.set(key, times);
                const count = (inFlight.get(key) ?? 0) + 1;
                expect(count).toBeLessThanOrEqual(maxInFlight);
                inFlight = new Map(inFlight).set(key, count);
                const permit: GovernorPermit = result.value;
                clock.schedule(() => {
                  inFlight.set(key, (inFlight.get(key) ?? 1) - 1);
                  permit.release();
                }, request.holdMs);
              }),
            );
          }
          await clock.advance(200_000);
          await Promise.all(pending);
          for (const times of sent.values()) {
            for (const start of times) {
              const inWindow = times.filter((t) => t >= start && t < start + PACE_WINDOW_MS);
              expect(inWindow.length).toBeLessThanOrEqual(pointsPerMinute);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
