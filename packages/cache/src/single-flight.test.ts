import { describe, expect, it } from 'vitest';
import { createSingleFlight } from './single-flight.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('createSingleFlight', () => {
  it('shares one upstream fetch among concurrent misses for one key and counts the duplicates', async () => {
    const flights = createSingleFlight<string>();
    const upstream = deferred<string>();
    let fetches = 0;
    const fetch = () => {
      fetches++;
      return upstream.promise;
    };
    const calls = Array.from({ length: 10 }, () => flights.run('k', fetch));
    expect(flights.inFlightCount()).toBe(1);
    upstream.resolve('body');
    const results = await Promise.all(calls);
    expect(fetches).toBe(1);
    expect(results.map((r) => r.value)).toEqual(Array(10).fill('body'));
    expect(results.filter((r) => r.shared)).toHaveLength(9);
    expect(flights.coalescedCount()).toBe(9);
    expect(flights.inFlightCount()).toBe(0);
  });

  it('keeps different keys apart', async () => {
    const flights = createSingleFlight<string>();
    const [a, b] = await Promise.all([
      flights.run('a', () => Promise.resolve('A')),
      flights.run('b', () => Promise.resolve('B')),
    ]);
    expect([a.value, b.value]).toEqual(['A', 'B']);
    expect(flights.coalescedCount()).toBe(0);
  });

  it('starts a new fetch once the previous one settled', async () => {
    const flights = createSingleFlight<number>();
    let fetches = 0;
    const fetch = () => Promise.resolve(++fetches);
    expect((await flights.run('k', fetch)).value).toBe(1);
    expect((await flights.run('k', fetch)).value).toBe(2);
  });

  it('shares a rejection with every waiter and does not keep it', async () => {
    const flights = createSingleFlight<string>();
    const upstream = deferred<string>();
    const first = flights.run('k', () => upstream.promise);
    const second = flights.run('k', () => Promise.resolve('unused'));
    upstream.reject(new Error('upstream down'));
    await expect(first).rejects.toThrow('upstream down');
    await expect(second).rejects.toThrow('upstream down');
    expect((await flights.run('k', () => Promise.resolve('ok'))).value).toBe('ok');
  });

  it('turns a synchronous throw into a rejection', async () => {
    const flights = createSingleFlight<string>();
    await expect(
      flights.run('k', () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(flights.inFlightCount()).toBe(0);
  });
});
