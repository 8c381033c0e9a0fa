import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';


// One worker runs every file in one module graph (isolate: false), so the suite opens one
// database per run: a fresh in-memory PGlite, or a fresh PostgreSQL database made by the global
// setup when DATABASE_URL is set. Tests make their own tenants, so they never share rows.
export default defineConfig({
  resolve: {
    // graphql 16 ships index.mjs (vite's pick) and index.js (what Node, and so every library in
    // node_modules, loads). Two copies break `instanceof` checks on schema types; use Node's one.
    alias: [{ find: /^graphql$/, replacement: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) }],
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
