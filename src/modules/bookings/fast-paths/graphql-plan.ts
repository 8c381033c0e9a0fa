import { Kind, type FieldNode, type SelectionSetNode } from 'graphql';
import { sql, type AliasedRawBuilder, type RawBuilder } from 'kysely';
import type { FieldPlan } from '../../../kernel/field-plan.js';
import { tenantOf } from '../../../kernel/auth/principal.js';
import { isoInstant } from '../../../kernel/db/json-sql.js';
import { PAGE_SIZES, pageSizeOf } from '../../../kernel/paging.js';
import { countMatching, filtered, totalMatching } from '../bookings.repository.js';
import { parseBookingsConnection, parseListBookings, type BookingsConnectionCommand } from '../bookings.commands.js';
import type { Executor } from '../../../kernel/db/index.js';
import { compiledPerShape } from '../../../kernel/db/compiled-once.js';
import { givenFilters, statementShape, type GivenFilter } from './given-filters.js';
import { COLUMNS_OF_FIELD } from './columns.js';

// GraphQL `bookings(status, first)` and `bookingsConnection { totalCount nodes }` compiled to one SQL
// statement: PostgreSQL returns the page as plain rows with just the selected columns (instants as
// toISOString writes them, the total as one more column) and Node builds the result's objects from
// them along the selection, as Grafast does with its tuples; no resolver, DataLoader or Date runs.
// Until round nine PostgreSQL wrote the JSON (json_build_object per row, json_agg): 1.5 ms of
// PostgreSQL per page of 100 against 0.7 ms for the rows (docs/performance.md, "Round nine").
// Planned once per document (src/transport/graphql/compiled-execution.ts); a selection this file does
// not know (fragments, directives, paymentUrl, openingHours, …) executes as usual.

type Columns = Record<string, RawBuilder<unknown>>;

const col = (column: string) => sql`${sql.ref(column)}`;
const typename = (name: string) => sql`${sql.lit(name)}::text`;

/** What the page always carries: its order and the object join's key. */
const PAGE_KEYS = ['id', 'start_time', 'object_id'];

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
  reference: col('b.reference'),
  noShowAt: isoInstant('b.no_show_at'),
  cancellationReasonCode: col('b.cancellation_reason_code'),
  cancellationReason: col('b.cancellation_reason'),
  guestLocale: sql`upper(${sql.ref('b.guest_locale')})`,
  seriesId: col('b.series_id'),
  customerId: col('b.customer_id'),
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

/** A selection set's result: each response key with the column it reads, or the object it nests. */
type Shape = readonly ({ key: string; column: string } | { key: string; nested: Shape })[];

/** One row's object for `shape`, its keys in selection order. */
function build(shape: Shape, row: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const field of shape) value[field.key] = 'nested' in field ? build(field.nested, row) : row[field.column];
  return value;
}

/**
 * The shape of a selection set, its columns appended to `select` (aliased c0, c1, …), or undefined
 * when it selects anything this plan does not read.
 */
function shapeOf(
  typeName: string,
  columns: Columns,
  selectionSet: SelectionSetNode,
  joins: Set<'o' | 'a'>,
  select: AliasedRawBuilder<unknown, string>[],
  reads: Set<string>,
): Shape | undefined {
  const shape: Shape[number][] = [];
  const keys = new Set<string>();
  for (const selection of selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length || selection.arguments?.length) return undefined;
    const key = selection.alias?.value ?? selection.name.value;
    if (keys.has(key)) return undefined;
    keys.add(key);
    const name = selection.name.value;
    const nested = NESTED[typeName]?.[name];
    if (nested) {
      const nestedType = TYPE_OF[name];
      if (!selection.selectionSet || nestedType === undefined) return undefined;
      joins.add(nested.join);
      if (nested.join === 'a') joins.add('o');
      const inner = shapeOf(nestedType, nested.columns, selection.selectionSet, joins, select, reads);
      if (!inner) return undefined;
      shape.push({ key, nested: inner });
      continue;
    }
    const value = selection.selectionSet ? undefined : columns[name];
    if (!value) return undefined;
    if (typeName === 'Booking') for (const column of COLUMNS_OF_FIELD[name] ?? []) reads.add(column);
    if (name === 'objectName') joins.add('o');
    // An object's zone is its accommodation's.
    if (typeName === 'BookableObject' && name === 'timeZone') joins.add('a');
    const column = `c${select.length}`;
    select.push(value.as(column));
    shape.push({ key, column });
  }
  return shape.length ? shape : undefined;
}

/** A Booking selection set planned: its shape and the columns it reads. */
interface RowPlan {
  shape: Shape;
  select: AliasedRawBuilder<unknown, string>[];
  joins: Joins;
  /** The bookings columns the page carries. */
  reads: readonly string[];
}

function rowPlanOf(selectionSet: SelectionSetNode | undefined): RowPlan | undefined {
  if (!selectionSet) return undefined;
  const joins: Joins = new Set();
  const select: AliasedRawBuilder<unknown, string>[] = [];
  const reads = new Set(PAGE_KEYS);
  const shape = shapeOf('Booking', BOOKING, selectionSet, joins, select, reads);
  return shape && { shape, select, joins, reads: [...reads].map((column) => `b.${column}`) };
}

type Joins = Set<'o' | 'a'>;
type Filters = BookingsConnectionCommand['filters'];

/**
 * The statement that reads a page of bookings: the page cut in index order (start time, then id;
 * after `key` when given) with just the columns the row reads, objects and accommodations joined
 * only when the row reads them, and the total as one more column (`total`) when given.
 */
function pageStatement(
  db: Executor,
  tenantId: string,
  page: { filters: Filters; key: BookingsConnectionCommand['key']; limit: number },
  row: RowPlan,
  total?: RawBuilder<number>,
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
        // Only the columns the row reads: PostgreSQL copies each page row into the CTE. (Known
        // when the document is planned, so not to the type checker: the outer query names them.)
        .select(row.reads as never)
        .orderBy('b.start_time')
        .orderBy('b.id')
        .limit(page.limit),
    )
    .selectFrom('page as b');
  const withObjects = () =>
    rows.innerJoin('objects as o', (join) => join.onRef('o.id', '=', 'b.object_id').on('o.tenant_id', '=', tenantId));
  const joined = row.joins.has('a')
    ? withObjects().innerJoin('accommodations as a', (join) =>
        join.onRef('a.id', '=', 'o.accommodation_id').on('a.tenant_id', '=', tenantId),
      )
    : row.joins.has('o')
      ? withObjects()
      : rows;
  return joined
    .select([...row.select, ...(total ? [total.as('total')] : [])])
    .orderBy('b.start_time')
    .orderBy('b.id');
}

type PageParameter = GivenFilter | 'tenantId' | 'limit' | 'afterStart' | 'afterId';

type PageRows = Record<string, unknown>[];

/**
 * Reads a page (with its total when `counts`) through the row plan's statement, compiled once per
 * shape of the input — which filters, a cursor, a total — so that a request builds no query
 * objects and compiles no SQL (the profile of round eleven: Kysely's builders and compiler were
 * a tenth of the list's CPU). A search, an email or metadata filter builds the statement as before.
 */
function pageReader(row: RowPlan) {
  const compiled = compiledPerShape<Record<string, unknown>>();
  return async (
    db: Executor,
    tenantId: string,
    page: { filters: Filters; key: BookingsConnectionCommand['key']; limit: number },
    counts: boolean,
  ): Promise<PageRows> => {
    const given = givenFilters(page.filters);
    const count = (d: Executor, tenant: string, filters: Filters) =>
      counts ? totalMatching(d, tenant, filters) : undefined;
    if (!given) {
      return pageStatement(db, tenantId, page, row, count(db, tenantId, page.filters)).execute();
    }
    const { key } = page;
    const shape = statementShape(given, key ? 'after' : '', counts ? 'total' : '');
    // Only the parameters of this shape: the ones absent are not in its statement.
    const values = {
      ...given,
      tenantId,
      limit: page.limit,
      ...(key ? { afterStart: key.startTime, afterId: key.id } : {}),
    } as Record<PageParameter, unknown>;
    return compiled(db, shape, values, (d, p) => {
      const filters = Object.fromEntries(Object.keys(given).map((name) => [name, p[name as GivenFilter]])) as Filters;
      const after = key ? { startTime: p.afterStart, id: p.afterId } : null;
      return pageStatement(d, p.tenantId, { filters, key: after, limit: p.limit }, row, count(d, p.tenantId, filters));
    });
  };
}

/** The plan of a `bookings` root field, or undefined when its selection executes as usual. */
export function planBookingsField(field: FieldNode): FieldPlan | undefined {
  const row = rowPlanOf(field.selectionSet);
  if (!row) return undefined;
  const read = pageReader(row);
  return {
    async run(ctx, args) {
      // As the resolver: the tenant before the input, then the same command.
      const tenantId = tenantOf(ctx.principal, args.tenantId as string | undefined);
      const command = parseListBookings({ status: args.status, pageSize: pageSizeOf(PAGE_SIZES.bookings, args.first) });
      const limit = command.pageSize ?? PAGE_SIZES.bookings.default;
      const rows = await read(ctx.db, tenantId, { filters: { status: command.status }, key: null, limit }, false);
      return rows.map((r) => build(row.shape, r));
    },
  };
}

/**
 * The plan of a `bookingsConnection` root field that selects only `totalCount`, `nodes` and
 * `__typename` (PostGraphile's `allBookings { totalCount nodes { … } }` shape), every filter and
 * `after` included: one statement reads the page with the total counted on the index as the
 * resolver counts it (an empty page counts on its own). `edges` and `pageInfo` (cursors) execute as usual.
 */
export function planBookingsConnectionField(field: FieldNode): FieldPlan | undefined {
  if (!field.selectionSet) return undefined;
  let row: RowPlan | undefined;
  const parts: { key: string; kind: 'nodes' | 'totalCount' | '__typename' }[] = [];
  const keys = new Set<string>();
  for (const selection of field.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length || selection.arguments?.length) return undefined;
    const key = selection.alias?.value ?? selection.name.value;
    if (keys.has(key)) return undefined;
    keys.add(key);
    const name = selection.name.value;
    if (name === 'nodes') {
      // One page per statement: a second `nodes` (under another alias) executes as usual.
      if (row) return undefined;
      row = rowPlanOf(selection.selectionSet);
      if (!row) return undefined;
      parts.push({ key, kind: 'nodes' });
    } else if ((name === 'totalCount' || name === '__typename') && !selection.selectionSet) {
      parts.push({ key, kind: name });
    } else return undefined;
  }
  if (!parts.length) return undefined;
  const page = row;
  const read = page && pageReader(page);
  const counts = parts.some((part) => part.kind === 'totalCount');
  return {
    async run(ctx, args) {
      // As the resolver: the tenant before the input, then the same command (its errors answer through the fallback).
      const tenantId = tenantOf(ctx.principal, args.tenantId as string | undefined);
      const command = parseBookingsConnection(args);
      const db = ctx.db;
      // The total is one more column, uncorrelated: computed once per statement (totalMatching).
      const rows = read
        ? await read(db, tenantId, { filters: command.filters, key: command.key, limit: command.first }, counts)
        : [];
      const total = counts
        ? ((rows[0]?.total as number | undefined) ??
          (await countMatching(db, tenantId, command.filters).executeTakeFirstOrThrow()).n)
        : undefined;
      const nodes = page ? rows.map((r) => build(page.shape, r)) : [];
      const value: Record<string, unknown> = {};
      for (const part of parts)
        value[part.key] = part.kind === 'nodes' ? nodes : part.kind === 'totalCount' ? total : 'BookingConnection';
      return value;
    },
  };
}
