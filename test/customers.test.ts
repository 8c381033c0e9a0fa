import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildBooking, buildVenue, buildWebhook, slotInDays } from './builders.js';

// Customers (issue #43, docs/customers.md): matching on booking (email case-insensitive, else
// phone, else a new customer), search, update, merge, totals, the GDPR export and erase. The
// erase's "nothing left on disk" checks are in test/customers-erase.test.ts.

let h: Harness;
type Venue = Awaited<ReturnType<typeof buildVenue>>;
let v: Venue;
let day = 1;

beforeAll(async () => {
  h = await harness();
  v = await buildVenue(h);
}, 120_000);

const book = (venue: Venue, guest: { name?: string; email: string; phone?: string }) =>
  h.request({
    method: 'POST',
    url: `/api/v1/tenants/${venue.tenantId}/bookings`,
    apiKey: venue.apiKey,
    body: {
      objectId: venue.object.id,
      guestName: guest.name ?? 'Ada Lovelace',
      guestEmail: guest.email,
      ...(guest.phone ? { guestPhone: guest.phone } : {}),
      ...slotInDays(day++),
    },
  });

const customerIdOf = async (bookingId: string) =>
  (
    await h.deps.database.db
      .selectFrom('bookings')
      .select('customer_id')
      .where('id', '=', bookingId)
      .executeTakeFirstOrThrow()
  ).customer_id;

const unique = () => randomUUID().slice(0, 8);
const phoneNumber = () => `+49 30 ${String(Math.floor(1_000_000 + Math.random() * 8_999_999))}`;

const CUSTOMER_FIELDS = `id name email phone notes metadata marketingConsent marketingConsentAt erasedAt bookingCount noShowCount
  totalSpent { currency paid refunded net } bookings(first: 10) { totalCount nodes { id guestName customerId } }`;

describe('matching a booking to a customer', () => {
  it('matches by email ignoring case and spaces, else by phone, else makes a new customer', async () => {
    const tag = unique();
    const phone = phoneNumber();
    const first = await book(v, { email: `Ada.${tag}@Example.com`, phone });
    expect(first.status, first.text).toBe(201);
    const sameEmail = await book(v, { email: ` ada.${tag}@example.COM `.trim(), name: 'A. Lovelace' });
    const samePhone = await book(v, { email: `other.${tag}@example.com`, phone: phone.replace(/ /g, '') });
    const nobody = await book(v, { email: `grace.${tag}@example.com`, name: 'Grace Hopper', phone: phoneNumber() });
    for (const res of [sameEmail, samePhone, nobody]) expect(res.status, res.text).toBe(201);

    const customerId = await customerIdOf(first.body.booking.id);
    expect(customerId).toBeTruthy();
    expect(await customerIdOf(sameEmail.body.booking.id)).toBe(customerId);
    expect(await customerIdOf(samePhone.body.booking.id)).toBe(customerId);
    const other = await customerIdOf(nobody.body.booking.id);
    expect(other).toBeTruthy();
    expect(other).not.toBe(customerId);

    // The REST booking carries customerId; GraphQL resolves the customer itself.
    expect(first.body.booking.customerId).toBe(customerId);
    const res = await h.graphql(v.apiKey, `query($id: ID!) { customer(id: $id) { ${CUSTOMER_FIELDS} } }`, {
      id: customerId,
    });
    expect(res.body.errors).toBeUndefined();
    const customer = res.body.data.customer;
    // The first booking named the customer; the phone is kept as E.164.
    expect(customer).toMatchObject({
      name: 'Ada Lovelace',
      email: `Ada.${tag}@Example.com`,
      phone: phone.replace(/ /g, ''),
      bookingCount: 3,
      noShowCount: 0,
      totalSpent: [],
    });
    expect(customer.bookings.totalCount).toBe(3);
    expect(customer.bookings.nodes.map((b: { customerId: string }) => b.customerId)).toEqual([
      customerId,
      customerId,
      customerId,
    ]);
  });

  it('makes one customer for 10 concurrent bookings of a new guest', async () => {
    const email = `rush.${unique()}@example.com`;
    // customer.created is opt-in: written only for a tenant whose active webhook lists it.
    const quiet = await buildVenue(h);
    const quietEmail = `quiet.${unique()}@example.com`;
    expect((await book(quiet, { email: quietEmail })).status).toBe(201);
    await buildWebhook(h, v.tenantId, { url: 'https://example.com/hook', events: ['customer.created'] });
    const results = await Promise.all(Array.from({ length: 10 }, () => book(v, { email })));
    for (const res of results) expect(res.status, res.text).toBe(201);
    const ids = new Set(await Promise.all(results.map((r) => customerIdOf(r.body.booking.id))));
    expect(ids.size).toBe(1);
    const rows = await h.deps.database.db
      .selectFrom('customers')
      .select('id')
      .where('tenant_id', '=', v.tenantId)
      .where(sql<boolean>`lower(email) = ${email}`)
      .execute();
    expect(rows).toHaveLength(1);
    // One customer.created event for it.
    const events = await h.deps.database.db
      .selectFrom('events')
      .select('id')
      .where('tenant_id', '=', v.tenantId)
      .where('type', '=', 'customer.created')
      .where(sql<boolean>`data->'customer'->>'id' = ${[...ids][0]}`)
      .execute();
    expect(events).toHaveLength(1);
    const unsubscribed = await h.deps.database.db
      .selectFrom('events')
      .select('type')
      .where('tenant_id', '=', quiet.tenantId)
      .execute();
    expect(unsubscribed.map((e) => e.type)).toEqual(['booking.created']);
  });

  it('gives imported bookings and GraphQL bookings a customer too, per tenant', async () => {
    const email = `import.${unique()}@example.com`;
    const imported = await buildBooking(h, v.tenantId, v.object.id, {
      start: '2025-03-01T10:00:00Z',
      end: '2025-03-01T11:00:00Z',
      status: 'COMPLETED',
      guestEmail: email,
    });
    expect(imported.customer_id).toBeTruthy();
    const gql = await h.graphql(
      v.apiKey,
      `mutation($o: ID!, $s: DateTime!, $e: DateTime!, $m: String!) {
        createBooking(objectId: $o, guestName: "Ada", guestEmail: $m, startTime: $s, endTime: $e) { booking { id customerId customer { id email } } } }`,
      {
        o: v.object.id,
        ...(({ startTime, endTime }) => ({ s: startTime, e: endTime }))(slotInDays(day++)),
        m: email.toUpperCase(),
      },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.createBooking.booking.customerId).toBe(imported.customer_id);
    expect(gql.body.data.createBooking.booking.customer).toEqual({ id: imported.customer_id, email });
    // Another tenant's guest with the same email is another customer.
    const other = await buildVenue(h);
    const there = await book(other, { email });
    expect(there.body.booking.customerId).not.toBe(imported.customer_id);
    // And is not readable from here.
    const res = await h.graphql(v.apiKey, `query($id: ID!) { customer(id: $id) { id } }`, {
      id: there.body.booking.customerId,
    });
    expect(res.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('shows Booking.customer only to keys with customers:read', async () => {
    const res = await book(v, { email: `scoped.${unique()}@example.com` });
    const bookingsOnly = await h.key(v.tenantId, ['bookings:read']);
    const q = await h.graphql(bookingsOnly, `query { bookings(first: 100) { id customerId customer { id notes } } }`);
    expect(q.body.errors).toBeUndefined();
    const mine = q.body.data.bookings.find((b: { id: string }) => b.id === res.body.booking.id);
    expect(mine).toEqual({ id: res.body.booking.id, customerId: res.body.booking.customerId, customer: null });
    // The REST listing (its direct answer) says the same.
    const rest = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/bookings?pageSize=100`,
      apiKey: bookingsOnly,
    });
    const listed = rest.body.bookings.find((b: { id: string }) => b.id === res.body.booking.id);
    expect(listed).toMatchObject({ customerId: res.body.booking.customerId, customer: null });
    const admin = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/bookings?pageSize=100`,
      apiKey: v.apiKey,
    });
    expect(admin.body.bookings.find((b: { id: string }) => b.id === res.body.booking.id).customer).toEqual({
      id: res.body.booking.customerId,
    });
    const refused = await h.graphql(bookingsOnly, `query { customers { id } }`);
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

const gql = async (query: string, variables?: Record<string, unknown>, key = v.apiKey) => {
  const res = await h.graphql(key, query, variables);
  return res.body;
};

describe('search, update and totals', () => {
  it('finds customers by a prefix of name, email or phone, paged, within the tenant', async () => {
    const tag = unique();
    const phone = phoneNumber();
    const made = [];
    for (const [i, name] of ['Zebulon Alpha', 'zebulon beta', 'Zebulon Gamma'].entries())
      made.push(
        await book(v, { name: `${name} ${tag}`, email: `zeb${i}.${tag}@example.com`, ...(i === 2 ? { phone } : {}) }),
      );
    const search = async (text: string, first = 20, after?: string) =>
      gql(
        `query($s: String, $f: Int, $a: String) { customersConnection(search: $s, first: $f, after: $a) {
          totalCount nodes { name } pageInfo { hasNextPage endCursor } } }`,
        { s: text, f: first, a: after },
      );
    const byName = await search('ZEBULON');
    const names = byName.data.customersConnection.nodes.map((n: { name: string }) => n.name);
    expect(names.filter((n: string) => n.endsWith(tag))).toEqual([
      `Zebulon Alpha ${tag}`,
      `zebulon beta ${tag}`,
      `Zebulon Gamma ${tag}`,
    ]);
    const byEmail = await search(`zeb1.${tag.toUpperCase()}`);
    expect(byEmail.data.customersConnection.nodes).toEqual([{ name: `zebulon beta ${tag}` }]);
    // A phone prefix, typed with spaces or 00, matches the E.164 number.
    const digits = phone.replace(/[^0-9]/g, '');
    const byPhone = await search(`00${digits.slice(0, 2)} ${digits.slice(2, 10)}`);
    expect(byPhone.data.customersConnection.nodes.map((n: { name: string }) => n.name)).toContain(
      `Zebulon Gamma ${tag}`,
    );
    // LIKE wildcards are plain text.
    expect((await search('%')).data.customersConnection.totalCount).toBe(0);
    // Paging by name: two pages of the three (of this tag).
    const page1 = await search(`zebulon`, 1);
    expect(page1.data.customersConnection.pageInfo.hasNextPage).toBe(true);
    const page2 = await search(`zebulon`, 1, page1.data.customersConnection.pageInfo.endCursor);
    expect(page2.data.customersConnection.nodes[0].name).not.toBe(page1.data.customersConnection.nodes[0].name);
    // A bad cursor and a too large page are named.
    const bad = await search('zebulon', 1, 'nonsense');
    expect(bad.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const big = await search('zebulon', 101);
    expect(big.errors[0].message).toMatch(/first/);
    // REST: the list and the cursor.
    const rest = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/customers?search=zebulon&first=2`,
      apiKey: v.apiKey,
    });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.customers).toHaveLength(2);
    expect(rest.body.next).toBeTruthy();
    // Another tenant's key finds none of them.
    const other = await buildVenue(h);
    const theirs = await h.graphql(other.apiKey, `query { customers(search: "zebulon") { id } }`);
    expect(theirs.body.data.customers).toEqual([]);
  });

  it('updates fields, refuses a taken email, a bad phone and hostile input, and audits without values', async () => {
    const tag = unique();
    const a = await book(v, { email: `upd.a.${tag}@example.com` });
    await book(v, { email: `upd.b.${tag}@example.com` });
    const id = a.body.booking.customerId;
    const url = `/api/v1/tenants/${v.tenantId}/customers/${id}`;
    const ok = await h.request({
      method: 'PATCH',
      url,
      apiKey: v.apiKey,
      body: { notes: '=HYPERLINK("x")', phone: '+49 30 1234567', metadata: { club: 'north' }, marketingConsent: true },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({
      phone: '+49301234567',
      notes: '=HYPERLINK("x")',
      metadata: { club: 'north' },
      marketingConsent: true,
    });
    expect(ok.body.marketingConsentAt).toBeTruthy();
    const taken = await h.request({
      method: 'PATCH',
      url,
      apiKey: v.apiKey,
      body: { email: `UPD.B.${tag}@example.com` },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('customer_email_taken');
    const badPhone = await h.request({ method: 'PATCH', url, apiKey: v.apiKey, body: { phone: '030 1234' } });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body.errors[0].field).toBe('phone');
    const badName = await h.request({ method: 'PATCH', url, apiKey: v.apiKey, body: { name: 'x'.repeat(201) } });
    expect(badName.status).toBe(400);
    const badMeta = await h.request({ method: 'PATCH', url, apiKey: v.apiKey, body: { metadata: { k: 5 } } });
    expect(badMeta.status).toBe(400);
    const unknown = await h.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${v.tenantId}/customers/${randomUUID()}`,
      apiKey: v.apiKey,
      body: { notes: 'x' },
    });
    expect(unknown.status).toBe(404);
    const readOnly = await h.key(v.tenantId, ['customers:read']);
    const refused = await h.request({ method: 'PATCH', url, apiKey: readOnly, body: { notes: 'x' } });
    expect(refused.status).toBe(403);
    const audit = await h.deps.database.db
      .selectFrom('audit_log')
      .select(['details'])
      .where('tenant_id', '=', v.tenantId)
      .where('action', '=', 'customer.updated')
      .where('target_id', '=', id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0].details)).not.toContain('1234567');
    // The CSV export neutralises the formula.
    const csv = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/customers/export.csv?search=upd.a.${tag}`,
      apiKey: v.apiKey,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,name,email,phone,notes,marketing_consent,marketing_consent_at,bookings,no_shows,created_at,erased_at',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('sums what was paid minus refunded per currency, and counts no-shows by the NO_SHOW status', async () => {
    const email = `paid.${unique()}@example.com`;
    const b1 = await book(v, { email });
    const b2 = await book(v, { email });
    for (const [b, amount] of [
      [b1, 2000],
      [b2, 500],
    ] as const) {
      const res = await gql(`mutation($b: ID!, $a: Int!) { markBookingPaid(id: $b, amount: $a) { id } }`, {
        b: b.body.booking.id,
        a: amount,
      });
      expect(res.errors).toBeUndefined();
    }
    const res = await gql(
      `query($id: ID!) { customer(id: $id) { totalSpent { currency paid refunded net } payments { bookingId amount kind } noShowCount bookingCount } }`,
      {
        id: b1.body.booking.customerId,
      },
    );
    expect(res.data.customer.totalSpent).toEqual([{ currency: 'EUR', paid: 2500, refunded: 0, net: 2500 }]);
    expect(res.data.customer.payments).toHaveLength(2);
    expect(res.data.customer.bookingCount).toBe(2);
    expect(res.data.customer.noShowCount).toBe(0);
  });
});

describe('mergeCustomers', () => {
  it('moves the bookings, combines the fields with the target winning, audits and emits customer.merged', async () => {
    const tag = unique();
    const target = await book(v, { name: 'Merge Target', email: `target.${tag}@example.com` });
    const s1 = await book(v, { name: 'Merge Source', email: `source1.${tag}@example.com`, phone: phoneNumber() });
    const s2 = await book(v, { name: 'Merge Source 2', email: `source2.${tag}@example.com` });
    const [t, a, b] = [target, s1, s2].map((r) => r.body.booking.customerId as string);
    await h.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${v.tenantId}/customers/${t}`,
      apiKey: v.apiKey,
      body: { notes: 'Target note', metadata: { k: 't' } },
    });
    await h.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${v.tenantId}/customers/${a}`,
      apiKey: v.apiKey,
      body: { notes: 'Source note', metadata: { k: 's', extra: 'x' }, marketingConsent: true },
    });

    const merged = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/customers/merge`,
      apiKey: v.apiKey,
      body: { targetId: t, sourceIds: [a, b, a] },
    });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.mergedIds.sort()).toEqual([a, b].sort());
    expect(merged.body.movedBookings).toBe(2);
    expect(merged.body.customer).toMatchObject({
      id: t,
      name: 'Merge Target',
      email: `target.${tag}@example.com`,
      phone: s1.body.booking.guestPhone.replace(/ /g, ''),
      notes: 'Target note\n\nSource note',
      metadata: { k: 't', extra: 'x' },
      marketingConsent: true,
      bookingCount: 3,
    });
    for (const r of [target, s1, s2]) expect(await customerIdOf(r.body.booking.id)).toBe(t);
    const gone = await gql(`query($id: ID!) { customer(id: $id) { id } }`, { id: a });
    expect(gone.errors[0].extensions.code).toBe('NOT_FOUND');
    const db = h.deps.database.db;
    const audit = await db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'customer.merged')
      .where('target_id', '=', t)
      .execute();
    expect(audit).toHaveLength(1);
    const event = await db
      .selectFrom('events')
      .select('data')
      .where('tenant_id', '=', v.tenantId)
      .where('type', '=', 'customer.merged')
      .where(sql<boolean>`data->'customer'->>'id' = ${t}`)
      .executeTakeFirstOrThrow();
    expect((event.data as { mergedIds: string[] }).mergedIds.sort()).toEqual([a, b].sort());
    // A later booking by a source's email now makes a new customer? No: the source's email is gone
    // with it, and the target keeps its own; the phone still matches the target.
    const again = await book(v, { email: `new.${tag}@example.com`, phone: s1.body.booking.guestPhone });
    expect(again.body.booking.customerId).toBe(t);
  });

  it('refuses a source equal to the target, unknown ids and another tenant’s customers', async () => {
    const tag = unique();
    const mine = (await book(v, { email: `m1.${tag}@example.com` })).body.booking.customerId;
    const other = await buildVenue(h);
    const theirs = (await book(other, { email: `m2.${tag}@example.com` })).body.booking.customerId;
    const merge = (body: unknown) =>
      h.request({ method: 'POST', url: `/api/v1/tenants/${v.tenantId}/customers/merge`, apiKey: v.apiKey, body });
    const self = await merge({ targetId: mine, sourceIds: [mine] });
    expect(self.status).toBe(400);
    expect(self.body.errors[0].field).toBe('sourceIds');
    const foreign = await merge({ targetId: mine, sourceIds: [theirs] });
    expect(foreign.status).toBe(404);
    const none = await merge({ targetId: mine, sourceIds: [] });
    expect(none.status).toBe(400);
    const junk = await merge({ targetId: 'x', sourceIds: ['y'] });
    expect(junk.status).toBe(400);
    expect(await customerIdOf((await book(other, { email: `m2.${tag}@example.com` })).body.booking.id)).toBe(theirs);
  });
});
