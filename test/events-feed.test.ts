import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { bookViaRest, buildVenue, buildWebhook, setBookingStatus, slotInDays } from './builders.js';
import { Receiver } from './receiver.js';
import { EVENT_TYPES, recordEvent, type EventType } from '../src/modules/webhooks/index.js';
import { WebhookDispatcher, dispatcherOptionsOf } from '../src/modules/webhooks/dispatcher.js';
import { encodeCursor } from '../src/kernel/paging.js';
import { sql } from 'kysely';

// The events feed (docs/events.md) through REST and GraphQL: the envelopes webhooks carry, in an
// order that pages on without a gap or a repeat while transactions commit out of order.

let h: Harness;
const receiver = new Receiver();
const tenants: string[] = [];

beforeAll(async () => {
  h = await harness();
  await receiver.start();
});
afterAll(() => receiver.stop());
afterEach(async () => {
  receiver.reply = () => ({ status: 204 });
  // Subscriptions go with their deliveries, so no later file's dispatcher sends them.
  if (tenants.length)
    await h.deps.database.db.deleteFrom('webhooks').where('tenant_id', 'in', tenants.splice(0)).execute();
});

async function tenant() {
  const t = await h.tenant();
  tenants.push(t.tenantId);
  return t;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const feedUrl = (tenantId: string, query = '') => `/api/v1/tenants/${tenantId}/events${query ? `?${query}` : ''}`;

const EVENTS_QUERY = `query Events($first: Int, $after: String, $types: [String!]) {
  events(first: $first, after: $after, types: $types) {
    edges { cursor node { id type timestamp tenantId apiVersion data livemode } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

/**
 * Resolves once the feed serves these events: every transaction older than theirs has ended. On a
 * PostgreSQL server other workers' transactions (in other databases too: transaction ids are
 * server-wide) may hold them back for a moment (docs/events.md, "Short delay").
 */
async function settled(eventIds: string[]): Promise<void> {
  for (const deadline = Date.now() + 180_000; Date.now() < deadline; await pause(20)) {
    const { rows } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM events
      WHERE id = ANY (${eventIds}::uuid[]) AND xact_id < pg_snapshot_xmin(pg_current_snapshot())`.execute(
      h.deps.database.db,
    );
    if (Number(rows[0]?.n) === eventIds.length) return;
  }
  throw new Error(`${eventIds.length} events did not settle within 3 minutes`);
}

/** Events written straight to the outbox (one transaction), as the services write them; resolves once the feed serves them. */
async function record(tenantId: string, types: EventType[]): Promise<string[]> {
  const ids = await h.deps.database.db.transaction().execute(async (trx) => {
    const written: string[] = [];
    for (const [i, type] of types.entries())
      written.push(await recordEvent(trx, tenantId, type, { n: i, sequence: i + 1 }));
    return written;
  });
  await settled(ids);
  return ids;
}

/** Every REST page from the start, following `next`. */
async function readAllRest(tenantId: string, apiKey: string, query = ''): Promise<{ id: string; type: string }[]> {
  const events: { id: string; type: string }[] = [];
  let after: string | null = null;
  for (;;) {
    const params = [query, after ? `after=${after}` : ''].filter(Boolean).join('&');
    const res = await h.request({ method: 'GET', url: feedUrl(tenantId, params), apiKey });
    expect(res.status, res.text).toBe(200);
    events.push(...res.body.events);
    after = res.body.next;
    if (!after) return events;
  }
}

/** Runs dispatcher passes until one attempts nothing. */
async function drain(dispatcher: WebhookDispatcher) {
  for (let pass = 0; pass < 50; pass += 1) if ((await dispatcher.runOnce()).attempted === 0) return;
}

describe('the events feed', () => {
  it(
    'pages through 1,000 events of concurrent transactions, some committing late, while deliveries fail, with no gap or repeat',
    { timeout: 300_000 },
    async () => {
      const venue = await buildVenue(h, { objects: 4 });
      tenants.push(venue.tenantId);
      const { tenantId, apiKey } = venue;
      const db = h.deps.database.db;
      receiver.reply = (request) => (request.path === '/feed-failing' ? { status: 500 } : { status: 204 });
      // Every type but the opt-in customer.created, which the bookings' new guest would add.
      const subscribed = EVENT_TYPES.filter((type) => type !== 'customer.created');
      await buildWebhook(h, tenantId, { url: receiver.url('/feed-failing'), events: subscribed });

      // 196 transactions of 5 events (every 7th holds its first event back before committing,
      // so later transactions commit first) and 20 bookings made through REST: 1,000 events.
      const TRANSACTIONS = 196;
      const PER_TRANSACTION = 5;
      const BOOKINGS = 20;
      const expectedCount = TRANSACTIONS * PER_TRANSACTION + BOOKINGS;
      const writeTransaction = (i: number) =>
        db.transaction().execute(async (trx) => {
          for (let j = 0; j < PER_TRANSACTION; j += 1) {
            const type = EVENT_TYPES[(i + j) % EVENT_TYPES.length] ?? 'booking.created';
            await recordEvent(trx, tenantId, type, { transaction: i, n: j, sequence: j + 1 });
            if (i % 7 === 0 && j === 0) await pause(40 + (i % 5) * 30);
          }
        });
      let writing = true;
      // Set once every event of the tenant is committed and served (other transactions on a shared
      // server may hold the last ones back a while): a reader that reaches the end of the feed after
      // that has seen all it will ever see, so what it lacks is a gap, not a delay.
      let allServed = false;
      const writers = (async () => {
        let next = 0;
        const worker = async () => {
          for (let i = next++; i < TRANSACTIONS; i = next++) await writeTransaction(i);
        };
        const booker = async () => {
          for (let b = 0; b < BOOKINGS; b += 1)
            await bookViaRest(h, {
              tenantId,
              apiKey,
              objectId: venue.objects[b % 4].id,
              ...slotInDays(2 + Math.floor(b / 4)),
            });
        };
        await Promise.all([worker(), worker(), worker(), worker(), booker()]);
        writing = false;
        const written = await db.selectFrom('events').select('id').where('tenant_id', '=', tenantId).execute();
        await settled(written.map((e) => e.id));
        allServed = true;
      })().catch((error: unknown) => {
        writing = false;
        throw error;
      });

      // The dispatcher fans every event out to the failing receiver meanwhile.
      const dispatcher = new WebhookDispatcher(dispatcherOptionsOf(h.deps, { sweeps: [] }));
      const dispatching = (async () => {
        while (writing) {
          await dispatcher.runOnce();
          await pause(10);
        }
      })();

      // A REST reader follows `next`, and on the last page polls after the last event's id; a
      // GraphQL reader follows endCursor. Both read while the writers write.
      const restSeen: string[] = [];
      const readRest = async () => {
        let after: string | null = null;
        for (;;) {
          const final = allServed;
          const res = await h.request({
            method: 'GET',
            url: feedUrl(tenantId, `limit=100${after ? `&after=${after}` : ''}`),
            apiKey,
          });
          expect(res.status, res.text).toBe(200);
          const ids = (res.body.events as { id: string }[]).map((e) => e.id);
          restSeen.push(...ids);
          if (res.body.next) after = res.body.next;
          else {
            after = ids.at(-1) ?? after;
            if (final) return;
            await pause(10);
          }
        }
      };
      const graphqlSeen: string[] = [];
      const graphqlCursors: string[] = [];
      const readGraphql = async () => {
        let after: string | null = null;
        for (;;) {
          const final = allServed;
          const res = await h.graphql(apiKey, EVENTS_QUERY, { first: 37, after });
          expect(res.body.errors).toBeUndefined();
          const { edges, pageInfo } = res.body.data.events;
          graphqlSeen.push(...edges.map((e: { node: { id: string } }) => e.node.id));
          graphqlCursors.push(...edges.map((e: { cursor: string }) => e.cursor));
          after = pageInfo.endCursor ?? after;
          if (!pageInfo.hasNextPage) {
            if (final) return;
            await pause(10);
          }
        }
      };
      await Promise.all([writers, dispatching, readRest(), readGraphql()]);

      const inTable = await db
        .selectFrom('events')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('type', '<>', 'webhook.test')
        .execute();
      const expected = inTable.map((e) => e.id).sort();
      expect(expected).toHaveLength(expectedCount);
      for (const seen of [restSeen, graphqlSeen]) {
        expect(new Set(seen).size, 'no repeat').toBe(seen.length);
        expect([...seen].sort(), 'no gap').toEqual(expected);
      }
      // Both readers saw one order.
      expect(graphqlSeen).toEqual(restSeen);
      // Cursors grow: (transaction id, number) strictly increasing.
      const positions = graphqlCursors.map((c) => {
        const [xid = '', seq = ''] = Buffer.from(c, 'base64url').toString('utf8').slice('event:'.length).split('|');
        return [BigInt(xid), BigInt(seq)] as const;
      });
      for (let i = 1; i < positions.length; i += 1) {
        const [x0, s0] = positions[i - 1];
        const [x1, s1] = positions[i];
        expect(x1 > x0 || (x1 === x0 && s1 > s0), `cursor ${i} follows cursor ${i - 1}`).toBe(true);
      }
      // The deliveries were failing all along.
      const failing = receiver.requests.filter((r) => r.path === '/feed-failing');
      expect(failing.length).toBeGreaterThan(0);
      const deliveries = await db
        .selectFrom('webhook_deliveries')
        .select(['status', 'last_status_code'])
        .where('tenant_id', '=', tenantId)
        .where('attempt_count', '>', 0)
        .execute();
      expect(deliveries.length).toBeGreaterThan(0);
      expect(deliveries.every((d) => d.status !== 'succeeded' && d.last_status_code === 500)).toBe(true);
    },
  );

  it('serves the very envelopes webhooks deliver: REST, GraphQL and the receiver agree', async () => {
    const v = await buildVenue(h);
    tenants.push(v.tenantId);
    await buildWebhook(h, v.tenantId, { url: receiver.url('/feed-envelopes') });
    const bookingId = await bookViaRest(h, {
      tenantId: v.tenantId,
      apiKey: v.apiKey,
      objectId: v.object.id,
      ...slotInDays(3),
      status: 'CONFIRMED',
    });
    await setBookingStatus(h, v, bookingId, 'CANCELLED');
    await drain(new WebhookDispatcher(dispatcherOptionsOf(h.deps, { sweeps: [] })));
    const delivered = receiver.requests.filter((r) => r.path === '/feed-envelopes');
    expect(delivered).toHaveLength(3);
    await settled(delivered.map((r) => String(r.headers['webhook-id'])));

    const res = await h.request({ method: 'GET', url: feedUrl(v.tenantId), apiKey: v.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.next).toBeNull();
    const events = res.body.events as { id: string; type: string; data: { sequence: number } }[];
    expect(events.map((e) => e.type)).toEqual(['booking.created', 'booking.confirmed', 'booking.cancelled']);
    expect(events.map((e) => e.data.sequence)).toEqual([1, 2, 3]);
    for (const event of events) {
      const delivery = delivered.find((r) => r.headers['webhook-id'] === event.id);
      expect(delivery, `a delivery of ${event.id}`).toBeDefined();
      // Byte for byte the body the receiver got.
      expect(JSON.stringify(event)).toBe(delivery!.body);
    }
    // The REST text itself holds the bodies as delivered.
    for (const delivery of delivered) expect(res.text).toContain(delivery.body);

    const gql = await h.graphql(v.apiKey, EVENTS_QUERY, {});
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.events.edges.map((e: { node: unknown }) => e.node)).toEqual(events);
    expect(gql.body.data.events.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
  });

  it('filters by type and pages by limit, the same through REST and GraphQL', async () => {
    const { tenantId, apiKey } = await tenant();
    const types: EventType[] = [
      'booking.created',
      'device.offline',
      'booking.confirmed',
      'booking.created',
      'device.online',
      'booking.created',
      'device.offline',
    ];
    const ids = await record(tenantId, types);
    const wanted = ids.filter((_, i) => types[i] === 'booking.created' || types[i] === 'device.offline');

    const all = await readAllRest(tenantId, apiKey);
    expect(all.map((e) => e.id)).toEqual(ids);
    for (const query of [
      'types=booking.created,device.offline',
      'types=device.offline&types=booking.created',
      'types=booking.created,%20device.offline,booking.created',
    ]) {
      expect(
        (await readAllRest(tenantId, apiKey, query)).map((e) => e.id),
        query,
      ).toEqual(wanted);
      expect(
        (await readAllRest(tenantId, apiKey, `${query}&limit=2`)).map((e) => e.id),
        query,
      ).toEqual(wanted);
    }
    // limit: pages of that size, next on all but the last, null on the last.
    const first = await h.request({ method: 'GET', url: feedUrl(tenantId, 'limit=3'), apiKey });
    expect(first.body.events).toHaveLength(3);
    expect(typeof first.body.next).toBe('string');
    const last = await h.request({ method: 'GET', url: feedUrl(tenantId, `limit=4&after=${first.body.next}`), apiKey });
    expect(last.body.events.map((e: { id: string }) => e.id)).toEqual(ids.slice(3));
    expect(last.body.next).toBeNull();
    // Polling after the last event's id: nothing yet, then what is written next.
    const caughtUp = await h.request({ method: 'GET', url: feedUrl(tenantId, `after=${ids.at(-1)}`), apiKey });
    expect(caughtUp.body).toEqual({ events: [], next: null });
    const [later] = await record(tenantId, ['booking.completed']);
    const polled = await h.request({ method: 'GET', url: feedUrl(tenantId, `after=${ids.at(-1)}`), apiKey });
    expect(polled.body.events.map((e: { id: string }) => e.id)).toEqual([later]);
    // An event id in the middle: the events after it.
    const middle = await h.request({ method: 'GET', url: feedUrl(tenantId, `after=${ids[2]}&limit=2`), apiKey });
    expect(middle.body.events.map((e: { id: string }) => e.id)).toEqual(ids.slice(3, 5));

    // GraphQL: the same filter, an item may list several types.
    const gql = await h.graphql(apiKey, EVENTS_QUERY, { types: ['booking.created,device.offline'], first: 100 });
    expect(gql.body.data.events.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(wanted);
    const counted = await h.graphql(apiKey, `{ events(types: ["device.offline"]) { totalCount nodes { id } } }`);
    expect(counted.body.data.events).toEqual({
      totalCount: 2,
      nodes: ids.filter((_, i) => types[i] === 'device.offline').map((id) => ({ id })),
    });
    // endCursor of the last page polls on.
    const page = await h.graphql(apiKey, EVENTS_QUERY, { first: 100 });
    const { endCursor, hasNextPage } = page.body.data.events.pageInfo;
    expect(hasNextPage).toBe(false);
    expect((await h.graphql(apiKey, EVENTS_QUERY, { after: endCursor })).body.data.events.edges).toEqual([]);
  });

  it('leaves out a subscription’s test event', async () => {
    const { tenantId, apiKey } = await tenant();
    const webhook = await buildWebhook(h, tenantId, { url: receiver.url('/feed-test-event') });
    const tested = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${tenantId}/webhooks/${webhook.id}/test`,
      apiKey,
    });
    expect(tested.status).toBe(200);
    const [created] = await record(tenantId, ['booking.created']);
    expect((await readAllRest(tenantId, apiKey)).map((e) => e.id)).toEqual([created]);
  });

  const BAD_REST: [string, string, RegExp][] = [
    ['limit=0', 'limit', /from 1 to 100/],
    ['limit=101', 'limit', /from 1 to 100/],
    ['limit=abc', 'limit', /whole number/],
    ['limit=1.5', 'limit', /whole number/],
    ['after=not-a-cursor!', 'after', /neither a cursor/],
    [
      `after=${encodeCursor('delivery', ['2026-11-24T10:00:00.000000Z', '3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a9c64'])}`,
      'after',
      /neither a cursor/,
    ],
    [`after=${encodeCursor('event', ['-1', '2'])}`, 'after', /neither a cursor/],
    [`after=${encodeCursor('event', ['18446744073709551616', '2'])}`, 'after', /neither a cursor/],
    ['after=3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a9c64', 'after', /neither a cursor/],
    ['types=booking.created,nope.unknown', 'types', /unknown event type "nope\.unknown"; known: booking\.created/],
    ['types=webhook.test', 'types', /unknown event type "webhook\.test"/],
  ];

  it.each(BAD_REST)('refuses %s with a 400 naming %s', async (query, field, message) => {
    const { tenantId, apiKey } = await tenant();
    const res = await h.request({ method: 'GET', url: feedUrl(tenantId, query), apiKey });
    expect(res.status, res.text).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body.errors).toEqual([{ field, message: expect.stringMatching(message) }]);
  });

  it.each([
    [{ first: 0 }, 'first'],
    [{ first: 101 }, 'first'],
    [{ after: 'garbage' }, 'after'],
    [{ types: ['booking.created', 'booking.nope'] }, 'types'],
  ])('refuses GraphQL %j naming %s', async (variables, field) => {
    const { apiKey } = await tenant();
    const res = await h.graphql(apiKey, EVENTS_QUERY, variables);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field }] });
  });

  it('refuses another tenant’s event id as a cursor', async () => {
    const a = await tenant();
    const b = await tenant();
    const [theirs] = await record(b.tenantId, ['booking.created']);
    const res = await h.request({ method: 'GET', url: feedUrl(a.tenantId, `after=${theirs}`), apiKey: a.apiKey });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'after', message: expect.stringMatching(/neither a cursor/) }]);
  });

  it('is the tenant’s own: another tenant’s key cannot read it, and each feed holds only its tenant’s events', async () => {
    const a = await tenant();
    const b = await tenant();
    const [ofA] = await record(a.tenantId, ['booking.created']);
    const [ofB] = await record(b.tenantId, ['booking.created']);
    const refused = await h.request({ method: 'GET', url: feedUrl(a.tenantId), apiKey: b.apiKey });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('tenant_mismatch');
    const gql = await h.graphql(b.apiKey, `query($t: ID) { events(tenantId: $t) { nodes { id } } }`, { t: a.tenantId });
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await readAllRest(a.tenantId, a.apiKey)).map((e) => e.id)).toEqual([ofA]);
    expect((await readAllRest(b.tenantId, b.apiKey)).map((e) => e.id)).toEqual([ofB]);
    const own = await h.graphql(b.apiKey, `{ events { nodes { id tenantId } } }`);
    expect(own.body.data.events.nodes).toEqual([{ id: ofB, tenantId: b.tenantId }]);
  });

  it('needs the scope webhooks:read', async () => {
    const { tenantId } = await tenant();
    const bookingsOnly = await h.key(tenantId, ['bookings:read', 'webhooks:write']);
    const refused = await h.request({ method: 'GET', url: feedUrl(tenantId), apiKey: bookingsOnly });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('missing_scope');
    const gql = await h.graphql(bookingsOnly, `{ events { nodes { id } } }`);
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const reader = await h.key(tenantId, ['webhooks:read']);
    expect((await h.request({ method: 'GET', url: feedUrl(tenantId), apiKey: reader })).status).toBe(200);
  });
});
