import { defineConfig } from 'vitest/config';
import { SummaryReporter } from './scripts/summary-reporter.ts';

export default defineConfig({
  test: {
    // One project per package and app (each has its own vitest.config.ts): tests run from
    // source through the `@relay/source` export condition, with no build.
    projects: ['packages/*', 'apps/*'],
    reporters: ['default', new SummaryReporter()],
    passWithNoTests: false,
  },
});
