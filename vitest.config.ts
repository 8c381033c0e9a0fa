import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Files that start processes (the compiled server, the CLI, the worker), browsers or tools. */
const E2E = ['test/e2e/**/*.test.ts', 'test/lint/**/*.test.ts', 'test/server-process.test.ts', 'test/shutdown.test.ts', 'test/cli.test.ts', 'test/rate-limit-redis.test.ts'];

// Three projects (docs/architecture.md, "Tests"):
// - unit: pure logic next to the code (src/**/*.test.ts); no database, seconds (`npm run test:unit`).
// - integration: in-process HTTP and GraphQL on a real database (test/**/*.test.ts). One worker
//   runs every file in one module graph (isolate: false), so the run opens one database: a fresh
//   in-memory PGlite, or a fresh PostgreSQL database made by the global setup when DATABASE_URL is
//   set. Tests make their own tenants, so they never share rows.
// - e2e: spawned processes (the compiled server, rebuilt first when a source is newer than
//   dist/), browsers and the lint configuration; each file in a fresh worker (isolate), so what
//   they load (the lint's TypeScript program) never weighs on the integration worker.
// `npm test` runs all three.
export default defineConfig({
  resolve: {
    // graphql 16 ships index.mjs (vite's pick) and index.js (what Node, and so every library in
    // node_modules, loads). Two copies break `instanceof` checks on schema types; use Node's one.
    alias: [{ find: /^graphql$/, replacement: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) }],
  },
  test: {
    pool: 'forks',
    fileParallelism: false,
    isolate: false,
    maxWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: E2E, globalSetup: ['test/global-setup.ts'] } },
      {
        extends: true,
        // A spawned process opens its own PGlite: about a minute on a busy 2-core machine, so the hooks that start several get long limits.
        test: { name: 'e2e', include: E2E, isolate: true, globalSetup: ['test/global-setup.ts', 'test/build-setup.ts'], testTimeout: 300_000, hookTimeout: 600_000 },
      },
    ],
  },
});
