import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
    reporters: process.env['CI'] ? ['default'] : ['default'],
    passWithNoTests: false,
  },
});
