import fc from 'fast-check';
import { sql } from 'kysely';
import {
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  parse,
  type FieldNode,
  type GraphQLObjectType,
  type OperationDefinitionNode,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildBooking, buildVenue, slotInDays } from './builders.js';
import { MODULES } from '../src/app/modules.js';
import { createContext } from '../src/kernel/context.js';
import { buildSchema } from '../src/transport/graphql/schema.js';
import { bookingFastPaths, planBookingsField } from '../src/modules/bookings/index.js';

// The parity test of the bookings list's fast paths (src/modules/bookings/fast-paths). The shared
// app runs with them on (the default); `general` is the same app with the switch off
// (PORTIER_FAST_PATHS=false), so the general resolver path answers. Random selections of the
// SDL's Booking type (read from the schema, nested types included), filters, pages and statuses
// are answered both ways, GraphQL and REST, and must be deep-equal. The fast paths are also run
// directly (the planned SQL, the REST JSON writer), since in the app a fast path that throws falls
// back to the general path and would hide its error.
//
// One test per Booking field of the SDL, named after it: each of its runs selects that field. A
// field added to Booking (SDL and resolver) either answers the same on every path or fails
// "Booking.<field>". Seeded and bounded: the same runs each time.

const SEED = 22;
const RUNS = 12;
const STATUSES = ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'] as const;
const HOSTILE = [
  'quote " and \\ backslash',
  'tab\tnew\nline\r\u0001\u001f\u007f',
  'sep\u2028\u2029 emoji 😀 ü',
  '</script><b>x</b>',
  "single ' quote",
];

let h: Harness;
let general: OwnApp;
let venue: Awaited<ReturnType<typeof buildVenue>>;
const schema = buildSchema(MODULES);
const bookingType = schema.getType('Booking') as GraphQLObjectType;
const BOOKING_FIELDS = Object.keys(bookingType.getFields());
const days: string[] = [];
/** Each booking's updatedAt (microseconds, as now() writes them). */
const UPDATED = Array.from(
  { length: 14 },
  (_, i) => `2026-03-${String(1 + i).padStart(2, '0')}T09:00:00.${123456 + i}Z`,
);

beforeAll(async () => {
  h = await harness();
  general = await ownApp(h, { env: { fastPaths: false } });
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
  for (let i = 0; i < 14; i += 1) {
    const slot = slotInDays(2 + (i % 7), 8 + (i % 5) * 2);
    days.push(slot.startTime);
    const booking = await buildBooking(h, venue.tenantId, venue.objects[i % 2].id, {
      start: slot.startTime,
      end: slot.endTime,
      status: STATUSES[i % 4],
      guestEmail: `Guest${i % 3}@Example.com`,
    });
    await db
      .updateTable('bookings')
      .set({
        guest_name: HOSTILE[i % HOSTILE.length],
        guest_phone: i % 2 ? null : `+49 "${i}"`,
        refund_amount: STATUSES[i % 4] === 'CANCELLED' ? 100 * i : null,
        // Hostile values, and keys JavaScript orders apart (array indices first, numerically).
        metadata: JSON.stringify(
          i % 4 === 0 ? {} : { ref: `R${i % 3}`, note: HOSTILE[i % HOSTILE.length], '7': 'seven', '00': 'zero' },
        ),
      })
      .where('id', '=', booking.id)
      .execute();
    await sql`update bookings set created_at = ${`2026-02-${String(1 + i).padStart(2, '0')} 08:00:00.${987654 - i}+00`}::timestamptz,
      updated_at = ${UPDATED[i]}::timestamptz where id = ${booking.id}`.execute(db);
  }
});

afterAll(async () => {
  await general.close();
});

/** A random non-empty selection set of `type` (fields without required arguments), `required` always in it. */
function selection(type: GraphQLObjectType, depth: number, required?: string): fc.Arbitrary<string> {
  const fields = Object.values(type.getFields()).filter(
    (f) => !f.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined),
  );
  const entries = new Map<string, fc.Arbitrary<string>>();
  for (const field of fields) {
    const named = getNamedType(field.type);
    if (isLeafType(named)) entries.set(field.name, fc.constant(field.name));
    else if (isObjectType(named) && depth < 3)
      entries.set(
        field.name,
        selection(named, depth + 1).map((inner) => `${field.name} { ${inner} }`),
      );
  }
  const names = [...entries.keys()].filter((name) => name !== required);
  if (!names.length && !required) return fc.constant('__typename');
  return fc.tuple(fc.subarray(names, { minLength: required ? 0 : 1 }), fc.boolean()).chain(([picked, typename]) => {
    const all = required ? [required, ...picked] : picked;
    return fc
      .tuple(...all.map((name) => entries.get(name) as fc.Arbitrary<string>))
      .map((parts) => (typename ? ['__typename', ...parts] : parts).join(' '));
  });
}

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
/** Filters, pages and statuses, mostly valid, sometimes refused (both paths must refuse alike). */
const listing = fc.record({
  status: maybe(fc.constantFrom(...STATUSES)),
  objectIndex: maybe(fc.constantFrom(0, 1)),
  from: maybe(fc.integer({ min: 0, max: 13 })),
  to: maybe(fc.integer({ min: 0, max: 13 })),
  guestEmail: maybe(fc.constantFrom('guest1@example.com', 'GUEST2@EXAMPLE.COM', 'nobody@example.com')),
  metadata: maybe(fc.constantFrom({ ref: 'R1' }, { ref: 'R2', '7': 'seven' }, { ref: 'none' }, { '00': 'zero' })),
  updatedSince: maybe(fc.integer({ min: 0, max: 13 })),
  first: maybe(fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constantFrom(0, 101))),
  page: maybe(fc.integer({ min: 1, max: 6 })),
  pageSize: maybe(fc.integer({ min: 1, max: 6 })),
});
type Listing = typeof listing extends fc.Arbitrary<infer T> ? T : never;

const filtersOf = (l: Listing) => ({
  status: l.status,
  objectId: l.objectIndex === undefined ? undefined : venue.objects[l.objectIndex].id,
  from: l.from === undefined ? undefined : days[l.from],
  to: l.to === undefined ? undefined : days[l.to],
  guestEmail: l.guestEmail,
  metadata: l.metadata,
  updatedSince: l.updatedSince === undefined ? undefined : UPDATED[l.updatedSince],
});

const principal = () => ({
  kind: 'apiKey' as const,
  keyId: 'parity',
  tenantId: venue.tenantId,
  // customers:read as the venue's admin key: Booking.customer is null without it.
  scopes: ['bookings:read', 'catalog:read', 'customers:read'],
  rateLimitPerMinute: null,
});

/** Both apps' answers to one GraphQL request: same status, deep-equal bodies. */
async function sameGraphQL(query: string, variables: Record<string, unknown>): Promise<unknown> {
  const fast = await h.graphql(venue.apiKey, query, variables);
  const slow = await general.graphql(venue.apiKey, query, variables);
  expect({ status: fast.status, body: fast.body as unknown }).toEqual({
    status: slow.status,
    body: slow.body as unknown,
  });
  return slow.body;
}

/** GraphQL `bookings`: through both apps, and the planned SQL run directly when the plan takes the selection. */
async function bookingsParity(sel: string, l: Listing): Promise<boolean> {
  const query = `query Q($status: BookingStatus, $first: Int) { bookings(status: $status, first: $first) { ${sel} } }`;
  const variables = { status: l.status, first: l.first };
  const body = (await sameGraphQL(query, variables)) as { data?: { bookings: unknown } };
  const field = (parse(query).definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;
  const plan = planBookingsField(field);
  if (!plan || !body.data) return false;
  expect(await plan.run(createContext(h.deps, principal()), variables)).toEqual(body.data.bookings);
  return true;
}

/** GraphQL `bookingsConnection` (the selection→columns map): through both apps, with the page after the first. */
async function connectionParity(sel: string, l: Listing): Promise<void> {
  const f = filtersOf(l);
  const query = `query Q($first: Int, $after: String, $status: BookingStatus, $objectId: ID, $from: DateTime, $to: DateTime, $guestEmail: String, $metadata: JSONObject, $updatedSince: DateTime) {
    bookingsConnection(first: $first, after: $after, status: $status, objectId: $objectId, from: $from, to: $to, guestEmail: $guestEmail, metadata: $metadata, updatedSince: $updatedSince) {
      totalCount edges { cursor node { ${sel} } } nodes { ${sel} } pageInfo { hasNextPage endCursor } } }`;
  const variables = { ...f, first: l.pageSize };
  const body = (await sameGraphQL(query, variables)) as {
    data?: { bookingsConnection: { pageInfo: { endCursor: string | null } } };
  };
  const after = body.data?.bookingsConnection.pageInfo.endCursor;
  if (after) await sameGraphQL(query, { ...variables, after });
}

/** REST GET …/bookings: through both apps, and the direct answer's JSON writer run directly. */
async function restParity(l: Listing): Promise<void> {
  const values = { ...filtersOf(l), page: l.page, pageSize: l.pageSize };
  // metadata as metadata[key]=value (qs, as the REST bridge reads it).
  const query = new URLSearchParams(
    Object.entries(values).flatMap(([k, v]) =>
      v === undefined
        ? []
        : typeof v === 'object'
          ? Object.entries(v).map(([key, value]) => [`${k}[${key}]`, String(value)])
          : [[k, String(v)]],
    ),
  ).toString();
  const url = `/api/v1/tenants/${venue.tenantId}/bookings${query ? `?${query}` : ''}`;
  const fast = await h.request({ method: 'GET', url, apiKey: venue.apiKey });
  const slow = await general.request({ method: 'GET', url, apiKey: venue.apiKey });
  expect({ status: fast.status, body: fast.body as unknown }).toEqual({
    status: slow.status,
    body: slow.body as unknown,
  });
  if (slow.status !== 200) return;
  const direct = bookingFastPaths(true).directAnswers['Query.bookingPage'];
  if (!direct) throw new Error('the REST listing has no direct answer');
  const variables = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  expect(JSON.parse(await direct.answer(createContext(h.deps, principal()), variables))).toEqual(slow.body);
}

describe('the bookings fast paths answer as the general resolver path', () => {
  it('the switch turns every fast path off', () => {
    expect(general.deps.env.fastPaths).toBe(false);
    expect(h.deps.env.fastPaths).toBe(true);
    const off = bookingFastPaths(false);
    expect([Object.keys(off.plannedFields), Object.keys(off.directAnswers)]).toEqual([[], []]);
  });

  it.each(BOOKING_FIELDS)(
    'Booking.%s: random selections with it, filters, pages and statuses, GraphQL and REST',
    async (name) => {
      let planned = 0;
      await fc.assert(
        fc.asyncProperty(selection(bookingType, 0, name), listing, async (sel, l) => {
          if (await bookingsParity(sel, l)) planned += 1;
          await connectionParity(sel, l);
          await restParity(l);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      // Not vacuous: when the GraphQL plan writes this field, some runs took the planned path.
      const field = bookingType.getFields()[name];
      const alone = isLeafType(getNamedType(field.type)) ? name : `${name} { __typename }`;
      const single = (parse(`{ bookings { ${alone} } }`).definitions[0] as OperationDefinitionNode).selectionSet
        .selections[0] as FieldNode;
      // Random selections often include a field the plan does not write (notifications, payment), which
      // falls back to the general path; the field alone must then take the planned path, equal too.
      if (planBookingsField(single)) {
        const [one] = fc.sample(listing, { seed: SEED, numRuns: 1 });
        if (one && (await bookingsParity(alone, { ...one, status: undefined, first: 10 }))) planned += 1;
        expect(planned).toBeGreaterThan(0);
      }
    },
  );
});
