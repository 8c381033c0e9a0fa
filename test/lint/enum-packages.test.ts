import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// eslint.config.js is plain JavaScript (no declarations): its two exports, typed here (the path is
// a string, not a literal, so TypeScript does not look for the module's types).
const CONFIG: string = '../../eslint.config.js';
const { ENUM_PACKAGES, IMPORTS_ENUM_PACKAGE } = (await import(CONFIG)) as {
  ENUM_PACKAGES: string[];
  IMPORTS_ENUM_PACKAGE: RegExp;
};

// eslint.config.js runs @typescript-eslint/no-unsafe-enum-assignment only on the files that import
// a package whose type declarations declare an enum (ENUM_PACKAGES; docs/development.md, "Lint"):
// the project declares none of its own. This keeps that true: no enum in the sources, and every
// imported package that declares one is listed.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIRS = ['src', 'test', 'dashboard/src', 'bench', 'scripts', 'examples', 'migrations'];
const SKIPPED = new Set(['node_modules', 'dist', 'gql', 'fixtures', 'sdk']);

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) yield* sources(path);
    } else if (/\.(?:ts|tsx|mts|cts)$/.test(entry.name)) yield path;
  }
}

/** The packages the sources import (bare specifiers, scope kept), with a file importing each. */
function importedPackages(): Map<string, string> {
  const found = new Map<string, string>();
  const specifier = /(?:\bfrom|\bimport\(?)\s*['"]([^'".][^'"]*)['"]/g;
  for (const dir of DIRS) {
    for (const file of sources(dir)) {
      for (const match of readFileSync(join(ROOT, file), 'utf8').matchAll(specifier)) {
        const name = match[1] ?? '';
        if (name.startsWith('node:')) continue;
        const pkg = name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : (name.split('/')[0] ?? name);
        if (!found.has(pkg)) found.set(pkg, file);
      }
    }
  }
  return found;
}

const ENUM_DECLARATION = /^\s*(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+[A-Za-z_$]/m;

/** Whether a package's own type declarations (not its nested node_modules) declare an enum. */
function declaresEnum(dir: string): boolean {
  const stack = [dir];
  while (stack.length) {
    const current = stack.pop() ?? '';
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') stack.push(path);
      } else if (/\.d\.[cm]?ts$/.test(entry.name) && statSync(path).size < 8_000_000) {
        if (ENUM_DECLARATION.test(readFileSync(path, 'utf8'))) return true;
      }
    }
  }
  return false;
}

function packageDir(name: string): string | undefined {
  const require = createRequire(join(ROOT, 'package.json'));
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    // A package without an exported package.json: its folder under node_modules.
    try {
      return statSync(join(ROOT, 'node_modules', name)).isDirectory() ? join(ROOT, 'node_modules', name) : undefined;
    } catch {
      return undefined;
    }
  }
}

describe('where no-unsafe-enum-assignment runs', () => {
  it('the sources declare no enum of their own', () => {
    const declaring = DIRS.flatMap((dir) => [...sources(dir)]).filter((file) =>
      ENUM_DECLARATION.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(declaring).toEqual([]);
  });

  it('every imported package whose types declare an enum is in ENUM_PACKAGES', () => {
    const missing = [...importedPackages()]
      .filter(([name]) => !ENUM_PACKAGES.includes(name))
      .filter(([name]) => {
        const dir = packageDir(name);
        return dir !== undefined && declaresEnum(dir);
      })
      .map(([name, file]) => `${name} (imported by ${file})`);
    expect(missing).toEqual([]);
  }, 120_000);

  it('reads every form of import', () => {
    for (const line of [
      "import { Kind } from 'graphql';",
      "import type { GraphQLError } from 'graphql';",
      "export { SpanStatusCode } from '@opentelemetry/api';",
      "const { Kind } = await import('graphql');",
      "import { createYoga } from 'graphql-yoga/subpath';",
    ])
      expect(IMPORTS_ENUM_PACKAGE.test(line), line).toBe(true);
    for (const line of ["import { sql } from 'kysely';", "import { x } from './graphql.js';", "from 'graphql-http'"])
      expect(IMPORTS_ENUM_PACKAGE.test(line), line).toBe(false);
  });

  it('still reports a number given where an enum is expected, in a file that imports the enum’s package', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const code =
      "import { SpanStatusCode, type SpanStatus } from '@opentelemetry/api';\n" +
      'const n: number = 7;\n' +
      'export const status: SpanStatus = { code: n };\n' +
      'export const ok = SpanStatusCode.OK;\n';
    // src/kernel/tracing.ts imports @opentelemetry/api, so the rule runs there.
    const [result] = await eslint.lintText(code, { filePath: join(ROOT, 'src/kernel/tracing.ts') });
    expect(result?.messages.map((m) => m.ruleId)).toContain('@typescript-eslint/no-unsafe-enum-assignment');
  }, 180_000);
});
