#!/usr/bin/env node
// `pnpm demo [--exit]`: a simulated GitHub and relay-server on loopback, a pool, a login through
// the built relay CLI and a scripted tour; then it keeps running until Ctrl-C. The demo itself is
// TypeScript under scripts/demo/, run by Node's built-in type stripping (Node 22.18+ and 24).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

if (!process.features.typescript) {
  console.error('demo: this Node cannot run TypeScript directly; use Node 24 (`pnpm demo`).');
  process.exit(1);
}
const { runDemo } = await import('./demo/demo-main.ts');

process.exitCode = await runDemo({
  root: dirname(dirname(fileURLToPath(import.meta.url))),
  argv: process.argv.slice(2),
  env: process.env,
  print: (line) => console.log(line),
  printError: (line) => console.error(line),
  untilSignal: () =>
    new Promise((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    }),
});
