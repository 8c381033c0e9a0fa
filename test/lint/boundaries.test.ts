import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// A test of the lint configuration itself: the boundary rules must refuse what they are there to
// refuse. Each case lints a snippet as if it were the named (existing) file, with the real config.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

async function rulesBroken(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}/${file}` });
  return result.messages.filter((m) => m.severity === 2).map((m) => m.ruleId ?? m.message);
}

// The first lint builds the TypeScript program: slow on a busy machine.
beforeAll(async () => {
  await rulesBroken('src/env.ts', 'export {};\n');
}, 180_000);

describe('the lint configuration', () => {
  it('refuses a cross-module repository import', async () => {
    const code = "import { findObject } from '../catalog/catalog.repository.js';\nexport const lookUp = findObject;\n";
    expect(await rulesBroken('src/modules/pricing/quote.ts', code)).toContain('import-x/no-restricted-paths');
  });

  it('allows the same read through the module’s public face', async () => {
    const code = "import { findObject } from '../catalog/index.js';\nexport const lookUp = findObject;\n";
    expect(await rulesBroken('src/modules/pricing/quote.ts', code)).toEqual([]);
  });

  it('refuses a layer outside src/modules reaching past a public face', async () => {
    const code = "import { findBooking } from '../modules/bookings/bookings.repository.js';\nexport const lookUp = findBooking;\n";
    expect(await rulesBroken('src/http/health.ts', code)).toContain('import-x/no-restricted-paths');
  });

  it('refuses a cycle between modules', async () => {
    // bookings depends on catalog; catalog importing bookings closes a circle.
    const code = "import { getBooking } from '../bookings/index.js';\nexport const lookUp = getBooking;\n";
    expect(await rulesBroken('src/modules/catalog/catalog.rules.ts', code)).toContain('import-x/no-cycle');
  });

  it('refuses process.env outside src/env.ts', async () => {
    expect(await rulesBroken('src/logger.ts', 'export const level = process.env.LOG_LEVEL;\n')).toContain('no-restricted-properties');
  });
});
