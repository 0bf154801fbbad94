import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Log and metric lines go to listeners only (test/helpers/observe.ts), not to the test output.
    setupFiles: ['test/helpers/quiet-output.ts'],
    // Integration files each start local mode (dynalite, sandbox, API) in their own process.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
