// Lists the packages the built server (dist/) imports and fails when one is not a runtime
// dependency: a production install (npm ci --omit=dev, or npm prune --omit=dev) has no devDependencies.
//   node scripts/runtime-imports.mjs [project directory]
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const { dependencies = {} } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const builtins = new Set(builtinModules);

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.js')) yield path;
  }
}

const used = new Map();
// Static imports and re-exports, and dynamic import('…') with a literal specifier. A specifier holds
// no white space, so prose in a kept comment ("the import's transaction. */") is not read as one.
const pattern =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"\s]+)['"]|(?:^|[\s;])import\s*['"]([^'"\s]+)['"]|import\(\s*['"]([^'"\s]+)['"]\s*\)/gm;
for (const file of files(join(root, 'dist'))) {
  for (const match of readFileSync(file, 'utf8').matchAll(pattern)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    if (specifier.startsWith('.') || specifier.startsWith('node:') || specifier.startsWith('/')) continue;
    const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
    if (builtins.has(name)) continue;
    if (!used.has(name)) used.set(name, file.slice(root.length + 1));
  }
}
const missing = [...used].filter(([name]) => !(name in dependencies));
console.log(`dist/ imports ${used.size} packages: ${[...used.keys()].sort().join(', ')}`);
if (missing.length) {
  for (const [name, file] of missing) console.error(`${name} (imported by ${file}) is not in "dependencies"`);
  process.exit(1);
}
