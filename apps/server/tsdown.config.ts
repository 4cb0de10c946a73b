import { cpSync, existsSync } from 'node:fs';
import { defineConfig } from 'tsdown';

// The stats dashboard (apps/dashboard, built first: a workspace devDependency, so turbo's ^build
// orders it) is copied into dist/dashboard, where the server serves it from at /dashboard/.
const DASHBOARD_BUILD = '../dashboard/dist';

// The packed artifact (`pnpm pack`, deploy/README.md) imports at run time only what package.json
// lists in `dependencies` (better-sqlite3, a native addon that npm installs with its prebuilt
// binaries); everything else — the workspace packages (on no registry), hono, kysely, pino,
// prom-client, zod: devDependencies — is bundled into dist/ (tsdown's default), so the packed
// manifest names no workspace package and the single-file deploy embeds dist/ as it is.
export default defineConfig({
  // The rewrite-check and audit-write workers are entries of their own: the server starts them
  // as worker threads from `dist/rewrite-check-worker.js` and `dist/audit-write-worker.js`.
  entry: {
    index: 'src/index.ts',
    main: 'src/main.ts',
    'rewrite-check-worker': 'src/policy/rewrite-check-worker.ts',
    'audit-write-worker': 'src/audit/audit-write-worker.ts',
  },
  format: 'esm',
  platform: 'node',
  target: 'node22',
  dts: true,
  sourcemap: true,
  fixedExtension: false,
  clean: true,
  deps: {
    // Bundling devDependencies is the intent: no hint about it (scripts/deploy-check.mjs checks
    // the packed dist/ against the packed dependencies).
    onlyBundle: false,
    // Declarations keep referring to the packages' own types instead of inlining them.
    dts: { alwaysBundle: () => false, neverBundle: true },
  },
  hooks: {
    'build:done': () => {
      if (!existsSync(`${DASHBOARD_BUILD}/index.html`)) {
        throw new Error('apps/dashboard is not built: run `pnpm build` (turbo builds it first)');
      }
      cpSync(DASHBOARD_BUILD, 'dist/dashboard', { recursive: true });
    },
  },
});
