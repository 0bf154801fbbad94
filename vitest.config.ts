import { spawnSync } from 'node:child_process';
import { defineConfig } from 'vitest/config';

/**
 * `npm test` (TEST_DYNAMODB_LOCAL=1) runs the integration and end-to-end
 * tests (but the platform sandbox's, which use no table) a second time with local mode on Amazon's DynamoDB Local instead of
 * dynalite (infra/local/dynamodb-local.ts), in the same run so both share
 * the workers. It needs `java`; without it that half is skipped with a
 * notice, as the browser tests are without Chromium. A single file runs on
 * DynamoDB Local with `LOCAL_DYNAMODB=dynamodb-local npx vitest run <file>`.
 */
const secondRun = process.env.TEST_DYNAMODB_LOCAL === '1';
const hasJava = secondRun && spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0;
if (secondRun && !hasJava) {
  console.warn('DynamoDB Local tests skipped: no `java`. Install a Java runtime (Debian: apt-get install default-jre-headless).');
}

const ALL = ['test/**/*.test.ts'];

export default defineConfig({
  test: {
    // With projects, each names its own files (a project extending this config would add to these).
    include: hasJava ? [] : ALL,
    // Log and metric lines go to listeners only (test/helpers/observe.ts), not to the test output.
    setupFiles: ['test/helpers/quiet-output.ts'],
    // Integration files each start local mode (dynalite, sandbox, API) in their own process.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    ...(hasJava
      ? {
          projects: [
            { extends: true, test: { name: 'dynalite', include: ALL } },
            {
              extends: true,
              test: {
                name: 'dynamodb-local',
                include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
                // The platform sandbox's own tests start no table: once is enough.
                exclude: ['test/integration/sandbox/**'],
                env: { LOCAL_DYNAMODB: 'dynamodb-local' },
                // Each local mode started here starts a JVM too (about 3 s on 2 cores), some tests three of them.
                testTimeout: 60_000,
                hookTimeout: 120_000,
              },
            },
          ],
        }
      : {}),
  },
});
