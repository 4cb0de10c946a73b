/** A stop action: closes one thing the demo opened. */
export type CleanupAction = () => Promise<void> | void;

/** Everything the demo opened, closed in reverse order, once. */
export interface CleanupStack {
  /** Registers a stop action; the last registered runs first. */
  push(name: string, action: CleanupAction): void;
  /**
   * Runs every action once, newest first; later calls wait for the first run. A failing action
   * does not stop the others.
   *
   * @returns the names of the actions that failed
   */
  run(): Promise<readonly string[]>;
}

/**
 * Creates an empty {@link CleanupStack}.
 *
 * @example
 * const cleanup = createCleanupStack();
 * cleanup.push('simulated GitHub', () => sim.close());
 * await cleanup.run();
 */
export function createCleanupStack(): CleanupStack {
  const actions: { readonly name: string; readonly action: CleanupAction }[] = [];
  let running: Promise<readonly string[]> | undefined;
  return {
    push(name, action) {
      actions.push({ name, action });
    },
    run() {
      running ??= (async () => {
        const failed: string[] = [];
        for (const { name, action } of actions.reverse()) {
          try {
            await action();
          } catch {
            failed.push(name);
          }
        }
        return failed;
      })();
      return running;
    },
  };
}
