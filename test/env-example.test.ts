import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './processes.js';
import { readEnv } from '../src/kernel/env.js';

// .env.example at the repository root lists every environment variable Portier reads, with its
// default. src/kernel/env.ts is the only reader (STYLE habit 7); this test reads its source for the
// names it reads, so a new variable that is not added to .env.example (and docs/configuration.md)
// fails here.

const ENV_TS = readFileSync(join(ROOT, 'src', 'kernel', 'env.ts'), 'utf8');
const EXAMPLE = readFileSync(join(ROOT, '.env.example'), 'utf8');
const CONFIGURATION = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');

/** The names env.ts reads: `source.NAME`, `source['NAME']`, `process.env.NAME`, `process.env['NAME']`. */
function namesRead(code: string): Set<string> {
  const names = new Set<string>();
  for (const match of code.matchAll(
    /\b(?:source|process\.env)(?:\.([A-Z][A-Z0-9_]*)|\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\])/g,
  ))
    names.add(match[1] ?? match[2]);
  return names;
}

/** The example's entries: `NAME=value` (a default) or `# NAME=…` (unset by default). */
function entries(text: string): Map<string, { value: string; set: boolean; comment: string }> {
  const out = new Map<string, { value: string; set: boolean; comment: string }>();
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const match = /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) return;
    const previous = lines[i - 1] ?? '';
    out.set(match[2], {
      value: match[3],
      set: match[1] === undefined,
      comment: previous.startsWith('# ') && !/^#\s*[A-Z][A-Z0-9_]*=/.test(previous) ? previous : '',
    });
  });
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('.env.example', () => {
  const read = namesRead(ENV_TS);
  const listed = entries(EXAMPLE);

  it('finds what env.ts reads (the scan itself works)', () => {
    expect(read.size).toBeGreaterThanOrEqual(25);
    for (const name of ['PORT', 'DATABASE_URL', 'STRIPE_SECRET_KEY', 'SMTP_URL', 'SMS_AUTH_TOKEN'])
      expect(read).toContain(name);
    expect(namesRead("const a = source.NEW_ONE; const b = process.env['OTHER'];")).toEqual(
      new Set(['NEW_ONE', 'OTHER']),
    );
  });

  it('lists every variable env.ts reads, each with a one-line comment, and none it does not read', () => {
    expect(
      [...read].filter((name) => !listed.has(name)).sort(),
      'read by src/kernel/env.ts but missing from .env.example',
    ).toEqual([]);
    expect([...listed.keys()].filter((name) => !read.has(name)).sort(), 'listed in .env.example but not read').toEqual(
      [],
    );
    expect(
      [...listed].filter(([, entry]) => entry.comment === '').map(([name]) => name),
      'entries without a comment line above them',
    ).toEqual([]);
  });

  it('documents every variable in docs/configuration.md too', () => {
    expect([...read].filter((name) => !CONFIGURATION.includes(`\`${name}\``)).sort()).toEqual([]);
  });

  it('shows the real defaults: setting a listed value alone changes nothing', () => {
    const defaults = readEnv({});
    for (const [name, entry] of listed) {
      if (!entry.set) continue;
      expect(readEnv({ [name]: entry.value }), `${name}=${entry.value}`).toEqual(defaults);
    }
  });

  it('leaves env.ts the only reader of process.env under src/', () => {
    const readers = sourceFiles(join(ROOT, 'src'))
      .filter((file) => !file.endsWith(join('kernel', 'env.ts')))
      .filter((file) => /\bprocess\.env\b/.test(readFileSync(file, 'utf8')));
    expect(readers.map((file) => file.slice(ROOT.length))).toEqual([]);
  });
});
