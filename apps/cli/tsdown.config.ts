import { defineConfig } from 'tsdown';

// One self-contained bundle: clipanion, zod and the workspace packages are bundled in, so that
// the bin resolves nothing from node_modules at start-up; command implementations stay in
// lazily imported chunks, so `relay --version` loads only the command table.
export default defineConfig({
  entry: ['src/index.ts', 'src/main.ts'],
  format: 'esm',
  platform: 'node',
  target: 'node22',
  dts: true,
  sourcemap: true,
  fixedExtension: false,
  clean: true,
  deps: {
    alwaysBundle: [/^clipanion/, /^typanion/, /^zod/, /^@relay\//, /^re2js/],
    // The emitted JavaScript imports nothing but Node built-ins.
    onlyImport: [],
    // Declarations keep referring to the packages' own types instead of inlining them.
    dts: { neverBundle: true },
  },
});
