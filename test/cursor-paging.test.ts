import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness, type TestResponse } from './harness.js';
import {
  buildBooking,
  buildCancellationPolicy,
  buildDevice,
  buildDoor,
  buildPricingRule,
  buildVenue,
  buildWebhook,
  slotInDays,
} from './builders.js';
import { createObject } from '../src/modules/catalog/catalog.service.js';
import { parseCreateObject } from '../src/modules/catalog/catalog.commands.js';
import { upsertDiscrepancy } from '../src/modules/payments/payment-issues.repository.js';

// Cursor paging on every REST list (issue #44; docs/api.md, "Cursor paging"): `after` and `limit`
// beside the page numbers, the next cursor in the body's `next` (or, for a bare list, only in the
// `Link: <…>; rel="next"` header). Each list is walked through HTTP, rows are inserted between
// pages, and cursors that are garbage, tampered with, of another list or of another tenant are tried.

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

type Venue = Awaited<ReturnType<typeof buildVenue>>;

interface Tenant {
  venue: Venue;
  /** The key the list is read with (the admin key, or the publishable key). */
  key: string;
  /** Whatever a list's setup made (a webhook, a door, a booking). */
  extra: Record<string, string>;
}

interface ListCase {
  name: string;
  /** The path under /api/v1/tenants/{tenantId}. */
  path: (t: Tenant) => string;
  /** The items of an answer, in order. */
  items: (res: TestResponse) => Array<{ id: string }>;
  /** Whether the next cursor is in the body (`next`) or only in the Link header. */
  bare?: boolean;
  setup?: (t: Tenant) => Promise<void>;
  /** Adds one item; `late` items (inserted between pages) sort before the earlier ones where the order allows. */
  add: (t: Tenant, i: number, late: boolean) => Promise<void>;
}

const hour = (base: number, i: number) => new Date(base + i * 3_600_000).toISOString();
const JULY = Date.UTC(2027, 6, 1);
let slugCounter = 0;

const CASES: ListCase[] = [
  {
    name: 'bookings',
    path: () => '/bookings',
    items: (res) => res.body.bookings,
    setup: async (t) => {
      const second = await createObject(
        h.deps.database.db,
        t.venue.tenantId,
        parseCreateObject({ accommodationId: t.venue.accommodation.id, name: 'Court 2', pricePerHour: 1000 }),
      );
      t.extra.second = second.id;
    },
    // Two bookings share each start time (on the two objects): the id breaks the tie.
    add: async (t, i, late) => {
      const at = late ? Date.UTC(2027, 5, 1) : JULY;
      const slot = Math.floor(i / 2);
      await buildBooking(h, t.venue.tenantId, i % 2 ? (t.extra.second ?? '') : t.venue.object.id, {
        start: hour(at, slot),
        end: hour(at, slot + 1),
      });
    },
  },
  {
    name: 'objects',
    path: () => '/objects',
    items: (res) => res.body.objects,
    // Names repeat (the id breaks the tie); late ones sort first by name.
    add: async (t, i, late) => {
      await createObject(
        h.deps.database.db,
        t.venue.tenantId,
        parseCreateObject({
          accommodationId: t.venue.accommodation.id,
          name: late ? `Aa ${i}` : `Room ${i % 3} | ${'é'.repeat(i)}`,
          pricePerHour: 1000,
        }),
      );
    },
  },
  {
    name: 'webhooks',
    path: () => '/webhooks',
    items: (res) => res.body.webhooks,
    add: async (t, i) => {
      await buildWebhook(h, t.venue.tenantId, { url: `http://127.0.0.1:9/hook-${i}` });
    },
  },
  {
    name: 'webhook deliveries',
    path: (t) => `/webhooks/${t.extra.webhook}/deliveries`,
    items: (res) => res.body.deliveries,
    setup: async (t) => {
      t.extra.webhook = (await buildWebhook(h, t.venue.tenantId, { url: 'http://127.0.0.1:9/log' })).id;
    },
    // Newest first; three deliveries share each instant (the id breaks the tie).
    add: async (t, i, late) => {
      const db = h.deps.database.db;
      const event = await db
        .insertInto('events')
        .values({ tenant_id: t.venue.tenantId, type: 'booking.created', data: '{}', fanned_out_at: new Date() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('webhook_deliveries')
        .values({
          tenant_id: t.venue.tenantId,
          webhook_id: t.extra.webhook ?? '',
          event_id: event.id,
          status: 'succeeded',
          created_at: new Date(Date.UTC(2027, 4, 1) + (late ? 86_400_000 : Math.floor(i / 3) * 1000)),
        })
        .execute();
    },
  },
  {
    name: 'pricing rules',
    path: () => '/pricing-rules',
    items: (res) => res.body.pricingRules,
    add: async (t, i) => {
      await buildPricingRule(h, t.venue.tenantId, {
        name: `Rule ${i}`,
        type: 'day_based',
        weekdays: ['monday'],
        percent: 10,
      });
    },
  },
  {
    name: 'cancellation policies',
    path: () => '/cancellation-policies',
    items: (res) => res.body.cancellationPolicies,
    add: async (t, i) => {
      await buildCancellationPolicy(h, t.venue.tenantId, {
        name: `Policy ${i}`,
        tiers: [{ hoursBeforeStart: 0, refundPercent: 0 }],
      });
    },
  },
  {
    name: 'public objects',
    path: () => '/public/objects',
    items: (res) => res.body.objects,
    setup: async (t) => {
      const page = await h.graphql(
        t.venue.apiKey,
        'mutation($input: BookingPageSettingsInput!) { updateBookingPageSettings(input: $input) { slug } }',
        { input: { enabled: true, slug: `cursor-${process.pid}-${(slugCounter += 1)}` } },
      );
      expect(page.body.errors).toBeUndefined();
      const pk = await h.graphql(t.venue.apiKey, 'mutation { createPublishableKey { apiKey } }');
      t.key = pk.body.data.createPublishableKey.apiKey;
    },
    add: async (t, i, late) => {
      const object = await createObject(
        h.deps.database.db,
        t.venue.tenantId,
        parseCreateObject({
          accommodationId: t.venue.accommodation.id,
          name: late ? `Aa ${i}` : `Court ${i % 2}`,
          pricePerHour: 1000,
        }),
      );
      const res = await h.graphql(
        t.venue.apiKey,
        'mutation($ids: [ID!]!) { publishObjects(ids: $ids, published: true) { objects { id } } }',
        {
          ids: [object.id],
        },
      );
      expect(res.body.errors).toBeUndefined();
    },
  },
  {
    name: 'payment issues',
    path: () => '/payment-issues',
    items: (res) => res.body.paymentIssues,
    setup: async (t) => {
      t.extra.booking = (
        await buildBooking(h, t.venue.tenantId, t.venue.object.id, { start: hour(JULY, 0), end: hour(JULY, 1) })
      ).id;
    },
    add: async (t, i, late) => {
      await upsertDiscrepancy(
        h.deps.database.db,
        {
          tenant_id: t.venue.tenantId,
          booking_id: t.extra.booking ?? '',
          kind: 'amount_mismatch',
          reference: `pi_${randomUUID()}`,
          amount: 100 + i,
          currency: 'EUR',
          detail: `difference ${i}`,
        },
        new Date(Date.UTC(2026, 10, 1) + (late ? -86_400_000 : Math.floor(i / 2) * 60_000)),
      );
    },
  },
  {
    name: 'devices',
    path: () => '/devices',
    bare: true,
    items: (res) => res.body,
    setup: async (t) => {
      t.extra.door = (await buildDoor(h, t.venue.tenantId, [t.venue.object.id])).id;
    },
    add: async (t, i) => {
      await buildDevice(h, t.venue.tenantId, [t.extra.door ?? ''], `Controller ${i}`);
    },
  },
  {
    name: 'customers',
    path: () => '/customers',
    items: (res) => res.body.customers,
    add: async (t, i) => {
      const res = await h.request({
        method: 'POST',
        url: `/api/v1/tenants/${t.venue.tenantId}/bookings`,
        apiKey: t.venue.apiKey,
        body: {
          objectId: t.venue.object.id,
          guestName: `Guest ${i}`,
          guestEmail: `guest-${i}-${randomUUID()}@example.com`,
          ...slotInDays(2 + i),
        },
      });
      expect(res.status).toBe(201);
    },
  },
  {
    name: 'events',
    path: () => '/events',
    items: (res) => res.body.events,
    add: async (t, i) => {
      await buildWebhook(h, t.venue.tenantId, { url: `http://127.0.0.1:9/ev-${i}` });
      // Each booking created over REST writes one event (booking.created).
      const res = await h.request({
        method: 'POST',
        url: `/api/v1/tenants/${t.venue.tenantId}/bookings`,
        apiKey: t.venue.apiKey,
        body: { objectId: t.venue.object.id, guestName: 'Ev', guestEmail: 'ev@example.com', ...slotInDays(40 + i) },
      });
      expect(res.status).toBe(201);
    },
  },
];

async function tenantFor(c: ListCase, items: number): Promise<Tenant> {
  const venue = await buildVenue(h);
  const t: Tenant = { venue, key: venue.apiKey, extra: {} };
  await c.setup?.(t);
  for (let i = 0; i < items; i += 1) await c.add(t, i, false);
  return t;
}

const get = (t: Tenant, url: string) =>
  h.request({ method: 'GET', url: `/api/v1/tenants/${t.venue.tenantId}${url}`, apiKey: t.key });

const withQuery = (path: string, query: Record<string, string>) =>
  `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams(query).toString()}`;

/** The `after` of the Link header's rel="next" (null without one). */
function linkNext(res: TestResponse): string | null {
  const link = res.headers.link;
  if (typeof link !== 'string') return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  expect(match, link).not.toBeNull();
  return new URL(match?.[1] ?? '', 'http://x').searchParams.get('after');
}

/** The next cursor of an answer: the body's `next` (which the Link header repeats), or the Link header's alone. */
function nextOf(c: ListCase, res: TestResponse): string | null {
  const fromLink = linkNext(res);
  if (c.bare) return fromLink;
  expect(fromLink).toBe(res.body.next);
  return res.body.next as string | null;
}

/** Every page from `after` on, `limit` at a time (`between` runs after the first page). */
async function walk(c: ListCase, t: Tenant, limit: number, between?: () => Promise<void>) {
  const seen: string[] = [];
  let after: string | null = null;
  for (let page = 0; page < 100; page += 1) {
    const query: Record<string, string> = { limit: String(limit), ...(after ? { after } : {}) };
    const res = await get(t, withQuery(c.path(t), query));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const items = c.items(res);
    expect(items.length).toBeLessThanOrEqual(limit);
    seen.push(...items.map((item) => item.id));
    after = nextOf(c, res);
    if (after === null) return seen;
    expect(items.length).toBe(limit);
    if (page === 0) await between?.();
  }
  throw new Error('more than 100 pages');
}

/** The whole list in one answer (no cursor), as it was listed before cursor paging. */
async function whole(c: ListCase, t: Tenant) {
  const res = await get(t, c.path(t));
  expect(res.status).toBe(200);
  return c.items(res).map((item) => item.id);
}

describe.each(CASES)('cursor paging of $name', (c) => {
  it('walks every item exactly once, in the list’s order, `limit` at a time', async () => {
    const t = await tenantFor(c, 7);
    const all = await whole(c, t);
    expect(all.length).toBeGreaterThanOrEqual(7);
    for (const limit of [1, 3, 7, 100]) {
      const seen = await walk(c, t, limit);
      expect(seen, `limit ${limit}`).toEqual(all);
    }
  });

  it('neither repeats nor skips an item when rows are inserted between pages', async () => {
    const t = await tenantFor(c, 6);
    const before = await whole(c, t);
    const seen = await walk(c, t, 2, async () => {
      for (let i = 0; i < 3; i += 1) await c.add(t, 100 + i, true);
    });
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of before) expect(seen).toContain(id);
    const after = await whole(c, t);
    // In the order of the list as it now is; what was not seen was inserted behind the cursor.
    expect(after.filter((id) => seen.includes(id))).toEqual(seen);
    for (const id of after.filter((id) => !seen.includes(id))) expect(before).not.toContain(id);
  });

  it('refuses a malformed or tampered cursor with a 400 naming `after`, and a limit out of range naming `limit`', async () => {
    const t = await tenantFor(c, 3);
    const first = await get(t, withQuery(c.path(t), { limit: '1' }));
    const cursor = nextOf(c, first) ?? '';
    expect(cursor).not.toBe('');
    const tampered = (cursor.at(-2) === 'A' ? 'B' : 'A') + cursor.slice(1);
    for (const after of [
      'garbage!',
      'x',
      tampered,
      `${cursor}A`,
      'a'.repeat(5000),
      Buffer.from('{}').toString('base64url'),
    ]) {
      const res = await get(t, withQuery(c.path(t), { after }));
      expect(res.status, after).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('after');
    }
    for (const limit of ['0', '101', 'x']) {
      const res = await get(t, withQuery(c.path(t), { limit }));
      expect(res.status, limit).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('limit');
    }
  });

  it('takes another tenant’s cursor as a position only: the answer holds this tenant’s items alone', async () => {
    const mine = await tenantFor(c, 3);
    const theirs = await tenantFor(c, 3);
    const theirCursor = nextOf(c, await get(theirs, withQuery(c.path(theirs), { limit: '1' })));
    expect(theirCursor).not.toBeNull();
    const mineAll = await whole(c, mine);
    const theirAll = await whole(c, theirs);
    const res = await get(mine, withQuery(c.path(mine), { after: theirCursor ?? '', limit: '100' }));
    if (c.name === 'webhook deliveries') {
      // The path names this tenant's subscription; the cursor still only places the page.
      expect(res.status).toBe(200);
    }
    if (res.status === 200) {
      const ids = c.items(res).map((item) => item.id);
      for (const id of ids) expect(mineAll).toContain(id);
      for (const id of ids) expect(theirAll).not.toContain(id);
    } else {
      // Only the events feed may refuse a position (its `after` also takes event ids: docs/events.md).
      expect(c.name).toBe('events');
      expect(res.status).toBe(400);
    }
  });
});

describe('cursors of one list on another', () => {
  it('are refused (400 naming after), never misread', async () => {
    const tenants = await Promise.all(CASES.map(async (c) => ({ c, t: await tenantFor(c, 2) })));
    const cursors = await Promise.all(
      tenants.map(async ({ c, t }) => nextOf(c, await get(t, withQuery(c.path(t), { limit: '1' })))),
    );
    for (const [i, { c, t }] of tenants.entries()) {
      for (const [j, cursor] of cursors.entries()) {
        if (i === j || cursor === null) continue;
        const res = await get(t, withQuery(c.path(t), { after: cursor }));
        expect(res.status, `${CASES[j]?.name} cursor on ${c.name}`).toBe(400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('after');
      }
    }
  });
});

describe('page numbers beside cursors', () => {
  it.each(['bookings', 'objects'])('%s: after or limit with page or pageSize is a 400 naming both', async (name) => {
    const c = CASES.find((x) => x.name === name) as ListCase;
    const t = await tenantFor(c, 3);
    const cursor = nextOf(c, await get(t, withQuery(c.path(t), { limit: '1' }))) ?? '';
    for (const [query, fields] of [
      [{ after: cursor, page: '2' }, ['after', 'page']],
      [{ limit: '2', page: '1' }, ['limit', 'page']],
      [{ limit: '2', pageSize: '5' }, ['limit', 'pageSize']],
    ] as const) {
      const res = await get(t, withQuery(c.path(t), query));
      expect(res.status).toBe(400);
      const named = res.body.errors.map((e: { field: string }) => e.field);
      for (const field of fields) expect(named).toContain(field);
    }
  });

  it.each(['bookings', 'objects'])(
    '%s: page numbers answer as before, with `next` (and Link) pointing past the page',
    async (name) => {
      const c = CASES.find((x) => x.name === name) as ListCase;
      const t = await tenantFor(c, 5);
      const all = await whole(c, t);
      const page1 = await get(t, withQuery(c.path(t), { page: '1', pageSize: '2' }));
      expect(page1.body.pagination).toEqual({ page: 1, pageSize: 2, total: all.length });
      expect(c.items(page1).map((i) => i.id)).toEqual(all.slice(0, 2));
      const link = page1.headers.link as string;
      expect(link).toMatch(/limit=2/);
      expect(link).not.toMatch(/[?&]page=|pageSize=/);
      const next = await get(t, withQuery(c.path(t), { after: page1.body.next, limit: '2' }));
      expect(c.items(next).map((i) => i.id)).toEqual(all.slice(2, 4));
      // The page-number page 3 of 2 (the last): no next.
      const last = await get(t, withQuery(c.path(t), { page: String(Math.ceil(all.length / 2)), pageSize: '2' }));
      expect(last.body.next).toBeNull();
      expect(last.headers.link).toBeUndefined();
    },
  );

  it('the bookings list keeps its filters across cursor pages (the Link repeats them)', async () => {
    const c = CASES.find((x) => x.name === 'bookings') as ListCase;
    const t = await tenantFor(c, 6);
    const filtered = await get(t, withQuery(c.path(t), { objectId: t.venue.object.id }));
    const expected = c.items(filtered).map((i) => i.id);
    expect(expected.length).toBe(3);
    const first = await get(t, withQuery(c.path(t), { objectId: t.venue.object.id, limit: '2' }));
    const link = /^<([^>]+)>/.exec(first.headers.link as string)?.[1] ?? '';
    expect(link).toContain(`objectId=${t.venue.object.id}`);
    const second = await h.request({ method: 'GET', url: link, apiKey: t.key });
    expect([...c.items(first), ...c.items(second)].map((i) => i.id)).toEqual(expected);
    expect(second.body.next).toBeNull();
  });
});
