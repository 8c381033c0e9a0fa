// `npm run arch:map`: writes the module map of docs/architecture.md (between the markers below)
// from the module list, src/app/modules.ts; `--check` fails when the document differs
// (test/lint/architecture-map.test.ts runs the check).
import { readFileSync, writeFileSync } from 'node:fs';
import { MODULES } from '../src/app/modules.js';
import type { PortierModule } from '../src/kernel/module.js';

export const DOC = new URL('../docs/architecture.md', import.meta.url);
const BEGIN = '<!-- module-map:begin (npm run arch:map writes this block from src/app/modules.ts) -->';
const END = '<!-- module-map:end -->';

/** The map as Markdown: one row per module, in the list's order. */
export function moduleMap(modules: readonly PortierModule[]): string {
  const rows = modules.map((m) => {
    const parts = [
      m.resolvers ? 'resolvers' : '',
      m.loaders ? 'loaders' : '',
      m.routes ? 'routes' : '',
      m.importSections ? `import: ${Object.keys(m.importSections).join(', ')}` : '',
      m.jobs?.length ? `jobs: ${m.jobs.map((job) => job.name).join(', ')}` : '',
    ].filter(Boolean);
    const dependsOn = m.dependsOn.length ? m.dependsOn.join(', ') : '—';
    return `| ${m.name} | ${dependsOn} | ${(m.typeDefs ?? []).join(', ') || '—'} | ${parts.join('; ') || '—'} |`;
  });
  return [
    BEGIN,
    '',
    '| Module | Depends on (`dependsOn`) | SDL (`schema/`) | Adds |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    END,
  ].join('\n');
}

/** The document with its block replaced by the map of `modules`. */
export function withMap(document: string, modules: readonly PortierModule[]): string {
  const start = document.indexOf(BEGIN);
  const end = document.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/architecture.md has no ${BEGIN} … ${END} block`);
  return document.slice(0, start) + moduleMap(modules) + document.slice(end + END.length);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  const current = readFileSync(DOC, 'utf8');
  const wanted = withMap(current, MODULES);
  if (process.argv.includes('--check')) {
    if (current !== wanted) {
      console.error('docs/architecture.md: the module map differs from src/app/modules.ts; run `npm run arch:map`');
      process.exit(1);
    }
  } else if (current !== wanted) writeFileSync(DOC, wanted);
}
