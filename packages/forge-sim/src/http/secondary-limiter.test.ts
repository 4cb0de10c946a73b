import { afterEach, describe, expect, it } from 'vitest';
import { createForgeSim, type ForgeSim } from '../forge-sim.js';
import { createSimClock } from '../world/sim-clock.js';
import { GITHUB_SECONDARY_LIMITS, SecondaryLimiter } from './secondary-limiter.js';

const START = Date.UTC(2030, 0, 1);

describe('SecondaryLimiter', () => {
  it('defaults to GitHub’s documented numbers', () => {
    expect(GITHUB_SECONDARY_LIMITS).toMatchObject({ maxConcurrent: 100, pointsPerMinute: 900 });
  });

  it('refuses the point past the limit in a sliding minute, per credential', () => {
    let now = START;
    const limiter = new SecondaryLimiter(() => now, { maxConcurrent: 10, pointsPerMinute: 2 });
    expect(limiter.enter('pat-1')).toBe(true);
    limiter.leave('pat-1');
    now += 30_000;
    expect(limiter.enter('pat-1')).toBe(true);
    limiter.leave('pat-1');
    expect(limiter.enter('pat-1')).toBe(false);
    expect(limiter.enter('pat-2')).toBe(true);
    now += 30_000;
    expect(limiter.enter('pat-1')).toBe(true);
    expect(limiter.refusals).toBe(1);
  });

  it('refuses past the concurrency limit until a request ends', () => {
    const limiter = new SecondaryLimiter(() => START, { maxConcurrent: 1, pointsPerMinute: 100 });
    expect(limiter.enter('pat-1')).toBe(true);
    expect(limiter.enter('pat-1')).toBe(false);
    limiter.leave('pat-1');
    expect(limiter.enter('pat-1')).toBe(true);
  });
});

describe('createForgeSim({ secondaryLimits })', () => {
  let sim: ForgeSim | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  it('is off by default', async () => {
    sim = await createForgeSim({ clock: createSimClock({ start: START }) });
    const { token } = sim.tokens.addPat({ login: 'alice' });
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${sim.urls.api}/rate_limit`, {
        headers: { authorization: `token ${token}` },
      });
      expect(res.status).toBe(200);
    }
  });

  it('answers GitHub’s secondary-limit 403 with Retry-After past the points of a minute', async () => {
    const clock = createSimClock({ start: START });
    sim = await createForgeSim({
      clock,
      secondaryLimits: { maxConcurrent: 100, pointsPerMinute: 2, retryAfterS: 60 },
    });
    const { token } = sim.tokens.addPat({ login: 'alice' });
    const get = () =>
      fetch(`${sim?.urls.api ?? ''}/rate_limit`, { headers: { authorization: `token ${token}` } });
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(200);
    const refused = await get();
    expect(refused.status).toBe(403);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(Number(refused.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { message: string }).message).toMatch(/secondary rate limit/);
    expect(sim.requests.find().filter((r) => r.fault === 'secondary_limit')).toHaveLength(1);
    clock.advance(60_000);
    expect((await get()).status).toBe(200);
  });
});
