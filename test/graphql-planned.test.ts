import { sql } from 'kysely';
import { parse, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildBooking, buildVenue, slotInDays } from './builders.js';
import { createContext } from '../src/kernel/context.js';
import { planBookingsConnectionField, planBookingsField } from '../src/modules/bookings/index.js';

// GraphQL `bookings` compiled to one SQL statement that writes the list's JSON
// (src/modules/bookings/fast-paths/graphql-plan.ts). The answers must be the bytes ordinary execution
// gives: this compares the shared app with an app that executes every operation, on hostile
// strings, aliases, __typename, variables, several root fields, the refusals, and selections the
// plan declines.

let h: Harness;
let executing: OwnApp;
let venue: Awaited<ReturnType<typeof buildVenue>>;
const HOSTILE = [
  'quote " and \\ backslash',
  'tab\tnew\nline\r\u0001\u001f\u007f',
  'sep\u2028\u2029 emoji 😀 ü',
  '</script>',
  "single ' quote",
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
  await db
    .updateTable('accommodations')
    .set({ address: 'Straße 1\n"Hof"' })
    .where('id', '=', venue.accommodation.id)
    .execute();
  const statuses = ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'] as const;
  for (let i = 0; i < 7; i += 1) {
    const slot = slotInDays(3 + i, 9 + (i % 3));
    const booking = await buildBooking(h, venue.tenantId, venue.objects[i % 2].id, {
      start: slot.startTime,
      end: slot.endTime,
      status: statuses[i % 4],
    });
    await db
      .updateTable('bookings')
      .set({
        guest_name: HOSTILE[i % HOSTILE.length],
        guest_phone: i % 2 ? null : `+49 "${i}"`,
        refund_amount: statuses[i % 4] === 'CANCELLED' ? 500 : null,
      })
      .where('id', '=', booking.id)
      .execute();
    await sql`update bookings set created_at = ${`2026-02-0${1 + i} 08:00:00.${987654 - i}+00`}::timestamptz where id = ${booking.id}`.execute(
      db,
    );
  }
});

afterAll(async () => {
  await executing.close();
});

const principalOf = (tenantId: string) => ({
  kind: 'apiKey' as const,
  keyId: 'test',
  tenantId,
  scopes: ['bookings:read', 'catalog:read'],
  rateLimitPerMinute: null,
});

const ALL_FIELDS =
  '__typename id objectId objectName guestName guestEmail guestPhone startTime endTime status totalPrice currency createdAt refundAmount object { __typename id name pricePerHour accommodationId createdAt accommodation { __typename id name address timeZone createdAt } }';

const cases: [string, string, Record<string, unknown>?][] = [
  ['the bench query', '{ bookings(first: 100) { id startTime status object { name accommodation { name } } } }'],
  ['every field the plan writes', `{ bookings { ${ALL_FIELDS} } }`],
  [
    'aliases',
    '{ list: bookings(first: 3) { key: id when: startTime court: object { label: name place: accommodation { street: address } } } }',
  ],
  [
    'variables',
    'query Q($s: BookingStatus, $n: Int) { bookings(status: $s, first: $n) { id guestName status } }',
    { s: 'CONFIRMED', n: 5 },
  ],
  ['a status with no bookings', '{ bookings(status: COMPLETED, first: 1) { id } }'],
  ['two root fields', '{ a: bookings(first: 2) { id } b: bookings(status: CANCELLED) { id refundAmount } }'],
  ['only ids', '{ bookings { id } }'],
  ['the own tenant named', '{ bookings(tenantId: "TENANT") { id } }'],
  // Declined by the plan (executed as usual): the bytes are the same by construction, the answer must still be right.
  ['a fragment', '{ bookings { ...F } } fragment F on Booking { id guestName }'],
  ['a directive', '{ bookings { id guestName @include(if: false) } }'],
  ['paymentUrl', '{ bookings(first: 2) { id paymentUrl } }'],
  ['the same key twice', '{ bookings(first: 2) { id id } }'],
  // Refusals: the plan throws and the operation answers.
  ['first too large', '{ bookings(first: 101) { id } }'],
  ['first zero', '{ bookings(first: 0) { id } }'],
  ['a bad variable', 'query Q($s: BookingStatus) { bookings(status: $s) { id } }', { s: 'NOPE' }],
  ['another tenant', '{ bookings(tenantId: "00000000-0000-4000-8000-000000000000") { id } }'],
  // bookingsConnection { totalCount nodes } (PostGraphile's allBookings shape), every filter.
  [
    'the bench connection',
    '{ bookingsConnection(status: CONFIRMED, first: 100) { totalCount nodes { id startTime status object { name accommodation { name } } } } }',
  ],
  ['a connection of every field', `{ bookingsConnection { nodes { ${ALL_FIELDS} } totalCount } }`],
  [
    'a connection with aliases and __typename',
    '{ c: bookingsConnection(first: 3) { __typename n: totalCount list: nodes { key: id court: object { label: name } } } }',
  ],
  ['only the total', '{ bookingsConnection(status: CANCELLED) { totalCount } }'],
  [
    'a connection with filters',
    'query Q($o: ID, $s: String, $m: JSONObject) { bookingsConnection(objectId: $o, search: $s, metadata: $m, from: "2020-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z", updatedSince: "2020-01-01T00:00:00Z", first: 50) { totalCount nodes { id guestName } } }',
    { o: 'OBJECT', s: 'quote', m: {} },
  ],
  [
    'a connection by guest email',
    '{ bookingsConnection(guestEmail: "NOBODY@example.com") { totalCount nodes { id } } }',
  ],
  // Declined: cursors (edges, pageInfo) execute as usual.
  ['edges', '{ bookingsConnection(first: 2) { edges { cursor node { id } } } }'],
  ['pageInfo', '{ bookingsConnection(first: 2) { totalCount nodes { id } pageInfo { hasNextPage endCursor } } }'],
  // Refusals.
  ['a connection with first too large', '{ bookingsConnection(first: 101) { totalCount } }'],
  ['a connection after a cursor it never gave', '{ bookingsConnection(after: "nope") { nodes { id } } }'],
  [
    'a connection of another tenant',
    '{ bookingsConnection(tenantId: "00000000-0000-4000-8000-000000000000") { totalCount } }',
  ],
];

describe('GraphQL bookings compiled to SQL', () => {
  it.each(cases)('answers the bytes ordinary execution answers: %s', async (_, text, variables) => {
    const query = text.replace('TENANT', venue.tenantId);
    if (variables?.o === 'OBJECT') variables = { ...variables, o: venue.objects[0].id };
    const planned = await h.graphql(venue.apiKey, query, variables);
    const executed = await executing.graphql(venue.apiKey, query, variables);
    expect(planned.status).toBe(executed.status);
    expect(planned.text).toBe(executed.text);
  });

  it('covers the hostile strings and both kinds of answer (the comparison is not vacuous)', async () => {
    const ok = await h.graphql(venue.apiKey, `{ bookings { ${ALL_FIELDS} } }`);
    const list = (
      ok.body as {
        data: {
          bookings: {
            guestName: string;
            createdAt: string;
            object: { name: string; accommodation: { address: string } };
          }[];
        };
      }
    ).data.bookings;
    expect(list).toHaveLength(7);
    expect(list.map((b) => b.guestName)).toEqual(expect.arrayContaining(HOSTILE));
    expect(list[0].object.accommodation.address).toBe('Straße 1\n"Hof"');
    expect(list.map((b) => b.createdAt)).toContain('2026-02-01T08:00:00.987Z');
    const refused = await h.graphql(venue.apiKey, '{ bookings(first: 101) { id } }');
    expect(JSON.stringify(refused.body)).toContain('first');
  });

  it('writes those bytes itself (no fallback), in one SQL statement whatever the page size', async () => {
    const principal = principalOf(venue.tenantId);
    for (const [, text] of cases.slice(0, 3)) {
      const field = (parse(text).definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;
      const plan = planBookingsField(field);
      if (!plan) throw new Error(`no plan for ${text}`);
      const before = h.deps.database.queries.count;
      const value = await plan.run(createContext(h.deps, principal), {
        first: field.arguments?.length ? Number((field.arguments[0].value as { value: string }).value) : undefined,
      });
      expect(h.deps.database.queries.count - before).toBe(1);
      const executed = await executing.graphql(venue.apiKey, text);
      const key = field.alias?.value ?? 'bookings';
      expect(JSON.stringify({ data: { [key]: value } })).toBe(executed.text);
    }
    for (const declined of [
      '{ bookings { ...F } } fragment F on Booking { id }',
      '{ bookings { paymentUrl } }',
      '{ bookings { object { openingHours { monday { open } } } } }',
    ]) {
      const field = (parse(declined).definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;
      expect(planBookingsField(field)).toBeUndefined();
    }
  });

  it('pages a connection after a cursor as ordinary execution does, in one SQL statement', async () => {
    const first = (await executing.graphql(venue.apiKey, '{ bookingsConnection(first: 2) { edges { cursor } } }')) as {
      body: { data: { bookingsConnection: { edges: { cursor: string }[] } } };
    };
    const after = first.body.data.bookingsConnection.edges[1].cursor;
    const query =
      'query Q($a: String) { bookingsConnection(after: $a, first: 3) { totalCount nodes { id startTime guestName } } }';
    const planned = await h.graphql(venue.apiKey, query, { a: after });
    const executed = await executing.graphql(venue.apiKey, query, { a: after });
    expect(planned.text).toBe(executed.text);
    // The plan itself (no fallback): one statement, the same value.
    const field = (parse(query).definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;
    const plan = planBookingsConnectionField(field);
    if (!plan) throw new Error('no plan for the connection');
    const before = h.deps.database.queries.count;
    const value = await plan.run(createContext(h.deps, principalOf(venue.tenantId)), { after, first: 3 });
    expect(h.deps.database.queries.count - before).toBe(1);
    expect(JSON.stringify({ data: { bookingsConnection: value } })).toBe(executed.text);
    const nodes = (planned.body as { data: { bookingsConnection: { totalCount: number; nodes: unknown[] } } }).data
      .bookingsConnection;
    expect(nodes.totalCount).toBe(7);
    expect(nodes.nodes).toHaveLength(3);
  });

  it('keeps scopes: a key without bookings:read is refused before anything runs', async () => {
    const catalogOnly = await h.key(venue.tenantId, ['catalog:read']);
    const planned = await h.graphql(catalogOnly, '{ bookings { id } }');
    const executed = await executing.graphql(catalogOnly, '{ bookings { id } }');
    expect(planned.text).toBe(executed.text);
    expect(planned.text).toContain('bookings:read');
  });
});
