import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

// One worker runs every file in one module graph (isolate: false), so the suite opens one
// database per run: a fresh in-memory PGlite, or a fresh PostgreSQL database made by the global
// setup when DATABASE_URL is set. Tests make their own tenants, so they never share rows.
export default defineConfig({
  resolve: {
    // graphql 16 ships a CommonJS and an ES module copy. Node (npm start) loads the CommonJS one
    // everywhere; vite would hand our sources the ES module copy while yoga and graphql-tools
    // get the CommonJS one, and `instanceof GraphQLError` across the two fails (errors masked
    // as 500). Pin the copy Node uses so tests run what production runs.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    isolate: false,
    maxWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
