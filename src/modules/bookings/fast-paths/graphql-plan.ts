import { Kind, type FieldNode, type SelectionSetNode } from 'graphql';
import { sql, type RawBuilder } from 'kysely';
import type { FieldPlan } from '../../../kernel/field-plan.js';
import { tenantOf } from '../../../kernel/auth/principal.js';
import { isoInstant } from '../../../kernel/db/json-sql.js';
import { PAGE_SIZES, pageSizeOf } from '../../../kernel/paging.js';
import { filtered } from '../bookings.repository.js';
import { parseBookingsConnection, parseListBookings, type BookingsConnectionCommand } from '../bookings.commands.js';
import type { Executor } from '../../../kernel/db/index.js';

// GraphQL `bookings(status, first)` and `bookingsConnection { totalCount nodes }` compiled to one SQL statement: PostgreSQL writes the list's
// JSON (json_build_object with the selection's response keys, instants as toISOString writes
// them), pg hands it over as one parsed value, and no resolver, DataLoader or Date runs. Planned
// once per document (src/transport/graphql/compiled-execution.ts); a selection this file does not know
// (fragments, directives, paymentUrl, openingHours, …) executes as usual.

type Columns = Record<string, RawBuilder<unknown>>;

const col = (column: string) => sql`${sql.ref(column)}`;
const typename = (name: string) => sql`${sql.lit(name)}::text`;

const BOOKING: Columns = {
  __typename: typename('Booking'),
  id: col('b.id'),
  objectId: col('b.object_id'),
  objectName: col('o.name'),
  guestName: col('b.guest_name'),
  guestEmail: col('b.guest_email'),
  guestPhone: col('b.guest_phone'),
  startTime: isoInstant('b.start_time'),
  endTime: isoInstant('b.end_time'),
  status: col('b.status'),
  totalPrice: col('b.total_price'),
  currency: col('b.currency'),
  createdAt: isoInstant('b.created_at'),
  refundAmount: col('b.refund_amount'),
  metadata: col('b.metadata'),
  updatedAt: isoInstant('b.updated_at'),
};
const OBJECT: Columns = {
  __typename: typename('BookableObject'),
  id: col('o.id'),
  name: col('o.name'),
  pricePerHour: col('o.price_per_hour'),
  accommodationId: col('o.accommodation_id'),
  timeZone: col('a.time_zone'),
  createdAt: isoInstant('o.created_at'),
  metadata: col('o.metadata'),
  updatedAt: isoInstant('o.updated_at'),
};
const ACCOMMODATION: Columns = {
  __typename: typename('Accommodation'),
  id: col('a.id'),
  name: col('a.name'),
  address: col('a.address'),
  timeZone: col('a.time_zone'),
  createdAt: isoInstant('a.created_at'),
};
/** Object-valued fields: their columns, and the table (alias) they need joined. */
const NESTED: Record<string, Record<string, { columns: Columns; join: 'o' | 'a' }>> = {
  Booking: { object: { columns: OBJECT, join: 'o' } },
  BookableObject: { accommodation: { columns: ACCOMMODATION, join: 'a' } },
};
const TYPE_OF: Record<string, string> = { object: 'BookableObject', accommodation: 'Accommodation' };

/** json_build_object of a selection set, or undefined when it selects anything this plan does not write. */
function objectOf(
  typeName: string,
  columns: Columns,
  selectionSet: SelectionSetNode,
  joins: Set<'o' | 'a'>,
): RawBuilder<unknown> | undefined {
  const parts: RawBuilder<unknown>[] = [];
  const keys = new Set<string>();
  for (const selection of selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length || selection.arguments?.length) return undefined;
    const key = selection.alias?.value ?? selection.name.value;
    if (keys.has(key)) return undefined;
    keys.add(key);
    const name = selection.name.value;
    const nested = NESTED[typeName]?.[name];
    let value: RawBuilder<unknown> | undefined;
    if (nested) {
      const nestedType = TYPE_OF[name];
      if (!selection.selectionSet || nestedType === undefined) return undefined;
      joins.add(nested.join);
      if (nested.join === 'a') joins.add('o');
      value = objectOf(nestedType, nested.columns, selection.selectionSet, joins);
    } else if (!selection.selectionSet) {
      value = columns[name];
      if (name === 'objectName') joins.add('o');
      // An object's zone is its accommodation's.
      if (typeName === 'BookableObject' && name === 'timeZone') joins.add('a');
    }
    if (!value) return undefined;
    parts.push(sql.lit(key), value);
  }
  return parts.length ? sql`json_build_object(${sql.join(parts)})` : undefined;
}

type Joins = Set<'o' | 'a'>;
type Filters = BookingsConnectionCommand['filters'];

/**
 * The statement that writes a page of bookings as one JSON array (`items`): the page cut in index
 * order (start time, then id; after `key` when given), objects and accommodations joined only when
 * the row reads them.
 */
function pageStatement(
  db: Executor,
  tenantId: string,
  page: { filters: Filters; key: BookingsConnectionCommand['key']; limit: number },
  row: RawBuilder<unknown>,
  joins: Joins,
) {
  const { key } = page;
  const rows = db
    .with('page', () =>
      filtered(db, tenantId, page.filters)
        .$if(key !== null, (q) =>
          q.where(
            sql<boolean>`(b.start_time, b.id) > (${key?.startTime ?? null}::timestamptz, ${key?.id ?? null}::uuid)`,
          ),
        )
        .selectAll('b')
        .orderBy('b.start_time')
        .orderBy('b.id')
        .limit(page.limit),
    )
    .selectFrom('page as b');
  const items = sql<unknown[]>`coalesce(json_agg(${row} order by b.start_time, b.id), '[]'::json)`.as('items');
  const withObjects = () =>
    rows.innerJoin('objects as o', (join) => join.onRef('o.id', '=', 'b.object_id').on('o.tenant_id', '=', tenantId));
  return joins.has('a')
    ? withObjects()
        .innerJoin('accommodations as a', (join) =>
          join.onRef('a.id', '=', 'o.accommodation_id').on('a.tenant_id', '=', tenantId),
        )
        .select(items)
    : joins.has('o')
      ? withObjects().select(items)
      : rows.select(items);
}

/** The plan of a `bookings` root field, or undefined when its selection executes as usual. */
export function planBookingsField(field: FieldNode): FieldPlan | undefined {
  if (!field.selectionSet) return undefined;
  const joins: Joins = new Set();
  const row = objectOf('Booking', BOOKING, field.selectionSet, joins);
  if (!row) return undefined;
  return {
    async run(ctx, args) {
      // As the resolver: the tenant before the input, then the same command.
      const tenantId = tenantOf(ctx.principal, args.tenantId as string | undefined);
      const command = parseListBookings({ status: args.status, pageSize: pageSizeOf(PAGE_SIZES.bookings, args.first) });
      const limit = command.pageSize ?? PAGE_SIZES.bookings.default;
      const statement = pageStatement(
        ctx.db,
        tenantId,
        { filters: { status: command.status }, key: null, limit },
        row,
        joins,
      );
      return (await statement.executeTakeFirstOrThrow()).items;
    },
  };
}

/**
 * The plan of a `bookingsConnection` root field that selects only `totalCount`, `nodes` and
 * `__typename` (PostGraphile's `allBookings { totalCount nodes { … } }` shape), every filter and
 * `after` included: one statement writes the connection's JSON, the total counted on the index as
 * the resolver counts it. `edges` and `pageInfo` (cursors) execute as usual.
 */
export function planBookingsConnectionField(field: FieldNode): FieldPlan | undefined {
  if (!field.selectionSet) return undefined;
  const joins: Joins = new Set();
  const parts: (
    { key: string; kind: 'nodes'; row: RawBuilder<unknown> } | { key: string; kind: 'totalCount' | '__typename' }
  )[] = [];
  const keys = new Set<string>();
  for (const selection of field.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length || selection.arguments?.length) return undefined;
    const key = selection.alias?.value ?? selection.name.value;
    if (keys.has(key)) return undefined;
    keys.add(key);
    const name = selection.name.value;
    if (name === 'nodes') {
      const row = selection.selectionSet && objectOf('Booking', BOOKING, selection.selectionSet, joins);
      if (!row) return undefined;
      parts.push({ key, kind: 'nodes', row });
    } else if ((name === 'totalCount' || name === '__typename') && !selection.selectionSet) {
      parts.push({ key, kind: name });
    } else return undefined;
  }
  if (!parts.length) return undefined;
  return {
    async run(ctx, args) {
      // As the resolver: the tenant before the input, then the same command (its errors answer through the fallback).
      const tenantId = tenantOf(ctx.principal, args.tenantId as string | undefined);
      const command = parseBookingsConnection(args);
      const db = ctx.db;
      const values = parts.flatMap((part) => {
        const value =
          part.kind === 'nodes'
            ? sql`(${pageStatement(db, tenantId, { filters: command.filters, key: command.key, limit: command.first }, part.row, joins)})`
            : part.kind === 'totalCount'
              ? sql`(${filtered(db, tenantId, command.filters).select(sql<number>`count(*)::int`.as('n'))})`
              : typename('BookingConnection');
        return [sql.lit(part.key), value];
      });
      const { value } = await db
        .selectNoFrom(sql<Record<string, unknown>>`json_build_object(${sql.join(values)})`.as('value'))
        .executeTakeFirstOrThrow();
      return value;
    },
  };
}
