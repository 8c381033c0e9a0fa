import { composeDeps } from '../src/app/deps.js';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { harness, type Harness } from './harness.js';
import { databaseSettings, runCli, tempDir, type Finished } from './processes.js';
import { openDatabase, type Database } from '../src/kernel/db/database.js';
import { buildApp, type App } from '../src/transport/http/app.js';
import { sha256 } from '../src/kernel/crypto.js';

// The CLI runs as a real process with the suite's database settings. Its commands run once, in
// order, in beforeAll (each spawn costs seconds on PGlite); each test then checks one outcome
// against the database the CLI wrote to (on PGlite: its directory, opened here afterwards).

const CATALOG = {
  accommodations: [
    {
      key: 'park',
      name: 'Sportpark Nord',
      address: 'Hauptstrasse 1, 10115 Berlin',
      timeZone: 'Europe/Berlin',
      objects: [
        {
          key: 'court1',
          name: 'Court 1',
          pricePerHour: 2000,
          openingHours: { monday: { open: '08:00', close: '22:00' } },
          specialDates: [{ date: '2026-12-24', closed: true, reason: 'Christmas Eve' }],
          bookingRules: {
            minDurationMinutes: 60,
            maxDurationMinutes: 180,
            slotIncrementMinutes: 60,
            minAdvanceMinutes: 0,
            maxAdvanceDays: 90,
            bufferMinutes: 0,
          },
        },
        { key: 'court2', name: 'Court 2', pricePerHour: 1500 },
      ],
    },
  ],
  doors: [
    {
      key: 'gate',
      name: 'Main gate',
      gpioPin: 17,
      unlockDurationSeconds: 5,
      behavior: 'unlock_per_scan',
      objects: ['court1', 'court2'],
    },
  ],
};

// Valid until its last object: everything before it would be written without the transaction.
const BAD_CATALOG = {
  accommodations: [
    {
      key: 'first',
      name: 'Rollback Park',
      address: 'Weg 1',
      timeZone: 'Europe/Berlin',
      objects: [{ key: 'a', name: 'Rollback Court', pricePerHour: 1000 }],
    },
    {
      key: 'second',
      name: 'Rollback Hall',
      address: 'Weg 2',
      timeZone: 'Europe/Berlin',
      objects: [
        {
          key: 'hall1',
          name: 'Hall 1',
          pricePerHour: 1000,
          openingHours: { tuesday: { open: '20:00', close: '09:00' } },
        },
      ],
    },
  ],
};

const UNSUPPORTED_CATALOG = {
  accommodations: [{ key: 'x', name: 'Unsupported Park', address: 'Weg 3', timeZone: 'Europe/Berlin' }],
  rooms: [{ key: 'r1', name: 'Sauna' }],
};

let h: Harness;
let target: { database: Database; app: App; ownDatabase: boolean };
let settings: Awaited<ReturnType<typeof databaseSettings>>;
const run: Record<string, Finished> = {};
const dirs: string[] = [];
const json = (result: Finished) => JSON.parse(result.stdout);

beforeAll(async () => {
  h = await harness();
  settings = await databaseSettings();
  const files = tempDir('import');
  dirs.push(files, ...(settings.pgliteDir ? [settings.pgliteDir] : []));
  const write = (name: string, content: unknown) => {
    const path = join(files, name);
    writeFileSync(path, JSON.stringify(content));
    return path;
  };

  run.usage = await runCli(['tenant', 'create'], settings.env);
  run.tenant = await runCli(['tenant', 'create', '--name', 'CLI Club'], settings.env);
  const { tenantId } = json(run.tenant);
  run.apikey = await runCli(
    [
      'apikey',
      'create',
      '--tenant',
      tenantId,
      '--name',
      'Catalog sync',
      '--scopes',
      'catalog:read,bookings:read',
      '--rate-limit',
      '50',
    ],
    settings.env,
  );
  run.import = await runCli(['import', '--tenant', tenantId, write('catalog.json', CATALOG)], settings.env);
  run.bad = await runCli(['import', '--tenant', tenantId, write('bad.json', BAD_CATALOG)], settings.env);
  run.unsupported = await runCli(
    ['import', '--tenant', tenantId, write('unsupported.json', UNSUPPORTED_CATALOG)],
    settings.env,
  );
  run.user = await runCli(
    [
      'user',
      'create',
      '--tenant',
      tenantId,
      '--email',
      'Owner@CLI-Club.example',
      '--password',
      'a long enough password',
    ],
    settings.env,
  );
  run.staff = await runCli(
    [
      'user',
      'create',
      '--tenant',
      tenantId,
      '--email',
      'desk@cli-club.example',
      '--password',
      'another long password',
      '--role',
      'staff',
    ],
    settings.env,
  );
  run.userRole = await runCli(
    [
      'user',
      'create',
      '--tenant',
      tenantId,
      '--email',
      'x@cli-club.example',
      '--password',
      'a long enough password',
      '--role',
      'owner',
    ],
    settings.env,
  );
  // Issue #41: the publishable key, on a tenant of its own.
  run.pkTenant = await runCli(['tenant', 'create', '--name', 'CLI Venue'], settings.env);
  const pkTenant = json(run.pkTenant).tenantId as string;
  run.pkFirst = await runCli(['apikey', 'create', '--tenant', pkTenant, '--publishable'], settings.env);
  run.pkSecond = await runCli(
    ['apikey', 'create', '--tenant', pkTenant, '--publishable', '--rate-limit', '600'],
    settings.env,
  );
  run.pkScopes = await runCli(
    ['apikey', 'create', '--tenant', pkTenant, '--publishable', '--scopes', 'admin'],
    settings.env,
  );

  if (settings.pgliteDir) {
    const database = await openDatabase({ pgliteDir: settings.pgliteDir });
    target = {
      database,
      app: await buildApp(composeDeps({ ...h.deps, database }), { loadShedding: { maxEventLoopDelay: 0 } }),
      ownDatabase: true,
    };
  } else {
    target = { database: h.deps.database, app: h.app, ownDatabase: false };
  }
}, 900_000); // thirteen CLI processes, most opening the database: minutes on a busy machine

afterAll(async () => {
  if (target?.ownDatabase) {
    await target.app.fastify.close();
    await target.database.close();
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function call(method: 'GET' | 'POST', url: string, apiKey: string, body?: unknown) {
  const res = await target.app.fastify.inject({
    method,
    url,
    headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    payload: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.statusCode, body: res.json() };
}

async function countsOf(tenantId: string) {
  const db = target.database.db;
  const count = async (table: 'accommodations' | 'objects' | 'doors' | 'special_dates' | 'door_objects') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select(sql<string>`count(*)`.as('n'))
          .where('tenant_id', '=', tenantId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    accommodations: await count('accommodations'),
    objects: await count('objects'),
    doors: await count('doors'),
    specialDates: await count('special_dates'),
    doorObjects: await count('door_objects'),
  };
}

describe('cli apikey create --publishable (issue #41)', () => {
  it('makes the tenant’s publishable key (booking_page only); a second one replaces it; --scopes is refused', async () => {
    const tenantId = json(run.pkTenant).tenantId as string;
    const [first, second] = [run.pkFirst, run.pkSecond];
    expect(first.code, first.stderr).toBe(0);
    expect(json(first)).toEqual({
      id: expect.any(String),
      apiKey: expect.stringMatching(/^svc_pk_[A-Za-z0-9_-]{43}$/),
      replaced: null,
    });
    expect(json(second).replaced).toBe(json(first).id);
    const rows = await target.database.db
      .selectFrom('api_keys')
      .select(['id', 'scopes', 'revoked_at', 'rate_limit_per_minute'])
      .where('tenant_id', '=', tenantId)
      .where('kind', '=', 'publishable')
      .orderBy('created_at')
      .execute();
    expect(rows.map((r) => [r.id, r.scopes, r.revoked_at === null, r.rate_limit_per_minute])).toEqual([
      [json(first).id, ['booking_page'], false, null],
      [json(second).id, ['booking_page'], true, 600],
    ]);
    expect(run.pkScopes.code).not.toBe(0);
    expect(run.pkScopes.stderr).toMatch(/--publishable takes no --name or --scopes/);
  });
});

describe('cli tenant create and apikey create', () => {
  it('print exactly one JSON document and exit 0', () => {
    for (const name of ['tenant', 'apikey', 'import']) {
      expect(run[name].code, run[name].stderr).toBe(0);
      expect(run[name].stdout.trim().split('\n')).toHaveLength(1);
    }
    expect(json(run.tenant)).toEqual({
      tenantId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      apiKey: expect.stringMatching(/^svc_[A-Za-z0-9_-]{43,}$/),
    });
    expect(json(run.apikey)).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      apiKey: expect.stringMatching(/^svc_[A-Za-z0-9_-]{43,}$/),
    });
  });

  it('the new tenant key is an admin key of that tenant', async () => {
    const { tenantId, apiKey } = json(run.tenant);
    const res = await call('POST', '/api/v1/graphql', apiKey, {
      query: '{ viewer { id name } apiKeys { name scopes } }',
    });
    expect(res.body.data.viewer).toEqual({ id: tenantId, name: 'CLI Club' });
    expect(res.body.data.apiKeys).toEqual([
      { name: 'Initial admin key', scopes: ['admin'] },
      { name: 'Catalog sync', scopes: ['catalog:read', 'bookings:read'] },
    ]);
  });

  it('a key from apikey create works at once, with its scopes and rate limit', async () => {
    const { tenantId } = json(run.tenant);
    const { apiKey } = json(run.apikey);
    const { objects } = json(run.import);
    const res = await call('GET', `/api/v1/tenants/${tenantId}/objects/${objects.court1}/opening-hours`, apiKey);
    expect(res.status).toBe(200);
    expect(res.body.schedule.monday).toEqual({ open: '08:00', close: '22:00' });
    const write = await call('POST', '/api/v1/graphql', apiKey, {
      query: 'mutation { createAccommodation(name: "x", address: "y", timeZone: "UTC") { id } }',
    });
    expect(write.status).toBe(403);
    const row = await target.database.db
      .selectFrom('api_keys')
      .select(['rate_limit_per_minute', 'key_prefix'])
      .where('id', '=', json(run.apikey).id)
      .executeTakeFirstOrThrow();
    expect(row.rate_limit_per_minute).toBe(50);
    expect(apiKey.startsWith(row.key_prefix)).toBe(true);
  });

  it('stores the keys as SHA-256 only: no table holds a plain value', async () => {
    const plain = [json(run.tenant).apiKey, json(run.apikey).apiKey];
    const db = target.database.db;
    const hashes = await db
      .selectFrom('api_keys')
      .select('key_hash')
      .where('tenant_id', '=', json(run.tenant).tenantId)
      .execute();
    expect(hashes.map((r) => r.key_hash).sort()).toEqual(plain.map(sha256).sort());

    const tables = await sql<{
      table_name: string;
    }>`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(
      db,
    );
    expect(tables.rows.map((t) => t.table_name)).toContain('api_keys');
    for (const { table_name } of tables.rows) {
      const rows = await sql`select * from ${sql.table(table_name)}`.execute(db);
      const text = JSON.stringify(rows.rows);
      for (const key of plain) expect(text.includes(key), `${table_name} holds a plain key`).toBe(false);
    }
    if (settings.pgliteDir) {
      // and no file of the embedded database holds one either
      for (const name of readdirSync(settings.pgliteDir, { recursive: true, encoding: 'utf8' })) {
        const path = join(settings.pgliteDir, name);
        if (!statSync(path).isFile()) continue;
        const content = readFileSync(path);
        for (const key of plain) expect(content.includes(key), `${name} holds a plain key`).toBe(false);
      }
    }
  });

  it('a usage error exits 2 with the usage on stderr and nothing on stdout', () => {
    expect(run.usage.code).toBe(2);
    expect(run.usage.stdout).toBe('');
    expect(run.usage.stderr).toContain('--name is required');
    expect(run.usage.stderr).toContain('Usage:');
  });
});

describe('cli user create', () => {
  it('prints {"userId"}; the role defaults to admin; the user signs in to the dashboard', async () => {
    for (const name of ['user', 'staff']) {
      expect(run[name].code, run[name].stderr).toBe(0);
      expect(json(run[name])).toEqual({ userId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    }
    const db = target.database.db;
    const rows = await db
      .selectFrom('users')
      .select(['id', 'email', 'role', 'password_hash'])
      .where('tenant_id', '=', json(run.tenant).tenantId)
      .orderBy('created_at')
      .execute();
    expect(rows.map((r) => [r.id, r.email, r.role])).toEqual([
      [json(run.user).userId, 'Owner@CLI-Club.example', 'admin'],
      [json(run.staff).userId, 'desk@cli-club.example', 'staff'],
    ]);
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
    const signIn = await target.app.fastify.inject({
      method: 'POST',
      url: '/dashboard/api/session',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'owner@cli-club.example', password: 'a long enough password' }),
    });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().user).toEqual({ id: json(run.user).userId, email: 'Owner@CLI-Club.example', role: 'admin' });
  });

  it("refuses an unknown role (exit 2; the password and email rules are the GraphQL tests' concern)", () => {
    expect(run.userRole.code).toBe(2);
    expect(run.userRole.stderr).toContain('--role must be admin or staff');
    for (const name of ['userRole']) expect(run[name].stdout).toBe('');
  });

  it("records the CLI's key and user creations in the audit log", async () => {
    const rows = await target.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_type', 'target_id'])
      .where('tenant_id', '=', json(run.tenant).tenantId)
      .where('actor_type', '=', 'cli')
      // The import's catalog entries are test/catalog-import-audit.test.ts's concern.
      .where('action', 'in', ['api_key.created', 'user.created'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { action: 'api_key.created', actor_type: 'cli', target_id: json(run.apikey).id },
      { action: 'user.created', actor_type: 'cli', target_id: json(run.user).userId },
      { action: 'user.created', actor_type: 'cli', target_id: json(run.staff).userId },
    ]);
  });
});

describe('cli import', () => {
  it('loads the catalog sections and prints the ids by key', async () => {
    const result = json(run.import);
    expect(result).toEqual({
      accommodations: { park: expect.any(String) },
      objects: { court1: expect.any(String), court2: expect.any(String) },
      doors: { gate: expect.any(String) },
      devices: {},
      bookings: {},
      pricingRules: {},
      cancellationPolicies: {},
    });
    const { tenantId, apiKey } = json(run.tenant);
    const hours = await call(
      'GET',
      `/api/v1/tenants/${tenantId}/objects/${result.objects.court1}/opening-hours`,
      apiKey,
    );
    expect(hours.body.specialDates).toEqual([
      { date: '2026-12-24', closed: true, reason: 'Christmas Eve', open: null, close: null },
    ]);
    const rules = await call(
      'GET',
      `/api/v1/tenants/${tenantId}/objects/${result.objects.court1}/booking-rules`,
      apiKey,
    );
    expect(rules.body).toEqual({
      ...CATALOG.accommodations[0].objects[0].bookingRules,
      timeZone: CATALOG.accommodations[0].timeZone,
    });
    const door = await call('POST', '/api/v1/graphql', apiKey, {
      query: `query($id: ID!) { door(id: $id) { name gpioPin objectIds } }`,
      variables: { id: result.doors.gate },
    });
    expect(door.body.data.door.name).toBe('Main gate');
    expect([...door.body.data.door.objectIds].sort()).toEqual([result.objects.court1, result.objects.court2].sort());
  });

  it('a bad file changes nothing, and the message names the key and the field', async () => {
    expect(run.bad.code).toBe(1);
    expect(run.bad.stdout).toBe('');
    expect(run.bad.stderr).toContain('accommodations[second].objects[hall1].openingHours.tuesday.close');
    expect(await countsOf(json(run.tenant).tenantId)).toEqual({
      accommodations: 1,
      objects: 2,
      doors: 1,
      specialDates: 1,
      doorObjects: 2,
    });
    const names = await target.database.db
      .selectFrom('accommodations')
      .select('name')
      .where('name', 'like', 'Rollback%')
      .execute();
    expect(names).toEqual([]);
  });

  it('an unknown section is refused, naming it, and nothing is written', async () => {
    expect(run.unsupported.code).toBe(1);
    expect(run.unsupported.stdout).toBe('');
    expect(run.unsupported.stderr).toMatch(/rooms: is not a catalog section/);
    const names = await target.database.db
      .selectFrom('accommodations')
      .select('name')
      .where('name', '=', 'Unsupported Park')
      .execute();
    expect(names).toEqual([]);
  });
});
