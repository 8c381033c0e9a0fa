import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeDeps } from '../src/app/deps.js';
import { buildApp } from '../src/transport/http/app.js';
import { openDatabase, type Database } from '../src/kernel/db/database.js';
import { migrateToLatest } from '../src/kernel/db/migrate.js';
import { createTenant } from '../src/modules/tenants/tenants.service.js';
import { createAccommodation, createObject } from '../src/modules/catalog/catalog.service.js';
import { parseCreateAccommodation, parseCreateObject } from '../src/modules/catalog/catalog.commands.js';
import { ERASED_EMAIL, ERASED_GUEST_NAME, ERASED_NAME } from '../src/modules/customers/index.js';
import { harness, requester, type Harness, type RequestOptions, type TestResponse } from './harness.js';
import { EVERY_DAY_8_TO_22, slotInDays } from './builders.js';
import { onPostgres } from './worker-services.js';

// Erasing a customer (issue #43, docs/customers.md "Erase a customer"): the bookings stay, and the
// guest's name, email and phone are found nowhere afterwards — not in the rows the API reads, and
// not on disk: on PostgreSQL in a pg_dump of the database, on PGlite in any file of its data
// directory (which is why the erase rewrites the touched tables with VACUUM (FULL) there).

interface ErasureApp {
  db: Database['db'];
  request(options: RequestOptions): Promise<TestResponse>;
  graphql(apiKey: string, query: string, variables?: Record<string, unknown>): Promise<TestResponse>;
  /** Where each of `values` is still found on disk (empty: nowhere). */
  leftovers(values: string[]): string[];
  close(): Promise<void>;
}

let h: Harness;
let app: ErasureApp;

/** Every file under `dir` (recursively). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

async function erasureApp(): Promise<ErasureApp> {
  h = await harness();
  if (onPostgres) {
    const url = h.deps.env.databaseUrl;
    if (!url) throw new Error('no database URL on PostgreSQL');
    return {
      db: h.deps.database.db,
      request: h.request,
      graphql: h.graphql,
      leftovers: (values) => {
        const dump = execFileSync('pg_dump', ['--no-owner', '--data-only', url], { maxBuffer: 1 << 30 }).toString(
          'utf8',
        );
        return values.filter((v) => dump.includes(v)).map((v) => `pg_dump: ${v}`);
      },
      close: async () => {},
    };
  }
  // PGlite with a data directory of its own, so its files can be read.
  const dir = mkdtempSync(join(tmpdir(), 'portier-erase-'));
  const database = await openDatabase({ pgliteDir: dir });
  await migrateToLatest(database.db);
  const deps = composeDeps({ ...h.deps, database });
  const built = await buildApp(deps, { loadShedding: { maxEventLoopDelay: 0 } });
  await built.fastify.ready();
  const request = requester(built.fastify);
  return {
    db: database.db,
    request,
    graphql: (apiKey, query, variables) =>
      request({ method: 'POST', url: '/api/v1/graphql', apiKey, body: { query, variables } }),
    leftovers: (values) =>
      filesUnder(dir).flatMap((file) => {
        const bytes = readFileSync(file);
        return values.filter((v) => bytes.includes(Buffer.from(v, 'utf8'))).map((v) => `${file}: ${v}`);
      }),
    close: async () => {
      await built.fastify.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

beforeAll(async () => {
  app = await erasureApp();
}, 300_000);
afterAll(() => app?.close());

async function venue() {
  const { tenant, apiKey } = await app.db.transaction().execute((trx) => createTenant(trx, 'Erase venue'));
  const accommodation = await createAccommodation(
    app.db,
    tenant.id,
    parseCreateAccommodation({ name: 'Park', address: 'Street 1, Berlin', timeZone: 'Europe/Berlin' }),
  );
  const object = await createObject(
    app.db,
    tenant.id,
    parseCreateObject({
      accommodationId: accommodation.id,
      name: 'Court',
      pricePerHour: 2000,
      openingHours: EVERY_DAY_8_TO_22,
    }),
  );
  return { tenantId: tenant.id, apiKey, objectId: object.id };
}

describe('eraseCustomer', () => {
  it('keeps the bookings and leaves none of the personal values anywhere', async () => {
    const tag = randomUUID().replace(/-/g, '').slice(0, 10);
    const name = `Quintessa Erasmus ${tag}`;
    const renamed = `Quintessa Renamed ${tag}`;
    const email = `Quintessa.${tag}@Erase-Test.example`;
    const phone = `+49 30 9${tag
      .replace(/[^0-9]/g, '')
      .padEnd(6, '7')
      .slice(0, 6)}`;
    const e164 = phone.replace(/ /g, '');
    const values = [name, renamed, email, email.toLowerCase(), phone, e164];
    const v = await venue();
    const base = `/api/v1/tenants/${v.tenantId}`;

    // Two bookings (one with an Idempotency-Key: its answer is cached), a guest change (audited
    // with the values before and after), a payment with a note naming the guest, a notification
    // and a webhook attempt that carried the booking.
    const created = [];
    for (const [i, key] of [randomUUID(), null].entries()) {
      const res = await app.request({
        method: 'POST',
        url: `${base}/bookings`,
        apiKey: v.apiKey,
        headers: key ? { 'idempotency-key': key } : {},
        body: { objectId: v.objectId, guestName: name, guestEmail: email, guestPhone: phone, ...slotInDays(3 + i) },
      });
      expect(res.status, res.text).toBe(201);
      created.push(res.body.booking);
    }
    const [first, second] = created;
    const customerId = first.customerId as string;
    expect(second.customerId).toBe(customerId);
    const guest = await app.graphql(
      v.apiKey,
      `mutation($b: ID!, $n: String!) { updateBookingGuest(bookingId: $b, guestName: $n) { booking { guestName } } }`,
      { b: second.id, n: renamed },
    );
    expect(guest.body.errors).toBeUndefined();
    const paid = await app.graphql(
      v.apiKey,
      `mutation($b: ID!, $note: String!) { markBookingPaid(id: $b, amount: 2000, note: $note) { id } }`,
      { b: first.id, note: `cash from ${name}` },
    );
    expect(paid.body.errors).toBeUndefined();
    await sql`INSERT INTO notifications (tenant_id, booking_id, channel, kind, sequence, recipient, data, status)
      VALUES (${v.tenantId}, ${first.id}, 'email', 'confirmed', 99, ${email}, ${JSON.stringify({ booking: { guestName: name, guestEmail: email } })}::jsonb, 'sent')`.execute(
      app.db,
    );
    const { rows: events } = await sql<{ id: string; data: unknown }>`
      SELECT id, data FROM events WHERE tenant_id = ${v.tenantId} AND data->'booking'->>'id' = ${first.id} LIMIT 1`.execute(
      app.db,
    );
    expect(events).toHaveLength(1);
    const { rows: hooks } = await sql<{ id: string }>`INSERT INTO webhooks (tenant_id, url, events, secret_sealed)
      VALUES (${v.tenantId}, 'https://receiver.example/hook', ARRAY['booking.created'], 'sealed') RETURNING id`.execute(
      app.db,
    );
    const { rows: deliveries } = await sql<{
      id: string;
    }>`INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_id, status)
      VALUES (${v.tenantId}, ${hooks[0].id}, ${events[0].id}, 'succeeded') RETURNING id`.execute(app.db);
    await sql`INSERT INTO webhook_attempts (tenant_id, delivery_id, attempted_at, status_code, duration_ms, request_body, response_body)
      VALUES (${v.tenantId}, ${deliveries[0].id}, now(), 200, 12, ${JSON.stringify(events[0].data)}, ${`thanks ${email}`})`.execute(
      app.db,
    );
    // The values are there before.
    expect(app.leftovers(values).length).toBeGreaterThan(0);

    // The GDPR export holds them all.
    const exported = await app.request({
      method: 'GET',
      url: `${base}/customers/${customerId}/data`,
      apiKey: v.apiKey,
    });
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.customer).toMatchObject({ id: customerId, name, email, phone: e164 });
    expect(exported.body.bookings).toHaveLength(2);
    expect(exported.body.payments).toHaveLength(1);
    expect(exported.body.notifications).toEqual([expect.objectContaining({ recipient: email })]);
    expect(exported.body.auditEntries.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['booking.guest_updated', 'booking.marked_paid']),
    );
    const download = await app.request({
      method: 'GET',
      url: `${base}/customers/${customerId}/export.json`,
      apiKey: v.apiKey,
    });
    expect(download.status).toBe(200);
    expect(download.headers['content-disposition']).toContain('attachment');
    expect(download.body.customer.email).toBe(email);

    const erased = await app.request({
      method: 'POST',
      url: `${base}/customers/${customerId}/erase`,
      apiKey: v.apiKey,
    });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body).toMatchObject({ id: customerId, name: ERASED_NAME, email: null, phone: null, notes: '' });
    expect(erased.body.erasedAt).toBeTruthy();

    // The bookings stay, anonymised; the guest links are revoked (their version went up).
    const { rows: bookings } = await sql<{
      id: string;
      guest_name: string;
      guest_email: string;
      guest_phone: string | null;
      guest_link_version: number;
      status: string;
    }>`
      SELECT id, guest_name, guest_email, guest_phone, guest_link_version, status FROM bookings WHERE customer_id = ${customerId} ORDER BY start_time`.execute(
      app.db,
    );
    expect(bookings).toHaveLength(2);
    for (const b of bookings)
      expect(b).toMatchObject({
        guest_name: ERASED_GUEST_NAME,
        guest_email: ERASED_EMAIL,
        guest_phone: null,
        guest_link_version: 2,
      });
    const listed = await app.request({ method: 'GET', url: `${base}/bookings/${first.id}`, apiKey: v.apiKey });
    expect(listed.body.booking).toMatchObject({
      guestName: ERASED_GUEST_NAME,
      totalPrice: first.totalPrice,
      customerId,
    });

    // Audited, without the erased values.
    const { rows: audit } = await sql<{ details: unknown; action: string }>`
      SELECT action, details FROM audit_log WHERE tenant_id = ${v.tenantId} AND action = 'customer.erased'`.execute(
      app.db,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0].details).toMatchObject({ bookings: 2 });
    // Nothing left: not in the tables, not on disk.
    expect(app.leftovers(values)).toEqual([]);

    // Erasing again changes nothing; an erased customer cannot be changed or merged.
    const again = await app.request({ method: 'POST', url: `${base}/customers/${customerId}/erase`, apiKey: v.apiKey });
    expect(again.status).toBe(200);
    const change = await app.request({
      method: 'PATCH',
      url: `${base}/customers/${customerId}`,
      apiKey: v.apiKey,
      body: { notes: 'x' },
    });
    expect(change.status).toBe(409);
    expect(change.body.code).toBe('customer_erased');
    // A new booking of the same guest makes a new customer (the erased one matches nobody).
    const back = await app.request({
      method: 'POST',
      url: `${base}/bookings`,
      apiKey: v.apiKey,
      body: {
        objectId: v.objectId,
        guestName: 'Someone',
        guestEmail: `new.${tag}@erase-test.example`,
        guestPhone: phone,
        ...slotInDays(9),
      },
    });
    expect(back.status).toBe(201);
    expect(back.body.booking.customerId).not.toBe(customerId);
  });
});
