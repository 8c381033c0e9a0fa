import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildBooking, buildVenue, slotInDays } from './builders.js';
import { createContext } from '../src/kernel/context.js';
import { bookingFastPaths } from '../src/modules/bookings/index.js';

// The REST listing is written by PostgreSQL (src/modules/bookings/fast-paths/rest-page-json.ts) instead of
// executing its GraphQL operation. Both paths must answer the same bytes: this compares the
// shared app (direct answers on) with an app that executes every operation, on strings JSON
// escapes (quotes, backslashes, control characters, U+2028, astral characters), NULLs,
// microsecond timestamps, every filter, pages past the end, and the refusals.

let h: Harness;
let executing: OwnApp;
let venue: Awaited<ReturnType<typeof buildVenue>>;
const HOSTILE = [
  'quote " and \\ backslash',
  'tab\tnew\nline\r\u0001\u001f\u007f',
  'sep\u2028\u2029 emoji 😀 ü',
  '</script><b>x</b>',
  "single ' quote",
  '',
];

beforeAll(async () => {
  h = await harness();
  executing = await ownApp(h, { env: { fastPaths: false } });
  venue = await buildVenue(h, { objects: 2 });
  const db = h.deps.database.db;
  await db
    .updateTable('objects')
    .set({ name: 'Court "A" \\ 😀\u2028' })
    .where('id', '=', venue.objects[0].id)
    .execute();
  const statuses = ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'] as const;
  for (let i = 0; i < 9; i += 1) {
    const slot = slotInDays(3 + i, 9 + (i % 3));
    const booking = await buildBooking(h, venue.tenantId, venue.objects[i % 2].id, {
      start: slot.startTime,
      end: slot.endTime,
      status: statuses[i % 4],
      guestEmail: `Guest${i}@Example.com`,
    });
    await db
      .updateTable('bookings')
      .set({
        guest_name: HOSTILE[i % HOSTILE.length] || 'x',
        guest_phone: i % 2 ? null : `+49 30 ${i}"\\`,
        refund_amount: statuses[i % 4] === 'CANCELLED' ? 1234 : null,
        // Hostile values, and keys JavaScript orders apart (array indices first, numerically).
        metadata: JSON.stringify(
          i % 3 === 0
            ? {}
            : {
                ref: `A-${i % 2}`,
                note: HOSTILE[i % HOSTILE.length],
                '10': 'ten',
                '2': 'two',
                '01': 'z',
                [`k${i}`]: 'v',
              },
        ),
      })
      .where('id', '=', booking.id)
      .execute();
    // Microseconds, as PostgreSQL's now() writes them: both paths show milliseconds, truncated.
    await sql`update bookings set created_at = ${`2026-01-0${1 + i} 10:00:00.${123456 + i * 111}+00`}::timestamptz, updated_at = ${`2026-01-0${1 + i} 11:00:00.${654321 + i}+00`}::timestamptz where id = ${booking.id}`.execute(
      db,
    );
  }
});

afterAll(async () => {
  await executing.close();
});

const list = (query: string) => `/api/v1/tenants/${venue.tenantId}/bookings${query}`;

describe('GET /api/v1/tenants/{tenantId}/bookings written by PostgreSQL', () => {
  const queries = [
    '',
    '?pageSize=100',
    '?page=1&pageSize=4',
    '?page=3&pageSize=4',
    '?page=99&pageSize=4',
    '?status=CONFIRMED',
    '?status=CANCELLED&pageSize=1',
    '?guestEmail=GUEST3@example.COM',
    '?guestEmail=nobody@example.com',
    `?from=${encodeURIComponent(slotInDays(5).startTime)}&to=${encodeURIComponent(slotInDays(9).startTime)}`,
    '?metadata[ref]=A-1',
    '?metadata[ref]=A-0&metadata[10]=ten',
    '?metadata[ref]=nothing',
    '?metadata[10]=ten&metadata[01]=z',
    '?updatedSince=2026-01-05T11:00:00.654Z',
  ];
  it.each(queries)('answers the bytes the executed operation answers: %s', async (query) => {
    const direct = await h.request({ method: 'GET', url: list(query), apiKey: venue.apiKey });
    const executed = await executing.request({ method: 'GET', url: list(query), apiKey: venue.apiKey });
    expect(executed.status).toBe(200);
    expect(direct.status).toBe(200);
    expect(direct.headers['content-type']).toBe(executed.headers['content-type']);
    expect(direct.text).toBe(executed.text);
  });

  it('covers the hostile strings (the comparison above is not vacuous)', async () => {
    const res = await h.request({ method: 'GET', url: list('?pageSize=100'), apiKey: venue.apiKey });
    const bookings = (res.body as { bookings: unknown }).bookings as {
      guestName: string;
      objectName: string;
      guestPhone: string | null;
      refundAmount: number | null;
      createdAt: string;
    }[];
    expect(bookings).toHaveLength(9);
    expect(bookings.map((b) => b.guestName)).toEqual(expect.arrayContaining(HOSTILE.filter(Boolean)));
    expect(bookings.some((b) => b.objectName.includes('😀\u2028'))).toBe(true);
    expect(bookings.some((b) => b.guestPhone === null) && bookings.some((b) => b.refundAmount === 1234)).toBe(true);
    expect(bookings.map((b) => b.createdAt)).toContain('2026-01-01T10:00:00.123Z');
    const withMetadata = res.text.match(/"metadata":\{"2":"two","10":"ten","01":"z",/g);
    expect(withMetadata?.length).toBe(6);
  });

  it('is the direct answer itself that writes those bytes (no fallback to the operation)', async () => {
    const direct = bookingFastPaths(true).directAnswers['Query.bookingPage'];
    if (!direct) throw new Error('the REST listing has no direct answer');
    const principal = {
      kind: 'apiKey' as const,
      keyId: 'test',
      tenantId: venue.tenantId,
      // customers:read as the venue's admin key: Booking.customer is null without it.
      scopes: ['bookings:read', 'customers:read'],
      rateLimitPerMinute: null,
    };
    for (const [variables, query] of [
      [{ pageSize: 4, page: 2 }, '?pageSize=4&page=2'],
      [{ status: 'CANCELLED' }, '?status=CANCELLED'],
      [{ page: 50 }, '?page=50'],
    ] as const) {
      const written = await direct.answer(createContext(h.deps, principal), variables);
      const executed = await executing.request({ method: 'GET', url: list(query), apiKey: venue.apiKey });
      expect(written).toBe(executed.text);
    }
  });

  it('filters by object', async () => {
    const query = `?objectId=${venue.objects[1].id}`;
    const direct = await h.request({ method: 'GET', url: list(query), apiKey: venue.apiKey });
    const executed = await executing.request({ method: 'GET', url: list(query), apiKey: venue.apiKey });
    expect(direct.text).toBe(executed.text);
    expect((direct.body as { bookings: unknown[] }).bookings.length).toBe(4);
  });

  it.each([
    '?pageSize=0',
    '?pageSize=101',
    '?pageSize=abc',
    '?page=0',
    '?page=1.5',
    '?status=NOPE',
    '?objectId=not-a-uuid',
    '?from=yesterday',
  ])('refuses bad parameters exactly as the executed operation does: %s', async (query) => {
    const direct = await h.request({ method: 'GET', url: list(query), apiKey: venue.apiKey });
    const executed = await executing.request({ method: 'GET', url: list(query), apiKey: venue.apiKey });
    expect(direct.status).toBeGreaterThanOrEqual(400);
    expect(direct.status).toBe(executed.status);
    expect(direct.text).toBe(executed.text);
  });

  it("refuses another tenant's key as the executed operation does", async () => {
    const other = await h.tenant();
    const direct = await h.request({ method: 'GET', url: list(''), apiKey: other.apiKey });
    const executed = await executing.request({ method: 'GET', url: list(''), apiKey: other.apiKey });
    expect(direct.status).toBe(403);
    expect(direct.text).toBe(executed.text);
  });

  it('reads a page in one SQL statement, whatever its size', async () => {
    // The counter is the process's: a background job's poll may land in one count, never in all
    // three, so the fewest of three is the request's own.
    const statements = async (query: string) => {
      const counts: number[] = [];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const before = h.deps.database.queries.count;
        const res = await h.request({ method: 'GET', url: list(query), apiKey: venue.apiKey });
        expect(res.status).toBe(200);
        counts.push(h.deps.database.queries.count - before);
      }
      return Math.min(...counts);
    };
    // The key's lookup is cached after the first request.
    await statements('?pageSize=1');
    expect(await statements('?pageSize=1')).toBe(await statements('?pageSize=100'));
  });
});
