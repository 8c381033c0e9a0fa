import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildBooking, buildVenue } from './builders.js';
import { buildUser, OWN_ORIGIN, signIn } from './dashboard.js';

// Bookings search (part of a guest's name or email), the guest-details edit, and the CSV exports
// of the filtered bookings and the audit log (docs/dashboard-ui.md#find-and-export).

let h: Harness;
type Venue = Awaited<ReturnType<typeof buildVenue>>;
let v: Venue;
let other: Venue;
const made: { id: string; name: string; email: string; start: string }[] = [];

const hourOn = (day: number, hour: number) => new Date(Date.UTC(2026, 10, day, hour)).toISOString();

const GUESTS: [string, string][] = [
  ['Grace Hopper', 'grace@navy.example'],
  ['Ada Lovelace', 'ada@analytical.example'],
  ['Alan Turing', 'alan@bletchley.example'],
  ['100% Pure', 'percent@example.com'],
  ['under_score', 'plain@example.com'],
  ['back\\slash', 'slash@example.com'],
  ['=HYPERLINK("http://evil.example","x")', 'formula@example.com'],
  ['Comma, "Quoted"\nName', 'quote@example.com'],
  ['Zoë Ünicode 🎾', 'zoe@example.com'],
  ['Gracie Mansion', 'gm@example.com'],
];

beforeAll(async () => {
  h = await harness();
  v = await buildVenue(h, { objects: 2 });
  other = await buildVenue(h);
  for (const [i, [name, email]] of GUESTS.entries()) {
    const start = hourOn(27, 8 + i);
    const b = await buildBooking(h, v.tenantId, v.objects[i % 2].id, {
      start,
      end: hourOn(27, 9 + i),
      guestName: name,
      guestEmail: email,
      status: 'CONFIRMED',
    });
    made.push({ id: b.id, name, email, start });
  }
  // Another tenant's Grace is never found.
  await buildBooking(h, other.tenantId, other.objects[0].id, {
    start: hourOn(27, 8),
    end: hourOn(27, 9),
    guestName: 'Grace Other',
    guestEmail: 'grace@other.example',
  });
});

const SEARCH = `query ($search: String, $first: Int, $after: String) {
  bookingsConnection(search: $search, first: $first, after: $after) { totalCount edges { node { id guestName } } pageInfo { hasNextPage endCursor } }
}`;

async function search(fragment: string, apiKey = v.apiKey) {
  const res = await h.graphql(apiKey, SEARCH, { search: fragment, first: 100 });
  return res;
}
const names = (res: { body: { data: { bookingsConnection: { edges: { node: { guestName: string } }[] } } } }) =>
  res.body.data.bookingsConnection.edges.map((e) => e.node.guestName).sort();

describe('bookingsConnection(search:)', () => {
  it('finds a fragment of a name, case-insensitively, in the caller’s tenant only', async () => {
    const res = await search('gRAc');
    expect(res.body.errors).toBeUndefined();
    expect(names(res)).toEqual(['Grace Hopper', 'Gracie Mansion']);
    expect(res.body.data.bookingsConnection.totalCount).toBe(2);
  });

  it('finds a fragment of an email', async () => {
    expect(names(await search('bletchley'))).toEqual(['Alan Turing']);
  });

  it('matches % _ and backslash literally, never as wildcards', async () => {
    expect(names(await search('%'))).toEqual(['100% Pure']);
    expect(names(await search('_'))).toEqual(['under_score']);
    expect(names(await search('\\'))).toEqual(['back\\slash']);
    expect(names(await search('0%'))).toEqual(['100% Pure']);
    expect(names(await search('%%'))).toEqual([]);
  });

  it('finds non-ASCII text', async () => {
    expect(names(await search('zoË'))).toEqual(['Zoë Ünicode 🎾']);
    expect(names(await search('🎾'))).toEqual(['Zoë Ünicode 🎾']);
  });

  it('treats a blank search as none and trims the fragment', async () => {
    const all = await search('   ');
    expect(all.body.data.bookingsConnection.totalCount).toBe(GUESTS.length);
    expect(names(await search('  Turing '))).toEqual(['Alan Turing']);
  });

  it('combines with the other filters and pages by cursor', async () => {
    const res = await h.graphql(
      v.apiKey,
      `query { bookingsConnection(search: "example.com", objectId: "${v.objects[1].id}", first: 2) { totalCount edges { node { guestName objectId } } pageInfo { hasNextPage endCursor } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    const c = res.body.data.bookingsConnection;
    expect(c.edges.every((e: { node: { objectId: string } }) => e.node.objectId === v.objects[1].id)).toBe(true);
    expect(c.pageInfo.hasNextPage).toBe(true);
    const next = await h.graphql(v.apiKey, SEARCH, { search: 'example.com', first: 100, after: c.pageInfo.endCursor });
    expect(next.body.errors).toBeUndefined();
  });

  it.each([
    ['NUL', 'gr\u0000ace'],
    ['a control character', 'gr\u0007ace'],
    ['a lone high surrogate', 'gr\uD83Dace'],
    ['a lone low surrogate', '\uDE00grace'],
    ['more than 200 characters', 'x'.repeat(201)],
  ])('refuses %s with a field error naming search', async (_, fragment) => {
    const res = await search(fragment);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(res.body.errors)).toContain('search');
  });

  it('is on the REST listing too (bookingPage)', async () => {
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/bookings?search=lovelace`,
      apiKey: v.apiKey,
    });
    expect(res.status).toBe(200);
    expect(res.body.bookings.map((b: { guestName: string }) => b.guestName)).toEqual(['Ada Lovelace']);
    const bad = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/bookings?search=${encodeURIComponent('a\u0000b')}`,
      apiKey: v.apiKey,
    });
    expect(bad.status).toBe(400);
  });
});

/** RFC 4180 records (test-side parser: quoted fields, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += c;
  }
  expect(field).toBe('');
  return records;
}

describe('GET /bookings/export.csv', () => {
  const url = (query = '') => `/api/v1/tenants/${v.tenantId}/bookings/export.csv${query}`;

  it('answers the filtered listing as CSV with a header row, rows matching the listing', async () => {
    const res = await h.request({ method: 'GET', url: url('?search=grac'), apiKey: v.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="bookings.csv"');
    const [header, ...rows] = parseCsv(res.text);
    expect(header.slice(0, 3)).toEqual(['id', 'guest_name', 'guest_email']);
    const listed = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/bookings?search=grac`,
      apiKey: v.apiKey,
    });
    expect(rows.map((r) => r[0])).toEqual(listed.body.bookings.map((b: { id: string }) => b.id));
    expect(rows[0][header.indexOf('time_zone')]).toBe('Europe/Berlin');
    expect(rows[0][header.indexOf('start_local')]).toBe('2026-11-27T09:00');
    expect(rows[0][header.indexOf('status')]).toBe('CONFIRMED');
  });

  it("carries each booking's payment status and its paid and refunded amounts in the currency", async () => {
    const [paid, refunded, unpaid] = made;
    const marked = await h.graphql(
      v.apiKey,
      'mutation($id: ID!) { markBookingPaid(id: $id, amount: 2050, note: "card terminal") { id } }',
      { id: paid.id },
    );
    expect(marked.body.errors).toBeUndefined();
    // A part refund as the ledger leaves it (what a cancellation's refund writes on the booking).
    await h.deps.database.db
      .updateTable('bookings')
      .set({
        payment_status: 'PARTIALLY_REFUNDED',
        amount_paid: 3000,
        amount_refunded: 1275,
        payment_provider: 'venue',
      })
      .where('id', '=', refunded.id)
      .execute();
    const res = await h.request({ method: 'GET', url: url(), apiKey: v.apiKey });
    expect(res.status).toBe(200);
    const [header, ...rows] = parseCsv(res.text);
    expect(header.slice(16, 20)).toEqual(['payment_status', 'amount_paid', 'amount_refunded', 'reference']);
    // The older columns keep their places.
    expect(header.slice(0, 3)).toEqual(['id', 'guest_name', 'guest_email']);
    expect(header.indexOf('created_at')).toBe(15);
    const of = (id: string) => {
      const row = rows.find((r) => r[0] === id);
      if (!row) throw new Error(`no row for ${id}`);
      return {
        status: row[header.indexOf('payment_status')],
        paid: row[header.indexOf('amount_paid')],
        refunded: row[header.indexOf('amount_refunded')],
        currency: row[header.indexOf('currency')],
      };
    };
    expect(of(paid.id)).toEqual({ status: 'PAID', paid: '20.5', refunded: '0', currency: 'EUR' });
    expect(of(refunded.id)).toEqual({ status: 'PARTIALLY_REFUNDED', paid: '30', refunded: '12.75', currency: 'EUR' });
    expect(of(unpaid.id)).toEqual({ status: 'UNPAID', paid: '0', refunded: '0', currency: 'EUR' });
  });

  it('quotes by RFC 4180 and neutralises spreadsheet formulas', async () => {
    const res = await h.request({ method: 'GET', url: url(), apiKey: v.apiKey });
    const [header, ...rows] = parseCsv(res.text);
    expect(rows).toHaveLength(GUESTS.length);
    const nameCol = header.indexOf('guest_name');
    const byId = new Map(rows.map((r) => [r[0], r[nameCol]]));
    for (const b of made) expect(byId.get(b.id)).toBe(b.name.startsWith('=') ? `'${b.name}` : b.name);
    expect(res.text).toContain('"Comma, ""Quoted""\nName"');
  });

  it('quotes a cell with ; or a tab and neutralises a formula after either (a ;-splitting reader)', async () => {
    const venue = await buildVenue(h);
    for (const [i, name] of ['x;=1+1', 'tab\t+2'].entries())
      await buildBooking(h, venue.tenantId, venue.objects[0].id, {
        start: hourOn(28, 8 + i),
        end: hourOn(28, 9 + i),
        guestName: name,
        guestEmail: `sep${i}@example.com`,
        status: 'CONFIRMED',
      });
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${venue.tenantId}/bookings/export.csv`,
      apiKey: venue.apiKey,
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('"x;\'=1+1"');
    expect(res.text).toContain('"tab\t\'+2"');
    // Split on ; and tabs as a German Excel or a tab reader may, quotes ignored: no piece is a formula.
    for (const piece of res.text.split(/[,;\t\r\n]/)) expect(piece).not.toMatch(/^[=+@]/);
  });

  it('streams every row past one page (keyset paging)', async () => {
    const many = await buildVenue(h);
    const values = Array.from({ length: 1203 }, (_, i) => ({
      tenant_id: many.tenantId,
      object_id: many.objects[0].id,
      guest_name: `Bulk ${i}`,
      guest_email: `bulk${i}@example.com`,
      guest_phone: null,
      start_time: new Date(Date.UTC(2027, 0, 1) + i * 3_600_000),
      end_time: new Date(Date.UTC(2027, 0, 1) + i * 3_600_000 + 1_800_000),
      blocked_until: new Date(Date.UTC(2027, 0, 1) + i * 3_600_000 + 1_800_000),
      status: 'CONFIRMED' as const,
      total_price: 1000,
    }));
    await h.deps.database.db.insertInto('bookings').values(values).execute();
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${many.tenantId}/bookings/export.csv`,
      apiKey: many.apiKey,
    });
    const [, ...rows] = parseCsv(res.text);
    expect(rows).toHaveLength(1203);
    expect(new Set(rows.map((r) => r[0])).size).toBe(1203);
    expect(rows.at(-1)?.[1]).toBe('Bulk 1202');
  });

  it('refuses bad filters, another tenant and a key without bookings:read', async () => {
    expect((await h.request({ method: 'GET', url: url('?from=soon'), apiKey: v.apiKey })).status).toBe(400);
    expect(
      (await h.request({ method: 'GET', url: url(`?search=${encodeURIComponent('\u0000')}`), apiKey: v.apiKey }))
        .status,
    ).toBe(400);
    expect((await h.request({ method: 'GET', url: url(), apiKey: other.apiKey })).status).toBe(403);
    const narrow = await h.key(v.tenantId, ['catalog:read']);
    expect((await h.request({ method: 'GET', url: url(), apiKey: narrow })).status).toBe(403);
    expect((await h.request({ method: 'GET', url: url() })).status).toBe(401);
  });
});

describe('the exports with a dashboard session', () => {
  it('answer a session with its CSRF token, and refuse one without it or from another origin', async () => {
    const user = await buildUser(h, v.tenantId);
    const session = await signIn(h.request, user.email);
    const url = `/api/v1/tenants/${v.tenantId}/bookings/export.csv?search=grac`;
    const ok = await h.request({
      method: 'GET',
      url,
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken, origin: OWN_ORIGIN },
    });
    expect(ok.status).toBe(200);
    expect(parseCsv(ok.text)).toHaveLength(3);
    const audit = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/audit-log/export.csv`,
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken, origin: OWN_ORIGIN },
    });
    expect(audit.status).toBe(200);
    expect(
      (await h.request({ method: 'GET', url, headers: { cookie: session.cookie, origin: OWN_ORIGIN } })).status,
    ).toBe(403);
    expect(
      (
        await h.request({
          method: 'GET',
          url,
          headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken, origin: 'https://evil.example' },
        })
      ).status,
    ).toBe(403);
  });
});

describe('updateBookingGuest', () => {
  const UPDATE = `mutation ($id: ID!, $name: String, $email: String, $phone: String) {
    updateBookingGuest(bookingId: $id, guestName: $name, guestEmail: $email, guestPhone: $phone) { booking { id guestName guestEmail guestPhone } }
  }`;

  it('changes the given fields, validates them and writes an audit entry with before and after', async () => {
    const target = made[2];
    const res = await h.graphql(v.apiKey, UPDATE, {
      id: target.id,
      name: '  Alan M. Turing ',
      phone: '+44 20 7946 0000',
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateBookingGuest.booking).toMatchObject({
      guestName: 'Alan M. Turing',
      guestEmail: target.email,
      guestPhone: '+44 20 7946 0000',
    });
    const audit = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/audit-log/export.csv`,
      apiKey: v.apiKey,
    });
    expect(audit.status).toBe(200);
    const [header, ...rows] = parseCsv(audit.text);
    const entry = rows.find((r) => r[header.indexOf('action')] === 'booking.guest_updated');
    expect(entry?.[header.indexOf('target_id')]).toBe(target.id);
    expect(JSON.parse(entry?.[header.indexOf('details')] ?? '{}')).toEqual({
      changes: {
        guestName: { from: 'Alan Turing', to: 'Alan M. Turing' },
        guestPhone: { from: null, to: '+44 20 7946 0000' },
      },
    });
  });

  it.each([
    [{ name: '' }, 'guestName'],
    [{ name: 'x'.repeat(201) }, 'guestName'],
    [{ email: 'not-an-email' }, 'guestEmail'],
    [{ phone: 'call me' }, 'guestPhone'],
    [{}, 'guestName'],
  ])('refuses %j with a field error on %s', async (vars, field) => {
    const res = await h.graphql(v.apiKey, UPDATE, { id: made[0].id, ...vars });
    expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(res.body.errors)).toContain(field);
  });

  it('does not find another tenant’s booking', async () => {
    const res = await h.graphql(other.apiKey, UPDATE, { id: made[0].id, name: 'Mallory' });
    expect(res.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
