import { spawnSync } from 'node:child_process';
import { defineConfig } from 'vitest/config';

/**
 * `npm test` (TEST_DYNAMODB_LOCAL=1) runs the integration tests that lean
 * hardest on the table's conditions, transactions and paging a second time
 * with local mode on Amazon's DynamoDB Local instead of dynalite
 * (infra/local/dynamodb-local.ts), in the same run so both share the
 * workers; `npm run test:dynamodb-local` (TEST_DYNAMODB_LOCAL=all) runs every
 * integration and end-to-end test there (about 13 minutes on 2 cores, too
 * long to add to every run). It needs `java`; without it that half is
 * skipped with a notice, as the browser tests are without Chromium. A single
 * file runs on DynamoDB Local with
 * `LOCAL_DYNAMODB=dynamodb-local npx vitest run <file>`.
 */
const secondRun = process.env.TEST_DYNAMODB_LOCAL === '1' || process.env.TEST_DYNAMODB_LOCAL === 'all';
const hasJava = secondRun && spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0;
if (secondRun && !hasJava) {
  console.warn('DynamoDB Local tests skipped: no `java`. Install a Java runtime (Debian: apt-get install default-jre-headless).');
}

/** The files run on DynamoDB Local by `npm test`: the foundation (keys, idempotency, bounded answers) and each module's concurrent writes. */
const TABLE_HEAVY = [
  'test/integration/foundation/**/*.test.ts',
  'test/integration/polls/votes.test.ts',
  'test/integration/giveaways/entrants.test.ts',
  'test/integration/reactionroles/concurrency.test.ts',
  'test/integration/invite-tracker/tracker.test.ts',
  'test/integration/verifier/verifier.test.ts',
  'test/integration/serverstats/stats.test.ts',
  'test/integration/welcoming/checks.test.ts',
  'test/integration/socials/announcements.test.ts',
];
const EVERY_TABLE_TEST = ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'];

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
                include: process.env.TEST_DYNAMODB_LOCAL === 'all' ? EVERY_TABLE_TEST : TABLE_HEAVY,
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
