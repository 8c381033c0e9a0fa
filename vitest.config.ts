import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Files that start processes (the compiled server, the CLI, the worker), browsers or tools. */
const E2E = [
  'test/e2e/**/*.test.ts',
  'test/lint/**/*.test.ts',
  'test/server-process.test.ts',
  'test/shutdown.test.ts',
  'test/connection-flood.test.ts',
  'test/cli.test.ts',
  'test/rate-limit-redis.test.ts',
];

/**
 * How many integration workers run at once: PORTIER_TEST_WORKERS when set (1 runs the files one
 * after another), else one per core the machine offers (os.availableParallelism()), at most 4 —
 * beyond that the workers wait on the one database server and the vitest process instead.
 */
function integrationWorkers(): number {
  const asked = process.env.PORTIER_TEST_WORKERS;
  if (asked !== undefined && asked !== '') {
    const count = Number(asked);
    if (!Number.isInteger(count) || count < 1)
      throw new Error(`PORTIER_TEST_WORKERS must be a whole number from 1, not ${JSON.stringify(asked)}`);
    return count;
  }
  return Math.min(Math.max(availableParallelism(), 1), 4);
}

// Three projects (docs/architecture.md, "Tests"), run one after the other:
// - unit: pure logic next to the code (src/**/*.test.ts); no database, seconds (`npm run test:unit`).
//   One worker runs every file in one module graph (isolate: false).
// - integration: in-process HTTP and GraphQL on a real database (test/**/*.test.ts), files spread
//   over integrationWorkers() forks. A fork does not isolate the files it runs (isolate: false):
//   they share its modules and so one harness (test/harness.ts) and one database of its own — a
//   fresh in-memory PGlite, or on PostgreSQL a copy of the run's migrated template database
//   (test/global-setup.ts, test/worker-services.ts) — and a Redis key prefix of its own. Tests make
//   their own tenants, so files sharing a worker never share rows either.
// - e2e: spawned processes (the compiled server, rebuilt first when a source is newer than
//   dist/), browsers and the lint configuration; one file at a time, each in a fresh worker
//   (isolate), so what they load (the lint's TypeScript program) never weighs on the others.
// `npm test` runs all three.
export default defineConfig({
  resolve: {
    // graphql 16 ships index.mjs (vite's pick) and index.js (what Node, and so every library in
    // node_modules, loads). Two copies break `instanceof` checks on schema types; use Node's one.
    alias: [
      { find: /^graphql$/, replacement: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) },
    ],
  },
  test: {
    pool: 'forks',
    isolate: false,
    maxWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: E2E,
          globalSetup: ['test/global-setup.ts'],
          maxWorkers: integrationWorkers(),
          // Long limits: workers take each other's time on a busy machine, and a worker's first file
          // waits for its database (a fresh PGlite and its migrations, or a copy of the template).
          testTimeout: 120_000,
          hookTimeout: 300_000,
          // Its own group: projects with different worker counts cannot share one.
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        // A spawned process opens its own PGlite: about a minute on a busy 2-core machine, so the hooks that start several get long limits.
        test: {
          name: 'e2e',
          include: E2E,
          isolate: true,
          globalSetup: ['test/global-setup.ts', 'test/build-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 600_000,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
