import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { harness, type Harness, type TestResponse } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { openDatabase, type Database } from '../src/kernel/db/database.js';
import { migrateToLatest } from '../src/kernel/db/migrate.js';
import { createTenant } from '../src/modules/tenants/index.js';

// Issue #23, finding 2: a replayed answer that carries a one-time secret (a new API key, an OAuth
// client secret on create and rotation, a device activation code, a generated webhook secret) sat
// readable in idempotency_keys for 24 hours — in pg_dump and in the PGlite data directory. Kept
// answers are now sealed (AES-256-GCM, a key derived from PORTIER_SECRET with HKDF). This sweep
// creates every kind of secret with an Idempotency-Key, checks each replay still gives it, and
// finds none of them in the database's dump (PostgreSQL) or files (PGlite on disk), nor in the logs.

let h: Harness;
let database: Database;
let dataDir: string | undefined;
let o: OwnApp;
let tenantId: string;
let adminKey: string;
let postgresUrl: string | undefined;

beforeAll(async () => {
  h = await harness();
  postgresUrl = h.deps.env.databaseUrl;
  if (postgresUrl) {
    database = h.deps.database;
  } else {
    // PGlite on a directory of its own, so its files can be searched byte by byte.
    dataDir = mkdtempSync(join(tmpdir(), 'portier-secrets-'));
    database = await openDatabase({ pgliteDir: dataDir });
    await migrateToLatest(database.db);
  }
  o = await ownApp({ ...h, deps: { ...h.deps, database } }, { logLevel: 'debug' });
  const created = await database.db.transaction().execute((trx) => createTenant(trx, `Sweep ${randomUUID()}`));
  tenantId = created.tenant.id;
  adminKey = created.apiKey;
}, 400_000);

let closed = false;
afterAll(async () => {
  if (!closed) await o?.close();
  if (dataDir) {
    if (!closed) await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** Sends the request twice with one Idempotency-Key: the second is the replay of the first. */
async function twice(send: (key: string) => Promise<TestResponse>): Promise<[TestResponse, TestResponse]> {
  const key = randomUUID();
  const first = await send(key);
  const replay = await send(key);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(replay.status).toBe(first.status);
  expect(replay.text).toBe(first.text);
  return [first, replay];
}

const gql = (query: string, variables: Record<string, unknown>) => (key: string) =>
  o.request({
    method: 'POST',
    url: '/api/v1/graphql',
    apiKey: adminKey,
    headers: { 'idempotency-key': key },
    body: { query, variables },
  });

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('one-time secrets in kept idempotent answers (issue #23, finding 2)', () => {
  it(
    'finding 2: every kind of one-time secret, created with an Idempotency-Key, replays correctly and is nowhere readable (dump or data files, logs)',
    { timeout: 300_000 },
    async () => {
      const secrets: Record<string, string> = {};
      const data = (res: TestResponse) => (res.body as { data: Record<string, Record<string, unknown>> }).data;

      // createApiKey (GraphQL)
      const [apiKey] = await twice(
        gql('mutation($n: String!) { createApiKey(name: $n, scopes: ["bookings:read"]) { apiKey } }', { n: 'sweep' }),
      );
      secrets.createApiKey = String(data(apiKey).createApiKey.apiKey);

      // createOAuthApp and rotateOAuthAppSecret (GraphQL)
      const appName = `Sweep app ${randomUUID()}`;
      const [oauthApp] = await twice(
        gql(
          'mutation($n: String!) { createOAuthApp(name: $n, redirectUris: ["https://sweep.example.test/cb"], scopes: ["bookings:read"]) { clientSecret app { clientId } } }',
          {
            n: appName,
          },
        ),
      );
      secrets.createOAuthApp = String(data(oauthApp).createOAuthApp.clientSecret);
      const clientId = (data(oauthApp).createOAuthApp.app as { clientId: string }).clientId;
      const [rotatedApp] = await twice(
        gql('mutation($id: ID!) { rotateOAuthAppSecret(clientId: $id) { clientSecret } }', { id: clientId }),
      );
      secrets.rotateOAuthAppSecret = String(data(rotatedApp).rotateOAuthAppSecret.clientSecret);

      // registerDevice: the activation code (GraphQL)
      const door = await o.graphql(adminKey, 'mutation { createDoor(name: "Sweep door", gpioPin: 4) { id } }');
      const doorId = data(door).createDoor.id as string;
      const [device] = await twice(
        gql(
          'mutation($d: ID!) { registerDevice(name: "Sweep device", doorIds: [$d]) { activationCode device { id } } }',
          { d: doorId },
        ),
      );
      secrets.registerDevice = String(data(device).registerDevice.activationCode);

      // a generated webhook secret: rotateWebhookSecret without a secret, on GraphQL and on REST
      const webhookSecret = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
      const [hook] = await twice((key) =>
        o.request({
          method: 'POST',
          url: `/api/v1/tenants/${tenantId}/webhooks`,
          apiKey: adminKey,
          headers: { 'idempotency-key': key },
          body: { url: 'https://hooks.sweep.example.test/portier', events: ['booking.created'], secret: webhookSecret },
        }),
      );
      secrets.createWebhook = webhookSecret; // chosen by the client: never returned, never kept
      const webhookId = (hook.body as { webhook: { id: string } }).webhook.id;
      const [rotatedHook] = await twice(
        gql('mutation($id: ID!) { rotateWebhookSecret(webhookId: $id) { secret } }', { id: webhookId }),
      );
      secrets.rotateWebhookSecret = String(data(rotatedHook).rotateWebhookSecret.secret);
      const [restRotated] = await twice((key) =>
        o.request({
          method: 'POST',
          url: `/api/v1/tenants/${tenantId}/webhooks/${webhookId}/rotate-secret`,
          apiKey: adminKey,
          headers: { 'idempotency-key': key },
          body: {},
        }),
      );
      secrets['POST /webhooks/{id}/rotate-secret'] = (restRotated.body as { secret: string }).secret;

      for (const [kind, secret] of Object.entries(secrets)) expect(secret.length, kind).toBeGreaterThanOrEqual(8);
      expect(secrets.createApiKey).toMatch(/^svc_/);
      expect(secrets.rotateWebhookSecret).toMatch(/^whsec_/);

      // The answers are kept (the replays above came from them), sealed.
      const kept = await database.db
        .selectFrom('idempotency_keys')
        .select(['body'])
        .where('tenant_id', '=', tenantId)
        .where('state', '=', 'done')
        .execute();
      expect(kept.length).toBe(7);
      for (const row of kept) expect(row.body).toMatch(/^a2\./);

      // Nowhere readable: the dump (PostgreSQL) or every file of the data directory (PGlite)…
      let haystack: Buffer;
      if (postgresUrl) {
        haystack = execFileSync('pg_dump', ['--data-only', postgresUrl], { maxBuffer: 1024 * 1024 * 1024 });
      } else {
        // every write on disk: the WAL and the tables' own files
        await sql`CHECKPOINT`.execute(database.db);
        await o.close();
        await database.close();
        closed = true;
        haystack = Buffer.concat(filesUnder(dataDir ?? '').map((file) => readFileSync(file)));
      }
      // (the search does find what is stored readable: the app's name)
      expect(haystack.includes(Buffer.from(appName))).toBe(true);
      for (const [kind, secret] of Object.entries(secrets))
        expect(haystack.includes(Buffer.from(secret)), `${kind} is readable in the database`).toBe(false);
      // …nor in the logs (debug level).
      const logs = o.logs.join('\n');
      expect(logs.length).toBeGreaterThan(0);
      for (const [kind, secret] of Object.entries(secrets))
        expect(logs.includes(secret), `${kind} is in the logs`).toBe(false);
    },
  );
});
