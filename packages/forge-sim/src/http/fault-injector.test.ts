import { describe, expect, it } from 'vitest';
import {
  FaultInjector,
  createSeededRandom,
  type FaultAction,
  type FaultProbe,
  type FaultSpec,
} from './fault-injector.js';

const PROBE: FaultProbe = {
  host: 'api',
  method: 'GET',
  path: '/repos/acme/widgets',
  credential: 'pat-1',
  token: 'ghp_secret',
};
const BAD_GATEWAY: FaultAction = { kind: 'status', status: 502 };
const RESET: FaultAction = { kind: 'reset' };

/** A random source that returns the given draws in turn (and fails past them). */
function draws(...values: number[]): () => number {
  const queue = [...values];
  return () => {
    const next = queue.shift();
    if (next === undefined) throw new Error('no draw left');
    return next;
  };
}

describe('FaultInjector probability', () => {
  it.each([
    { probability: 0.2, draw: 0.19, applies: true },
    { probability: 0.2, draw: 0.2, applies: false },
    { probability: 0, draw: 0, applies: false },
    { probability: 1, draw: undefined, applies: true },
    { probability: undefined, draw: undefined, applies: true },
  ])(
    'probability $probability with draw $draw applies: $applies',
    ({ probability, draw, applies }) => {
      const faults = new FaultInjector({ random: draw === undefined ? draws() : draws(draw) });
      const spec: FaultSpec = {
        action: BAD_GATEWAY,
        ...(probability === undefined ? {} : { probability }),
      };
      const id = faults.inject(spec);
      expect(faults.take(PROBE)).toEqual(applies ? BAD_GATEWAY : undefined);
      expect(faults.active.find((f) => f.id === id)?.hits).toBe(applies ? 1 : 0);
    },
  );

  it('tests a spared request against the next fault, each with its own draw', () => {
    const faults = new FaultInjector({ random: draws(0.9, 0.1) });
    faults.inject({ action: BAD_GATEWAY, probability: 0.5 });
    faults.inject({ action: RESET, probability: 0.5 });
    expect(faults.take(PROBE)).toEqual(RESET);
  });

  it('draws only for matching faults', () => {
    const faults = new FaultInjector({ random: draws(0.1) });
    faults.inject({ host: 'web', action: RESET, probability: 0.5 });
    faults.inject({ action: BAD_GATEWAY, probability: 0.5 });
    expect(faults.take(PROBE)).toEqual(BAD_GATEWAY);
  });

  it('counts only applied requests towards times', () => {
    const faults = new FaultInjector({ random: draws(0.9, 0.1, 0.1) });
    faults.inject({ action: BAD_GATEWAY, probability: 0.5, times: 1 });
    expect(faults.take(PROBE)).toBeUndefined();
    expect(faults.take(PROBE)).toEqual(BAD_GATEWAY);
    expect(faults.active).toHaveLength(0);
    expect(faults.take(PROBE)).toBeUndefined();
  });

  it.each([
    { spec: { action: RESET, probability: -0.1 }, message: /probability/ },
    { spec: { action: RESET, probability: 1.5 }, message: /probability/ },
    { spec: { action: RESET, probability: Number.NaN }, message: /probability/ },
    { spec: { action: RESET, times: 0 }, message: /times/ },
    { spec: { action: RESET, times: 1.5 }, message: /times/ },
  ])('refuses $spec', ({ spec, message }) => {
    expect(() => new FaultInjector().inject(spec)).toThrow(message);
  });

  it('applies to about the requested share of requests, the same ones for the same seed', () => {
    const run = (seed: number) => {
      const faults = new FaultInjector({ random: createSeededRandom(seed) });
      faults.inject({ action: BAD_GATEWAY, probability: 0.2 });
      return Array.from({ length: 2_000 }, () => faults.take(PROBE) !== undefined);
    };
    const first = run(7);
    expect(run(7)).toEqual(first);
    expect(run(8)).not.toEqual(first);
    const share = first.filter(Boolean).length / first.length;
    expect(share).toBeGreaterThan(0.17);
    expect(share).toBeLessThan(0.23);
  });
});

describe('createSeededRandom', () => {
  it('draws uniformly in [0, 1)', () => {
    const random = createSeededRandom(42);
    const values = Array.from({ length: 10_000 }, random);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
  });
});
