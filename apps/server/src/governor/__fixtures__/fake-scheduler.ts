/** A fake clock with timers, for the governor's tests: time moves only when told to. */
export interface FakeScheduler {
  readonly now: () => number;
  readonly schedule: (fn: () => void, ms: number) => () => void;
  /** Moves the clock forward by `ms`, firing due timers in order (and settling promises). */
  advance(ms: number): Promise<void>;
  /** Lets pending promise continuations run. */
  settle(): Promise<void>;
}

/**
 * Creates a fake scheduler starting at `start` (epoch ms).
 *
 * @param start - the initial time
 */
export function createFakeScheduler(start = 1_700_000_000_000): FakeScheduler {
  let time = start;
  let nextId = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const settle = async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };
  return {
    now: () => time,
    schedule(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: time + Math.max(0, ms), fn });
      return () => timers.delete(id);
    },
    async advance(ms) {
      const end = time + ms;
      for (;;) {
        await settle();
        let due: [number, { at: number; fn: () => void }] | undefined;
        for (const entry of timers) {
          if (entry[1].at <= end && (due === undefined || entry[1].at < due[1].at)) due = entry;
        }
        if (due === undefined) break;
        timers.delete(due[0]);
        time = Math.max(time, due[1].at);
        due[1].fn();
      }
      time = end;
      await settle();
    },
    settle,
  };
}
