import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCircular, parseDependencyTree, shortenTree, type DependencyTree } from 'dpdm';
import { beforeAll, describe, expect, it } from 'vitest';

// Import cycles are refused by dpdm (`npm run cycles`), not by ESLint: import-x/no-cycle parsed every
// file an import leads to, on every lint (docs/development.md, "Lint"). `npm run lint` runs the
// cycle check beside ESLint and Prettier (scripts/lint.sh). This keeps that true: the check covers
// every file in src/ (the files import-x/no-cycle covered), `npm run lint` runs it, and it refuses
// the cycle test/lint/boundaries.test.ts used to show import-x/no-cycle refusing.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const scripts = (JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { scripts: Record<string, string> })
  .scripts;

let tree: DependencyTree;
beforeAll(async () => {
  // What `npm run cycles` runs: type imports included (no transform), every file in src/.
  tree = shortenTree(ROOT, await parseDependencyTree('src/**/*.ts', { cwd: ROOT, context: ROOT, transform: false }));
}, 60_000);

describe('the import-cycle check', () => {
  it('covers every file in src/, type imports included, and npm run lint runs it', () => {
    expect(scripts.cycles).toBe("dpdm --no-tree --no-warning --exit-code circular:1 'src/**/*.ts'");
    expect(scripts.lint).toBe('bash scripts/lint.sh');
    expect(readFileSync(`${ROOT}/scripts/lint.sh`, 'utf8')).toContain('npm run --silent cycles');
  });

  it('finds no cycle in src/ as it is', () => {
    expect(Object.keys(tree)).toContain('src/modules/catalog/catalog.rules.ts');
    expect(parseCircular(tree)).toEqual([]);
  });

  it('refuses a cycle between modules (catalog importing bookings, which depends on catalog)', () => {
    const issuer = 'src/modules/catalog/catalog.rules.ts';
    // One more import: a copy of the file's first one, aimed at bookings' index.ts.
    const imports = tree[issuer] ?? [];
    expect(imports.length).toBeGreaterThan(0);
    const edge = { ...imports[0], issuer, request: '../bookings/index.js', id: 'src/modules/bookings/index.ts' };
    const withCycle: DependencyTree = { ...tree, [issuer]: [...imports, edge] };
    expect(parseCircular(withCycle).some((cycle) => cycle.includes(issuer))).toBe(true);
  });
});
