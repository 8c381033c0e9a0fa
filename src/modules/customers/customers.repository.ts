import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import { BOOKING_VIEW_COLUMNS, type BookingView, type CustomerRow, type Metadata } from '../../kernel/db/types.js';
import type { SearchPattern } from './customers.rules.js';

// The customers table and the customer's side of bookings, payments, notifications, events and the
// audit log (docs/customers.md). Private to the module.

export interface NewCustomer {
  tenant_id: string;
  name: string;
  email: string | null;
  phone: string | null;
  created_at: Date;
  updated_at: Date;
}

export async function findCustomer(
  db: Executor,
  tenantId: string,
  id: string,
  lock = false,
): Promise<CustomerRow | undefined> {
  const query = db.selectFrom('customers').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

/** The customers of `ids` in the tenant, locked, in id order (so two merges lock in one order). */
export async function lockCustomers(db: Executor, tenantId: string, ids: readonly string[]): Promise<CustomerRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('customers')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function customersByIds(db: Executor, ids: readonly string[]): Promise<CustomerRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('customers').selectAll().where('id', 'in', ids).execute();
}

export async function customersOfTenant(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<CustomerRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('customers').selectAll().where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
}

/** The tenant's customer with this (normalised) email. */
/**
 * The tenant's customer with this normalised email, else its oldest with this E.164 phone (one
 * statement: both unique or indexed, read together).
 */
export async function customerOfEmailOrPhone(
  db: Executor,
  tenantId: string,
  email: string,
  phone: string | null,
): Promise<Pick<CustomerRow, 'id' | 'phone'> | undefined> {
  const emailMatches = sql<boolean>`(email IS NOT NULL AND lower(btrim(email)) = ${email})`;
  return db
    .selectFrom('customers')
    .select(['id', 'phone'])
    .where('tenant_id', '=', tenantId)
    .where((eb) => (phone === null ? emailMatches : eb.or([emailMatches, eb('phone', '=', phone)])))
    .orderBy(sql`${emailMatches} DESC`)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Inserts a customer unless one of the tenant already has its email (a concurrent booking made it
 * first; then read it by email), and in the same statement its customer.created event when an
 * active subscription of the tenant lists that type (opt-in, docs/webhooks.md). Whether it inserted.
 */
export async function insertCustomerUnlessEmailTaken(
  db: Executor,
  values: NewCustomer & { id: string },
  eventData: Record<string, unknown>,
): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    WITH inserted AS (
      INSERT INTO customers (id, tenant_id, name, email, phone, created_at, updated_at)
      VALUES (${values.id}, ${values.tenant_id}, ${values.name}, ${values.email}, ${values.phone},
              ${values.created_at}, ${values.updated_at})
      ON CONFLICT (tenant_id, lower(btrim(email))) WHERE email IS NOT NULL DO NOTHING
      RETURNING id, tenant_id
    ), event AS (
      INSERT INTO events (tenant_id, type, data)
      SELECT i.tenant_id, ${CUSTOMER_CREATED}, ${JSON.stringify(eventData)}::jsonb FROM inserted i
      WHERE EXISTS (SELECT 1 FROM webhooks w
                    WHERE w.tenant_id = i.tenant_id AND w.active AND ${CUSTOMER_CREATED} = ANY (w.events))
    )
    SELECT id FROM inserted`.execute(db);
  return rows.length === 1;
}

/** The opt-in event of a customer made by a booking (docs/webhooks.md, "Opt-in events"). */
export const CUSTOMER_CREATED = 'customer.created';

export async function setCustomerPhone(db: Executor, id: string, phone: string, at: Date): Promise<void> {
  await db
    .updateTable('customers')
    .set({ phone, updated_at: at })
    .where('id', '=', id)
    .where('phone', 'is', null)
    .execute();
}

export interface CustomerChanges {
  name?: string;
  email?: string | null;
  phone?: string | null;
  notes?: string;
  metadata?: Metadata;
  marketing_consent?: boolean;
  marketing_consent_at?: Date | null;
  created_at?: Date;
  erased_at?: Date | null;
}

export async function updateCustomer(
  db: Executor,
  tenantId: string,
  id: string,
  changes: CustomerChanges,
  at: Date,
): Promise<CustomerRow> {
  const { metadata, ...rest } = changes;
  return db
    .updateTable('customers')
    .set({ ...rest, ...(metadata ? { metadata: JSON.stringify(metadata) } : {}), updated_at: at })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteCustomers(db: Executor, tenantId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('customers').where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
}

/** Moves the bookings of `from` to `to`; how many moved. */
export async function moveBookings(
  db: Executor,
  tenantId: string,
  from: readonly string[],
  to: string,
): Promise<number> {
  if (from.length === 0) return 0;
  const result = await db
    .updateTable('bookings')
    .set({ customer_id: to })
    .where('tenant_id', '=', tenantId)
    .where('customer_id', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A page's sort key: newest first without a search; by lower-cased name with one. */
export type CustomerKey = { by: 'created'; createdAt: Date; id: string } | { by: 'name'; name: string; id: string };

export interface CustomerFilter {
  search?: SearchPattern;
}

function filtered(db: Executor, tenantId: string, filter: CustomerFilter) {
  let query = db.selectFrom('customers').where('tenant_id', '=', tenantId);
  const search = filter.search;
  if (search) {
    // Three prefix conditions, each served by its own (tenant_id, …) index: a BitmapOr.
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(name)`, 'like', search.text),
        eb.and([eb('email', 'is not', null), eb(sql`lower(email)`, 'like', search.text)]),
        ...(search.phone ? [eb.and([eb('phone', 'is not', null), eb('phone', 'like', search.phone)])] : []),
      ]),
    );
  }
  return query;
}

/** `limit` customers after `key` (newest first, or by name when searching). */
export async function listCustomers(
  db: Executor,
  tenantId: string,
  filter: CustomerFilter,
  limit: number,
  key?: CustomerKey,
): Promise<CustomerRow[]> {
  let query = filtered(db, tenantId, filter).selectAll();
  if (filter.search) {
    if (key?.by === 'name') query = query.where(sql<boolean>`(lower(name), id) > (${key.name}, ${key.id}::uuid)`);
    query = query.orderBy(sql`lower(name)`).orderBy('id');
  } else {
    if (key?.by === 'created')
      query = query.where(sql<boolean>`(created_at, id) < (${key.createdAt}::timestamptz, ${key.id}::uuid)`);
    query = query.orderBy('created_at', 'desc').orderBy('id', 'desc');
  }
  return query.limit(limit).execute();
}

export async function countCustomers(db: Executor, tenantId: string, filter: CustomerFilter): Promise<number> {
  const row = await filtered(db, tenantId, filter)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page of a customer's bookings, newest start first, after (start, id). */
export async function customerBookings(
  db: Executor,
  tenantId: string,
  customerId: string,
  limit: number,
  after?: { startTime: Date; id: string },
): Promise<BookingView[]> {
  let query = db
    .selectFrom('bookings')
    .select(BOOKING_VIEW_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('customer_id', '=', customerId);
  if (after) query = query.where(sql<boolean>`(start_time, id) < (${after.startTime}::timestamptz, ${after.id}::uuid)`);
  return query.orderBy('start_time', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function countCustomerBookings(db: Executor, tenantId: string, customerId: string): Promise<number> {
  const row = await db
    .selectFrom('bookings')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('customer_id', '=', customerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface CustomerStatsRow {
  customer_id: string;
  bookings: number;
  no_shows: number;
}

/**
 * Bookings and no-shows per customer. A no-show is a booking whose status reads NO_SHOW: compared as
 * text, so the count is right whether or not the status list has that value yet.
 */
export async function statsOfCustomers(db: Executor, ids: readonly string[]): Promise<CustomerStatsRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('bookings')
    .select([
      'customer_id',
      sql<string>`count(*)`.as('bookings'),
      sql<string>`count(*) FILTER (WHERE status::text = 'NO_SHOW')`.as('no_shows'),
    ])
    .where('customer_id', 'in', ids)
    .groupBy('customer_id')
    .execute();
  return rows.map((r) => ({
    customer_id: r.customer_id ?? '',
    bookings: Number(r.bookings),
    no_shows: Number(r.no_shows),
  }));
}

export interface CustomerTotalRow {
  customer_id: string;
  currency: string;
  paid: number;
  refunded: number;
}

/** Paid and refunded per customer and currency: the bookings' ledger sums (amount_paid, amount_refunded). */
export async function totalsOfCustomers(db: Executor, ids: readonly string[]): Promise<CustomerTotalRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('bookings')
    .select([
      'customer_id',
      'currency',
      sql<string>`sum(amount_paid)`.as('paid'),
      sql<string>`sum(amount_refunded)`.as('refunded'),
    ])
    .where('customer_id', 'in', ids)
    .groupBy(['customer_id', 'currency'])
    .having(sql<boolean>`sum(amount_paid) > 0 OR sum(amount_refunded) > 0`)
    .orderBy('customer_id')
    .orderBy('currency')
    .execute();
  return rows.map((r) => ({
    customer_id: r.customer_id ?? '',
    currency: r.currency,
    paid: Number(r.paid),
    refunded: Number(r.refunded),
  }));
}

/** The payments and refunds of a customer's bookings, newest first. */
export async function customerPayments(db: Executor, tenantId: string, customerId: string) {
  return db
    .selectFrom('payments as p')
    .innerJoin('bookings as b', (j) => j.onRef('b.id', '=', 'p.booking_id').onRef('b.tenant_id', '=', 'p.tenant_id'))
    .selectAll('p')
    .where('b.tenant_id', '=', tenantId)
    .where('b.customer_id', '=', customerId)
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .execute();
}

export async function bookingsOfCustomer(db: Executor, tenantId: string, customerId: string) {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('customer_id', '=', customerId)
    .orderBy('start_time')
    .orderBy('id')
    .execute();
}

export async function notificationsOfBookings(db: Executor, tenantId: string, bookingIds: readonly string[]) {
  if (bookingIds.length === 0) return [];
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('booking_id', 'in', bookingIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The audit entries whose target (or guest actor) is one of `ids` (the customer's and its bookings'). */
export async function auditEntriesAbout(db: Executor, tenantId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('audit_log')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where((eb) =>
      eb.or([eb('target_id', 'in', ids), eb.and([eb('actor_type', '=', 'guest'), eb('actor_id', 'in', ids)])]),
    )
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
}

/** The ids of the customers merged into `ids` (their customer.merged events), one level. */
export async function customersMergedInto(db: Executor, tenantId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('events')
    .select(sql<string>`jsonb_array_elements_text(data->'mergedIds')`.as('id'))
    .where('tenant_id', '=', tenantId)
    .where('type', '=', 'customer.merged')
    .where(sql<boolean>`data->'customer'->>'id' = ANY(${sql.val(ids)}::text[])`)
    .execute();
  return rows.map((r) => r.id);
}
