import { defineConfig } from 'tsdown';

export default defineConfig({
  // re2js-engine is an entry of its own, so that `compileRulesLazily`'s import of it stays a
  // dynamic import in bundles of this package (the CLI's), and re2js a chunk loaded on demand.
  entry: ['src/index.ts', 'src/re2js-engine.ts'],
  format: 'esm',
  platform: 'node',
  target: 'node22',
  dts: true,
  sourcemap: true,
  fixedExtension: false,
  clean: true,
});
