import { defineConfig } from 'vite';

// relay-server serves the build at /dashboard/ (apps/server copies dist/ into its own dist/).
export default defineConfig({
  base: '/dashboard/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No inline script anywhere: the relay's Content-Security-Policy allows scripts from the
    // relay's origin only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // The charts are a chunk of their own, loaded after the tables: when it cannot load,
        // the page keeps its tables (README "Dashboard").
        chunkFileNames: 'assets/[name]-[hash].js',
      },
    },
  },
});
