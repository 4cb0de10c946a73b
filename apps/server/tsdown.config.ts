import { defineConfig } from 'tsdown';

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
});
