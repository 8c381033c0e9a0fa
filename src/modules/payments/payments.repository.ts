import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import type { Locale } from '../../kernel/i18n.js';
import type {
  BookingRow,
  BookingStatus,
  CheckoutSessionRow,
  PaymentProvider,
  PaymentRow,
  PaymentStatus,
  TenantSettingsRow,
} from '../../kernel/db/types.js';

// The payments module's data: the booking's payment columns, the ledger, checkout sessions and the
// tenant's payment settings. Private to the module.

export interface PaymentView {
  id: string;
  /** The short reference the guest gives at the venue (PRT-7KQ2M). */
  reference: string;
  tenant_id: string;
  status: BookingStatus;
  payment_status: PaymentStatus;
  amount_paid: number;
  amount_refunded: number;
  start_time: Date;
  end_time: Date;
  created_at: Date;
  total_price: number;
  currency: string;
  object_name: string;
  accommodation_name: string;
  accommodation_address: string;
  time_zone: string;
  /** The manage link's version: the success page links to the guest's page (/b/{token}). */
  guest_link_version: number;
  /** The language the guest chose (en|de), null: none; the pages are in it unless ?lang says otherwise. */
  guest_locale: Locale | null;
  /** The venue's default language (its booking page settings), null without settings. */
  default_locale: Locale | null;
}

/** What the payment page shows; looked up by id alone, because the page's token is the credential. */
export async function findPaymentView(db: Executor, id: string, lock = false): Promise<PaymentView | undefined> {
  let query = db
    .selectFrom('bookings as b')
    .innerJoin('objects as o', (j) => j.onRef('o.tenant_id', '=', 'b.tenant_id').onRef('o.id', '=', 'b.object_id'))
    .innerJoin('accommodations as a', (j) =>
      j.onRef('a.tenant_id', '=', 'o.tenant_id').onRef('a.id', '=', 'o.accommodation_id'),
    )
    .leftJoin('booking_pages as p', 'p.tenant_id', 'b.tenant_id')
    .select([
      'b.id',
      'b.reference',
      'b.tenant_id',
      'b.status',
      'b.payment_status',
      'b.amount_paid',
      'b.amount_refunded',
      'b.start_time',
      'b.end_time',
      'b.created_at',
      'b.total_price',
      'b.currency',
      'o.name as object_name',
      'a.name as accommodation_name',
      'a.address as accommodation_address',
      'a.time_zone',
      'b.guest_link_version',
      'b.guest_locale',
      'p.default_locale',
    ])
    .where('b.id', '=', id);
  if (lock) query = query.forUpdate('b');
  return query.executeTakeFirst();
}

/** The booking, row-locked until the transaction ends: every payment change of a booking queues here. */
export async function lockBooking(db: Executor, tenantId: string, id: string): Promise<BookingRow | undefined> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export interface NewLedgerEntry {
  tenant_id: string;
  booking_id: string;
  kind: 'payment' | 'refund';
  provider: PaymentProvider;
  amount: number;
  currency: string;
  reason: string;
  provider_event_id: string | null;
  provider_reference: string | null;
  note: string | null;
  actor_label: string;
  created_at: Date;
}

/**
 * Appends to the ledger unless the provider event or the provider's charge/refund id is already
 * there (both unique): undefined means "already applied", and the caller changes nothing.
 */
export async function insertLedgerEntry(db: Executor, entry: NewLedgerEntry): Promise<PaymentRow | undefined> {
  return db
    .insertInto('payments')
    .values(entry)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function bookingExists(db: Executor, tenantId: string, id: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('bookings')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .executeTakeFirst()) !== undefined
  );
}

export async function ledgerOf(db: Executor, tenantId: string, bookingId: string): Promise<PaymentRow[]> {
  // At one instant (one transaction's clock) a payment comes before the refund it causes.
  return db
    .selectFrom('payments')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('booking_id', '=', bookingId)
    .orderBy('created_at')
    .orderBy(sql`kind = 'refund'`)
    .orderBy('id')
    .execute();
}

/** The provider's charge to refund: the booking's latest Stripe payment. */
export async function latestProviderPayment(
  db: Executor,
  tenantId: string,
  bookingId: string,
): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('booking_id', '=', bookingId)
    .where('kind', '=', 'payment')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function setPaymentColumns(
  db: Executor,
  tenantId: string,
  id: string,
  values: {
    payment_status: PaymentStatus;
    amount_paid: number;
    amount_refunded: number;
    payment_provider: PaymentProvider | null;
    paid_at: Date | null;
  },
  now: Date,
): Promise<BookingRow> {
  return db
    .updateTable('bookings')
    .set({ ...values, updated_at: now })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function latestCheckoutSession(db: Executor, bookingId: string): Promise<CheckoutSessionRow | undefined> {
  return db
    .selectFrom('checkout_sessions')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function findCheckoutSession(db: Executor, sessionId: string): Promise<CheckoutSessionRow | undefined> {
  return db.selectFrom('checkout_sessions').selectAll().where('session_id', '=', sessionId).executeTakeFirst();
}

export async function countCheckoutSessions(db: Executor, bookingId: string): Promise<number> {
  const row = await db
    .selectFrom('checkout_sessions')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('booking_id', '=', bookingId)
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function insertCheckoutSession(
  db: Executor,
  row: Omit<CheckoutSessionRow, 'created_at'> & { created_at: Date },
): Promise<void> {
  await db
    .insertInto('checkout_sessions')
    .values(row)
    .onConflict((oc) => oc.column('session_id').doNothing())
    .execute();
}

/** Sessions of a booking that may still be paid (to expire when the booking's hold ends). */
export async function openCheckoutSessions(db: Executor, bookingId: string, now: Date): Promise<CheckoutSessionRow[]> {
  return db
    .selectFrom('checkout_sessions')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .where('expires_at', '>', now)
    .execute();
}

export async function findSettings(db: Executor, tenantId: string): Promise<TenantSettingsRow | undefined> {
  return db.selectFrom('tenant_settings').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
}

export async function upsertSettings(
  db: Executor,
  tenantId: string,
  values: { confirm_on_payment?: boolean; pending_expiry_minutes?: number | null },
  now: Date,
): Promise<TenantSettingsRow> {
  return db
    .insertInto('tenant_settings')
    .values({ tenant_id: tenantId, ...values, updated_at: now })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ ...values, updated_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Unpaid PENDING bookings whose tenant's hold has ended at `now`, oldest first (a bounded batch). */
export async function expiredHolds(
  db: Executor,
  now: Date,
  limit: number,
): Promise<{ id: string; tenant_id: string }[]> {
  return db
    .selectFrom('bookings as b')
    .innerJoin('tenant_settings as s', 's.tenant_id', 'b.tenant_id')
    .select(['b.id', 'b.tenant_id'])
    .where('b.status', '=', 'PENDING')
    .where('b.payment_status', '=', 'UNPAID')
    .where('b.total_price', '>', 0)
    .where('s.pending_expiry_minutes', 'is not', null)
    .where(sql<boolean>`b.created_at <= ${now}::timestamptz - s.pending_expiry_minutes * interval '1 minute'`)
    .orderBy('b.created_at')
    .limit(limit)
    .execute();
}
