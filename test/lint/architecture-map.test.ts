import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MODULES } from '../../src/app/modules.js';
import { DOC, withMap } from '../../scripts/arch-map.js';

// The module map in docs/architecture.md is the module list's: `npm run arch:map` writes it.
describe('docs/architecture.md', () => {
  it('shows the module map of src/app/modules.ts, every module included', () => {
    const document = readFileSync(DOC, 'utf8');
    expect(document).toBe(withMap(document, MODULES));
    for (const m of MODULES) expect(document).toContain(`| ${m.name} |`);
  });
});
