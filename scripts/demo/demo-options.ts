/** How `pnpm demo` runs. */
export interface DemoOptions {
  /** Run the tour, then stop everything and exit (`--exit` or RELAY_DEMO_EXIT=1). */
  readonly exitAfterTour: boolean;
}

/** What the demo's arguments ask for: a run, the help text, or a usage error. */
export type DemoInvocation =
  | { readonly kind: 'run'; readonly options: DemoOptions }
  | { readonly kind: 'help' }
  | { readonly kind: 'usage_error'; readonly argument: string };

/** The help text, printed for `--help` and after an unknown argument. */
export const DEMO_USAGE = `Usage: pnpm demo [--exit]

Starts a simulated GitHub and relay-server on loopback, registers a pool, logs a demo caller in
through the relay CLI and runs a scripted tour; then keeps the stack running until Ctrl-C.

  --exit   run the tour, then stop everything (also RELAY_DEMO_EXIT=1); the exit code is 0
           only when every step of the tour behaved as described
  --help   this text
`;

/**
 * Reads the demo's command-line arguments and environment.
 *
 * @param argv - the arguments after the script name (a lone `--` is ignored)
 * @param env - the environment; only RELAY_DEMO_EXIT is read (exactly `1` turns it on)
 * @returns a run with its options, `help` for `--help`/`-h`, or `usage_error` naming the first
 *   argument not understood
 */
export function parseDemoInvocation(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): DemoInvocation {
  let exitAfterTour = env.RELAY_DEMO_EXIT === '1';
  for (const argument of argv) {
    if (argument === '--') continue;
    if (argument === '--help' || argument === '-h') return { kind: 'help' };
    if (argument !== '--exit') return { kind: 'usage_error', argument };
    exitAfterTour = true;
  }
  return { kind: 'run', options: { exitAfterTour } };
}
