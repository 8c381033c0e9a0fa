// `npm run build:server`: compiles src/ and migrations/ to dist/ and copies the GraphQL schema the
// server reads at start-up beside them. dist/ is rebuilt from scratch so no stale file survives.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist`;
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], { stdio: 'inherit', cwd: root });
cpSync(`${root}schema`, `${dist}/schema`, { recursive: true });
// The end-to-end tests rebuild when a source file is newer than this stamp.
writeFileSync(`${dist}/.built`, `${new Date().toISOString()}\n`);
