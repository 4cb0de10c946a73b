#!/usr/bin/env node
// `pnpm demo`: a simulated GitHub with its demo world, and a relay-server pointed at it, on
// loopback ephemeral ports. Everything stops on Ctrl-C (SIGINT) or SIGTERM.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
const root = dirname(dirname(fileURLToPath(import.meta.url)));
// forge-sim is private to the workspace: load its build directly.
const { DEMO, createForgeSim, seedDemoWorld } = await import(
  join(root, 'packages/forge-sim/dist/index.js')
);

const sim = await createForgeSim();
const ids = seedDemoWorld(sim.world);
const alice = sim.tokens.addPat({ login: DEMO.users.alice });

const server = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: {
    ...process.env,
    RELAY_PORT: '0',
    RELAY_DATABASE: ':memory:',
    RELAY_FORGE_API_URL: sim.urls.api,
    RELAY_FORGE_WEB_URL: sim.urls.web,
    RELAY_FORGE_RAW_URL: sim.urls.raw,
    RELAY_FORGE_LOG_HOSTS: new URL(sim.urls.log).hostname,
    ALLOWED_FORGE_ORG: DEMO.org,
    DEFAULT_ALLOWED_OWNERS: DEMO.org,
  },
});

const relayUrl = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk.toString();
    const match = /relay-server listening on (\S+)/.exec(out);
    if (match) resolve(match[1]);
  });
  server.once('exit', (code) => reject(new Error(`relay-server exited with ${code}`)));
});

const discovery = await (await fetch(`${relayUrl}/.well-known/relay`)).json();

console.log(`
Relay demo
  simulated GitHub API   ${sim.urls.api}
  simulated web / raw    ${sim.urls.web}  ${sim.urls.raw}
  relay-server           ${relayUrl}
  discovery              ${JSON.stringify(discovery)}

The simulated world: organization ${DEMO.org} with the public repository ${DEMO.org}/${DEMO.publicRepo}
(pull requests #${ids.pullNumber} and #${ids.mergedPullNumber}, issue #${ids.issueNumber}, Actions run ${ids.runId})
and the private ${DEMO.org}/${DEMO.privateRepo}. A token of ${DEMO.users.alice} (org admin) on the simulator:
  ${alice.token}

Try:
  curl ${relayUrl}/.well-known/relay
  curl -H 'authorization: Bearer ${alice.token}' ${sim.urls.api}/repos/${DEMO.org}/${DEMO.publicRepo}

Ctrl-C stops both.`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await sim.close();
  process.exit(0);
}
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
