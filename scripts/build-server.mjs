// `npm run build:server`: compiles src/ and migrations/ to dist/ and copies the GraphQL schema the
// server reads at start-up beside them. dist/ is rebuilt from scratch so no stale file survives.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist`;
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], { stdio: 'inherit', cwd: root });
cpSync(`${root}schema`, `${dist}/schema`, { recursive: true });
// The API reference's renderer (the @scalar/api-reference standalone browser bundle), copied as a
// file the server serves as is (src/transport/rest/docs-page.ts PREBUILT_BUNDLE): the built server
// imports nothing of the package, so it is a devDependency and a production install carries
// neither it nor the TypeScript it brings. Not a .js file: scripts/runtime-imports.mjs reads those
// as the server's code, and this is the browser's.
mkdirSync(`${dist}/vendor`, { recursive: true });
copyFileSync(
  createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'),
  `${dist}/vendor/scalar-api-reference.standalone.txt`,
);
// The end-to-end tests rebuild when a source file is newer than this stamp.
writeFileSync(`${dist}/.built`, `${new Date().toISOString()}\n`);
