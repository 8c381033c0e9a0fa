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
  await rulesBroken('src/kernel/env.ts', 'export {};\n');
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
    const code =
      "import { findBooking } from '../../modules/bookings/bookings.repository.js';\nexport const lookUp = findBooking;\n";
    expect(await rulesBroken('src/transport/http/health.ts', code)).toContain('import-x/no-restricted-paths');
  });

  // Import cycles: dpdm (`npm run cycles`, run by `npm run lint`), test/lint/cycles.test.ts.

  it('refuses process.env outside src/kernel/env.ts', async () => {
    expect(await rulesBroken('src/kernel/logger.ts', 'export const level = process.env.LOG_LEVEL;\n')).toContain(
      'no-restricted-properties',
    );
  });
  // Direction between modules: derived from each module's defineModule({ dependsOn }).
  it('refuses a module importing a module it does not declare (catalog → webhooks)', async () => {
    const code = "import { recordEvent } from '../webhooks/index.js';\nexport const record = recordEvent;\n";
    const broken = await rulesBroken('src/modules/catalog/catalog.service.ts', code);
    expect(broken).toContain('import-x/no-restricted-paths');
  });

  it('allows a module importing the index.ts of a module it declares (bookings → webhooks)', async () => {
    const code = "import { recordEvent } from '../webhooks/index.js';\nexport const record = recordEvent;\n";
    expect(await rulesBroken('src/modules/bookings/reschedule.ts', code)).toEqual([]);
  });

  it('refuses a declared dependency reached past its index.ts (bookings → webhooks internals)', async () => {
    const code = "import { recordEvent } from '../webhooks/outbox.js';\nexport const record = recordEvent;\n";
    expect(await rulesBroken('src/modules/bookings/reschedule.ts', code)).toContain('import-x/no-restricted-paths');
  });

  // Layers.
  it('refuses the kernel importing transport (paging → cors)', async () => {
    const code = "import { registerCors } from '../transport/http/cors.js';\nexport const cors = registerCors;\n";
    expect(await rulesBroken('src/kernel/paging.ts', code)).toContain('import-x/no-restricted-paths');
  });

  it('refuses the kernel importing a module', async () => {
    const code =
      "import { ONLINE_WINDOW_SECONDS } from '../modules/devices/index.js';\nexport const window = ONLINE_WINDOW_SECONDS;\n";
    expect(await rulesBroken('src/kernel/metrics.ts', code)).toContain('import-x/no-restricted-paths');
  });

  it('refuses a module importing transport', async () => {
    const code = "import { GRAPHQL_PATH } from '../../transport/graphql/yoga.js';\nexport const path = GRAPHQL_PATH;\n";
    expect(await rulesBroken('src/modules/bookings/reschedule.ts', code)).toContain('import-x/no-restricted-paths');
  });

  it('refuses a module importing the application layer', async () => {
    const code = "import { MODULES } from '../../app/modules.js';\nexport const all = MODULES;\n";
    expect(await rulesBroken('src/modules/bookings/reschedule.ts', code)).toContain('import-x/no-restricted-paths');
  });

  // The type-aware rules, in each of the lint's blocks (src/, test/, the dashboard): a promise left
  // floating is caught everywhere (typescript-eslint's no-floating-promises needs the types).
  const FLOATING = 'async function later(): Promise<number> {\n  return 1;\n}\nlater();\nexport {};\n';
  it.each(['src/kernel/paging.ts', 'test/devices.test.ts', 'dashboard/src/format.ts', 'bench/run.ts'])(
    'refuses a floating promise in %s',
    async (file) => {
      expect(await rulesBroken(file, FLOATING)).toContain('@typescript-eslint/no-floating-promises');
    },
    120_000,
  );

  it('refuses transport importing the application layer (only src/app knows every module)', async () => {
    const code = "import { MODULES } from '../../app/modules.js';\nexport const all = MODULES;\n";
    expect(await rulesBroken('src/transport/http/health.ts', code)).toContain('import-x/no-restricted-paths');
  });
});
