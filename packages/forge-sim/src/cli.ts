#!/usr/bin/env node
/* eslint-disable no-console -- this is the command's shell: printing is the point. */
import { createForgeSim } from './forge-sim.js';
import { seedDemoWorld } from './world/demo-world.js';

/**
 * `forge-sim`: starts the simulator with the demo world, prints its URLs and two demo
 * tokens (alice: org admin; carol: outside collaborator), and stops on SIGINT/SIGTERM.
 */
async function main(): Promise<void> {
  const sim = await createForgeSim();
  seedDemoWorld(sim.world);
  const alice = sim.tokens.addPat({ login: 'alice' });
  const carol = sim.tokens.addPat({ login: 'carol' });
  console.log(
    JSON.stringify(
      {
        api: sim.urls.api,
        web: sim.urls.web,
        raw: sim.urls.raw,
        log: sim.urls.log,
        tokens: { alice: alice.token, carol: carol.token },
      },
      null,
      2,
    ),
  );
  const stop = (): void => {
    void sim.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(
    'forge-sim failed to start:',
    error instanceof Error ? error.message : 'unknown error',
  );
  process.exit(1);
});
