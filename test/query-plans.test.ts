import { beforeAll, describe, expect, inject, it } from 'vitest';
import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import type { DB } from '../src/kernel/db/types.js';
import { harness, type Harness } from './harness.js';
import { buildVenue } from './builders.js';
import {
  bookingsConnection,
  bookingCursor,
  listBookings,
  getBooking,
} from '../src/modules/bookings/bookings.service.js';
import { parseBookingsConnection } from '../src/modules/bookings/bookings.commands.js';
import { availabilityOn } from '../src/modules/availability/index.js';
import { eventFeed, eventsConnection } from '../src/modules/webhooks/event-feed.service.js';
import { parseEventFeed, parseEventsConnection } from '../src/modules/webhooks/event-feed.commands.js';
import { cursorOf } from '../src/modules/webhooks/event-feed.rules.js';

// The hot read paths' SQL, planned by PostgreSQL over a realistic table: many tenants' bookings
// (this tenant's are ~3 % of them), statistics fresh (ANALYZE, as autovacuum keeps them). Each
// statement must reach bookings through an index, never a sequential scan. enable_seqscan stays on:
// the planner is free to choose, and a plan that only avoids a seq scan when it is forbidden is
// exactly what this test must catch. PostgreSQL only: PGlite plans alike but is not what runs at
// scale, and the embedded database of one club stays small.

let h: Harness;
const onPostgres = inject('postgresRun') !== undefined;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

/** The statements `work` sends, each with PostgreSQL's plan for its parameters. */
async function plansOf(work: (db: Kysely<DB>) => Promise<unknown>): Promise<{ sql: string; nodes: PlanNode[] }[]> {
  const sent: CompiledQuery[] = [];
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: h.deps.database.pool }),
    log: (event) => {
      if (event.level === 'query') sent.push(event.query);
    },
  });
  await work(db);
  const plans = [];
  for (const query of sent) {
    const explained = await h.deps.database.pool.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
      `EXPLAIN (FORMAT JSON) ${query.sql}`,
      [...query.parameters],
    );
    plans.push({ sql: query.sql, nodes: nodesOf(explained.rows[0]['QUERY PLAN'][0].Plan) });
  }
  return plans;
}

describe.runIf(onPostgres)('query plans of the hot read paths (PostgreSQL)', () => {
  let venue: Awaited<ReturnType<typeof buildVenue>>;
  beforeAll(async () => {
    h = await harness();
    venue = await buildVenue(h, { objects: 5 });
    const others = [];
    for (let i = 0; i < 30; i += 1) others.push(await buildVenue(h));
    const objectIds = [...venue.objects, ...others.map((o) => o.object)].map((o) => o.id);
    const db = h.deps.database.db;
    // Set-based: one booking a day per object, 400 days for this tenant's objects, 2,000 for the others'.
    await sql`
      INSERT INTO bookings (tenant_id, object_id, guest_name, guest_email, start_time, end_time, blocked_until, status, total_price)
      SELECT o.tenant_id, o.id, 'Guest', 'guest' || d || '@example.com', t, t + interval '1 hour', t + interval '1 hour',
             CASE WHEN d % 4 = 0 THEN 'PENDING' ELSE 'CONFIRMED' END, 2000
        FROM objects o
        CROSS JOIN LATERAL generate_series(0, CASE WHEN o.tenant_id = ${venue.tenantId} THEN 399 ELSE 1999 END) d
        CROSS JOIN LATERAL (SELECT timestamptz '2025-06-01 09:00+00' + d * interval '1 day') s(t)
       WHERE o.id = ANY(${objectIds}::uuid[])`.execute(db);
    await sql`ANALYZE bookings`.execute(db);
    await sql`ANALYZE objects`.execute(db);
    await sql`ANALYZE accommodations`.execute(db);
  }, 300_000);

  function expectIndexedBookings(plans: { sql: string; nodes: PlanNode[] }[]): void {
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      const onBookings = plan.nodes.filter((n) => n['Relation Name'] === 'bookings');
      const seq = onBookings.filter((n) => n['Node Type'] === 'Seq Scan');
      expect(seq, `sequential scan of bookings in:\n${plan.sql}`).toEqual([]);
      if (/\bbookings\b/.test(plan.sql)) {
        const indexed = plan.nodes.filter(
          (n) =>
            n['Index Name'] !== undefined &&
            n['Relation Name'] !== 'objects' &&
            n['Relation Name'] !== 'accommodations',
        );
        expect(indexed.length, `no index use on bookings in:\n${plan.sql}`).toBeGreaterThan(0);
      }
    }
  }

  it('the REST listing (page with total) and the GraphQL listing (planned columns, no total)', async () => {
    expectIndexedBookings(await plansOf((db) => listBookings(db, venue.tenantId, { pageSize: 100, page: 3 })));
    expectIndexedBookings(
      await plansOf((db) =>
        listBookings(
          db,
          venue.tenantId,
          { pageSize: 100, status: 'CONFIRMED' },
          { withTotal: false, plan: { columns: ['id', 'start_time', 'status', 'object_id'], related: true } },
        ),
      ),
    );
    expectIndexedBookings(
      await plansOf((db) =>
        listBookings(db, venue.tenantId, {
          pageSize: 20,
          objectId: venue.object.id,
          from: new Date('2025-09-01T00:00:00Z'),
        }),
      ),
    );
  });

  it('the keyset page of bookingsConnection, after a cursor deep in the table, with and without the total', async () => {
    const after = bookingCursor({
      start_time: new Date('2026-03-01T09:00:00Z'),
      id: '00000000-0000-4000-8000-000000000000',
    });
    expectIndexedBookings(
      await plansOf((db) =>
        bookingsConnection(db, venue.tenantId, parseBookingsConnection({ first: 100, after }), {
          withTotal: true,
          plan: {},
        }),
      ),
    );
    expectIndexedBookings(
      await plansOf((db) =>
        bookingsConnection(db, venue.tenantId, parseBookingsConnection({ first: 100, after, status: 'CONFIRMED' }), {
          withTotal: false,
          plan: { columns: ['id', 'status'], related: false },
        }),
      ),
    );
  });

  it('availability of an accommodation and of one object on a day', async () => {
    const now = new Date('2025-08-01T00:00:00Z');
    expectIndexedBookings(
      await plansOf((db) =>
        availabilityOn(db, venue.tenantId, now, { date: '2025-08-10', accommodationId: venue.accommodation.id }),
      ),
    );
    expectIndexedBookings(
      await plansOf((db) => availabilityOn(db, venue.tenantId, now, { date: '2025-08-10', objectId: venue.object.id })),
    );
  });

  it('sees a sequential scan where there is one (the check itself)', async () => {
    const plans = await plansOf((db) =>
      // total_price has no index (guest_name has since search: pg_trgm's GIN answers = too).
      db.selectFrom('bookings').select('id').where('total_price', '=', -1).execute(),
    );
    expect(plans[0].nodes.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'bookings')).toBe(true);
  });

  it('a booking by id', async () => {
    const [row] = await h.deps.database.db
      .selectFrom('bookings')
      .select('id')
      .where('tenant_id', '=', venue.tenantId)
      .limit(1)
      .execute();
    expectIndexedBookings(await plansOf((db) => getBooking(db, venue.tenantId, row.id)));
  });
});

describe.runIf(onPostgres)('query plans of the events feed (PostgreSQL)', () => {
  let tenantId: string;
  let deepEventId: string;
  const live = {
    get id() {
      return tenantId;
    },
    livemode: true,
  };
  beforeAll(async () => {
    h = await harness();
    const db = h.deps.database.db;
    ({ tenantId } = await h.tenant());
    const others = [];
    for (let i = 0; i < 20; i += 1) others.push((await h.tenant()).tenantId);
    // Set-based, already fanned out (no dispatcher of another file picks them up): 3,000 events of
    // this tenant, 3,000 of each other tenant, over five types (booking.refunded rare: 1 in 100).
    await sql`
      INSERT INTO events (tenant_id, type, data, created_at, fanned_out_at)
      SELECT t, CASE WHEN n % 100 = 0 THEN 'booking.refunded'
                     ELSE (ARRAY['booking.created', 'booking.confirmed', 'booking.cancelled', 'device.offline'])[1 + n % 4] END,
             jsonb_build_object('sequence', n), now(), now()
        FROM unnest(${[tenantId, ...others]}::uuid[]) t CROSS JOIN generate_series(1, 3000) n`.execute(db);
    await sql`ANALYZE events`.execute(db);
    const deep = await db
      .selectFrom('events')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .orderBy('xact_id')
      .orderBy('seq')
      .offset(2000)
      .limit(1)
      .executeTakeFirstOrThrow();
    deepEventId = deep.id;
  }, 300_000);

  /** No sequential scan of events, and only these indexes read (a bitmap heap scan names its index on the child node). */
  function expectIndexedEvents(plans: { sql: string; nodes: PlanNode[] }[], indexes: string[]): void {
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      const onEvents = plan.nodes.filter((n) => n['Relation Name'] === 'events');
      expect(
        onEvents.filter((n) => n['Node Type'] === 'Seq Scan'),
        `sequential scan of events in:\n${plan.sql}`,
      ).toEqual([]);
      const used = plan.nodes.flatMap((n) => (n['Index Name'] ? [n['Index Name']] : []));
      expect(used.length, `no index use in:\n${plan.sql}`).toBeGreaterThan(0);
      for (const index of used) expect(indexes, `index of:\n${plan.sql}`).toContain(index);
    }
  }

  it('a page of the whole feed, from the start and after a cursor deep in it, with the total', async () => {
    // The cursor's event is looked up by (tenant, id) or by id alone: either unique index is one probe.
    const feed = ['events_feed_idx', 'events_tenant_id_id_key', 'events_pkey'];
    expectIndexedEvents(await plansOf((db) => eventFeed(db, live, parseEventFeed({ limit: 100 }))), feed);
    expectIndexedEvents(
      await plansOf((db) => eventFeed(db, live, parseEventFeed({ limit: 100, after: deepEventId }))),
      feed,
    );
    const after = cursorOf({ xactId: '1', seq: '1' });
    expectIndexedEvents(
      await plansOf((db) => eventsConnection(db, live, parseEventsConnection({ first: 100, after }), true)),
      feed,
    );
  });

  it('a page of some types (a rare one among them), and their total', async () => {
    const byType = ['events_feed_type_idx'];
    const types = ['booking.refunded', 'booking.cancelled'];
    expectIndexedEvents(await plansOf((db) => eventFeed(db, live, parseEventFeed({ limit: 100, types }))), byType);
    expectIndexedEvents(
      await plansOf((db) => eventsConnection(db, live, parseEventsConnection({ first: 100, types }), true)),
      byType,
    );
  });
});
