/**
 * Manual timers in the `setTimer`/`clearTimer` shape the worker offloads take (their deadlines):
 * nothing runs until `fire()` runs every pending callback once.
 */
export function manualTimers() {
  const pending = new Map<number, () => void>();
  let next = 1;
  return {
    setTimer: (callback: () => void) => {
      const id = next++;
      pending.set(id, callback);
      return id;
    },
    clearTimer: (handle: unknown) => pending.delete(handle as number),
    fire: () => {
      for (const [id, callback] of [...pending]) {
        pending.delete(id);
        callback();
      }
    },
  };
}
