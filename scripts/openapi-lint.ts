// `npm run openapi:lint`: builds the app in this process (in-memory PGlite, no network, no port),
// takes the document GET /api/openapi.json serves, writes it to a temporary file and runs
// `redocly lint --extends=recommended` on it. Exits with redocly's status (non-zero on any error;
// warnings are printed and allowed). `--out FILE` keeps the document at FILE instead.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import pino from 'pino';
import { openDatabase } from '../src/kernel/db/database.js';
import { migrateToLatest } from '../src/kernel/db/migrate.js';
import { readEnv } from '../src/kernel/env.js';
import { ServerSecret, randomToken } from '../src/kernel/crypto.js';
import { composeDeps } from '../src/app/deps.js';
import { buildApp } from '../src/transport/http/app.js';
import { memoryLimiterStore } from '../src/kernel/limits/index.js';
import { buildGuessLimits } from '../src/app/guess-limits.js';
import { OPENAPI_PATH } from '../src/transport/http/docs.js';

/** The served document, as text. */
async function servedDocument(publicUrl = 'https://portier.example.org'): Promise<string> {
  const database = await openDatabase({ pgliteDir: 'memory://' });
  await migrateToLatest(database.db);
  const env = {
    ...readEnv({ PORT: '0', PUBLIC_URL: publicUrl, LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS: '0' }),
    pgliteDir: 'memory://',
  };
  const deps = composeDeps({
    database,
    env,
    secret: new ServerSecret(randomToken(32)),
    log: pino({ level: 'silent' }),
    now: () => new Date(),
    limits: buildGuessLimits(memoryLimiterStore()),
  });
  const app = await buildApp(deps, { loadShedding: { maxEventLoopDelay: 0 } });
  try {
    await app.fastify.ready();
    const res = await app.fastify.inject({ method: 'GET', url: OPENAPI_PATH });
    if (res.statusCode !== 200) throw new Error(`GET ${OPENAPI_PATH} answered ${res.statusCode}`);
    return res.body;
  } finally {
    await app.fastify.close();
    await database.close();
  }
}

const outAt = process.argv.indexOf('--out');
const keep = outAt > 0 ? process.argv[outAt + 1] : undefined;
const dir = keep ? undefined : mkdtempSync(join(tmpdir(), 'portier-openapi-'));
const file = keep ?? join(dir as string, 'openapi.json');
// Indented, so redocly's line numbers point somewhere readable.
writeFileSync(file, JSON.stringify(JSON.parse(await servedDocument()), null, 2));
const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
// No telemetry, no update check: the lint runs offline.
const result = spawnSync(process.execPath, [cli, 'lint', '--extends=recommended', '--format=stylish', file], {
  stdio: 'inherit',
  // eslint-disable-next-line no-restricted-properties -- a child process gets this process's environment (PATH, HOME) plus the switches
  env: {
    ...process.env,
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    REDOCLY_CLI_TELEMETRY: 'off',
  },
});
if (dir) rmSync(dir, { recursive: true, force: true });
process.exit(result.status ?? 1);
