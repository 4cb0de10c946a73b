import { defineConfig } from 'tsdown';

// The packed artifact (`npm pack`, deploy/README.md) runs with one runtime dependency:
// better-sqlite3, a native addon that npm installs with its prebuilt binaries. Everything else —
// the workspace packages (not published to any registry), hono, kysely, pino, prom-client, zod —
// is bundled into dist/, so the packed manifest names no workspace package and the single-file
// deploy embeds dist/ as it is.
export default defineConfig({
  // The rewrite-check worker is an entry of its own: the server starts it as a worker thread
  // from `dist/rewrite-check-worker.js`.
  entry: {
    index: 'src/index.ts',
    main: 'src/main.ts',
    'rewrite-check-worker': 'src/policy/rewrite-check-worker.ts',
  },
  format: 'esm',
  platform: 'node',
  target: 'node22',
  dts: true,
  sourcemap: true,
  fixedExtension: false,
  clean: true,
  deps: {
    // The emitted JavaScript imports nothing but Node built-ins and better-sqlite3
    // (scripts/deploy-check.mjs checks the packed dist/ against the packed dependencies).
    alwaysBundle: (id) => !/^better-sqlite3(\/|$)/.test(id),
    // Declarations keep referring to the packages' own types instead of inlining them.
    dts: { alwaysBundle: () => false, neverBundle: true },
  },
});
