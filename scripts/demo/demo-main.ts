import { existsSync } from 'node:fs';
import { createCleanupStack } from './cleanup-stack.ts';
import { DEMO_USAGE, parseDemoInvocation } from './demo-options.ts';
import { DEMO_NAMES, resolveDemoBuild, startDemoStack } from './demo-stack.ts';
import type { DemoBuild, DemoStack } from './demo-stack.ts';
import { runTour } from './demo-tour.ts';

/** Exit codes of the demo. */
export const DEMO_EXIT = {
  ok: 0,
  /** The tour ran, and a step did not behave as described (only with --exit). */
  tourFailed: 1,
  usage: 2,
  /** The stack failed to start or stopped unexpectedly. */
  startFailed: 3,
} as const;

/** The effects of {@link runDemo}: where the checkout is, the environment and the streams. */
export interface DemoProcess {
  readonly root: string;
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly print: (line: string) => void;
  readonly printError: (line: string) => void;
  /** The built pieces to run; default: those of the checkout at `root`. */
  readonly build?: DemoBuild;
  /** Resolves with the signal name on the first SIGINT or SIGTERM. */
  readonly untilSignal: () => Promise<string>;
}

function usageLines(stack: DemoStack): readonly string[] {
  const { paths, server, sim } = stack;
  return [
    '',
    `The stack keeps running. Use the relay CLI (from source) against it, in another terminal:`,
    '',
    `  export RELAY_CONFIG_DIR=${paths.configDir}   # the login of ${DEMO_NAMES.caller} saved above`,
    `  export RELAY_NO_FALLBACK=1   # show the relay's refusals instead of running your real gh`,
    `  pnpm relay whoami`,
    `  pnpm relay native api repos/${DEMO_NAMES.publicRepo}/issues --jq '.[].title'`,
    `  pnpm relay request --path /repos/${DEMO_NAMES.publicRepo}/pulls/${String(stack.ids.pullNumber)}`,
    `  pnpm relay health && pnpm relay stats --since 30m`,
    '',
    'Admin commands (the admin token is in a file, never printed):',
    '',
    `  export RELAY_URL=${server.url} RELAY_ADMIN_TOKEN="$(cat ${paths.adminTokenFile})"`,
    `  pnpm relay admin string-rewrites status`,
    `  echo '{"schema_version":1,"rules":[]}' | pnpm relay admin string-rewrites set --file -`,
    '',
    `A local fallback runs the real gh with GH_TOKEN; ${DEMO_NAMES.caller}'s simulated token is in`,
    `${paths.callerForgeTokenFile}, but gh itself talks to github.com, not to the simulator.`,
    '',
    `  relay-server        ${server.url}  (SQLite ${paths.database})`,
    `  simulated GitHub    api ${sim.urls.api}  web ${sim.urls.web}  raw ${sim.urls.raw}`,
    '',
    'Ctrl-C stops everything and removes the temporary directory.',
  ];
}

/**
 * `pnpm demo`: starts the stack, runs the tour, then either stops (`--exit`) or keeps running
 * until SIGINT/SIGTERM. Whatever happens (a failed start, a signal during the tour, an
 * unexpected exit of relay-server), every process it started is stopped and its temporary
 * directory removed before it returns.
 *
 * @returns the exit code (see {@link DEMO_EXIT})
 */
export async function runDemo(demo: DemoProcess): Promise<number> {
  const invocation = parseDemoInvocation(demo.argv, demo.env);
  if (invocation.kind === 'help') {
    demo.print(DEMO_USAGE);
    return DEMO_EXIT.ok;
  }
  if (invocation.kind === 'usage_error') {
    demo.printError(`demo: unknown argument ${JSON.stringify(invocation.argument)}\n`);
    demo.printError(DEMO_USAGE);
    return DEMO_EXIT.usage;
  }
  const build = demo.build ?? resolveDemoBuild(demo.root);
  const missing = [build.forgeSimModule, build.serverMain, build.cliBin].filter(
    (path) => !existsSync(path),
  );
  if (missing.length > 0) {
    demo.printError(`demo: not built (${missing.join(', ')}); run it as \`pnpm demo\`.`);
    return DEMO_EXIT.startFailed;
  }

  const cleanup = createCleanupStack();
  const signal = demo.untilSignal();
  const stop = async (code: number): Promise<number> => {
    const failed = await cleanup.run();
    if (failed.length > 0) demo.printError(`demo: could not stop ${failed.join(', ')}`);
    return code;
  };

  let stack: DemoStack;
  try {
    stack = await Promise.race([
      startDemoStack(build, cleanup, demo.env),
      signal.then((name) => Promise.reject(new Error(`${name} during start-up`))),
    ]);
  } catch (error) {
    demo.printError(`demo: ${error instanceof Error ? error.message : 'the stack did not start'}`);
    return stop(DEMO_EXIT.startFailed);
  }

  try {
    return await stop(await presentStack(demo, stack, signal, invocation.options.exitAfterTour));
  } catch (error) {
    demo.printError(`demo: ${error instanceof Error ? error.message : 'unexpected failure'}`);
    return stop(DEMO_EXIT.startFailed);
  }
}

/** Prints the stack, runs the tour, then waits for a signal unless `exitAfterTour`. */
async function presentStack(
  demo: DemoProcess,
  stack: DemoStack,
  signal: Promise<string>,
  exitAfterTour: boolean,
): Promise<number> {
  demo.print('Relay demo');
  demo.print(
    `  simulated GitHub    ${stack.sim.urls.api}  (demo world: org ${DEMO_NAMES.org}, public ${DEMO_NAMES.publicRepo}, private ${DEMO_NAMES.privateRepo})`,
  );
  demo.print(
    `  relay-server        ${stack.server.url}  (pool ${DEMO_NAMES.pool}, temporary SQLite file)`,
  );
  demo.print(`  temporary directory ${stack.paths.root}`);

  const tour = await Promise.race([
    runTour(stack, demo.print),
    signal.then(() => Symbol('interrupted')),
  ]);
  if (typeof tour === 'symbol') return DEMO_EXIT.ok;
  const failed = tour.filter((step) => step.failures.length > 0);
  demo.print('');
  demo.print(
    failed.length === 0
      ? `Tour complete: all ${String(tour.length)} steps behaved as described.`
      : `Tour complete: ${String(failed.length)} of ${String(tour.length)} steps did not behave as described.`,
  );

  if (exitAfterTour) {
    return failed.length === 0 ? DEMO_EXIT.ok : DEMO_EXIT.tourFailed;
  }
  for (const line of usageLines(stack)) demo.print(line);
  const ended = await Promise.race([
    signal.then(() => 'signal' as const),
    stack.server.exited.then(() => 'server' as const),
  ]);
  if (ended === 'server') {
    demo.printError('demo: relay-server stopped unexpectedly:');
    for (const line of stack.server.recentOutput()) demo.printError(`  ${line}`);
    return DEMO_EXIT.startFailed;
  }
  demo.print('Stopping…');
  return DEMO_EXIT.ok;
}
