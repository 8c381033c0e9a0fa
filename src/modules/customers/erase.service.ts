import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import type { AppDeps } from '../../kernel/deps.js';
import type { CustomerRow } from '../../kernel/db/types.js';
import { recordEvent } from '../webhooks/index.js';
import * as repo from './customers.repository.js';
import { anonymiseBookings, scrubCopies, ERASED_TABLES, type ScrubCounts } from './erase.repository.js';
import { ERASED_NAME, erasableTexts } from './customers.rules.js';
import { getCustomer } from './customers.service.js';

// GDPR tools (docs/customers.md): one customer's data as a JSON document (Art. 15/20), and the
// erasure of a customer (Art. 17) that keeps the bookings but none of the guest's personal values.

/** The customer and every customer merged into it (following customer.merged events, a few levels deep). */
async function customerIdsOf(db: Executor, tenantId: string, id: string): Promise<string[]> {
  const ids = new Set([id]);
  let frontier = [id];
  for (let depth = 0; depth < 10 && frontier.length; depth++) {
    const found = (await repo.customersMergedInto(db, tenantId, frontier)).filter((m) => !ids.has(m));
    for (const m of found) ids.add(m);
    frontier = found;
  }
  return [...ids];
}

const iso = (at: Date | null) => (at ? at.toISOString() : null);

/** Everything Portier holds about one customer, as one JSON document. */
export async function exportCustomerData(db: Executor, tenantId: string, id: string, at: Date) {
  const customer = await getCustomer(db, tenantId, id);
  const bookings = await repo.bookingsOfCustomer(db, tenantId, customer.id);
  const bookingIds = bookings.map((b) => b.id);
  const [payments, notifications, audit] = await Promise.all([
    repo.customerPayments(db, tenantId, customer.id),
    repo.notificationsOfBookings(db, tenantId, bookingIds),
    repo.auditEntriesAbout(db, tenantId, [customer.id, ...bookingIds]),
  ]);
  return {
    exportedAt: at.toISOString(),
    customer: {
      id: customer.id,
      name: customer.name,
      email: customer.email,
      phone: customer.phone,
      notes: customer.notes,
      metadata: customer.metadata,
      marketingConsent: customer.marketing_consent,
      marketingConsentAt: iso(customer.marketing_consent_at),
      erasedAt: iso(customer.erased_at),
      createdAt: customer.created_at.toISOString(),
      updatedAt: customer.updated_at.toISOString(),
    },
    bookings: bookings.map((b) => ({
      id: b.id,
      reference: b.reference,
      objectId: b.object_id,
      guestName: b.guest_name,
      guestEmail: b.guest_email,
      guestPhone: b.guest_phone,
      guestLocale: b.guest_locale,
      startTime: b.start_time.toISOString(),
      endTime: b.end_time.toISOString(),
      status: b.status,
      totalPrice: b.total_price,
      currency: b.currency,
      paymentStatus: b.payment_status,
      amountPaid: b.amount_paid,
      amountRefunded: b.amount_refunded,
      metadata: b.metadata,
      createdAt: b.created_at.toISOString(),
      updatedAt: b.updated_at.toISOString(),
    })),
    payments: payments.map((p) => ({
      id: p.id,
      bookingId: p.booking_id,
      kind: p.kind,
      provider: p.provider,
      amount: p.amount,
      currency: p.currency,
      reason: p.reason,
      note: p.note,
      createdAt: p.created_at.toISOString(),
    })),
    notifications: notifications.map((n) => ({
      id: n.id,
      bookingId: n.booking_id,
      channel: n.channel,
      kind: n.kind,
      recipient: n.recipient,
      status: n.status,
      sentAt: iso(n.sent_at),
      createdAt: n.created_at.toISOString(),
    })),
    auditEntries: audit.map((e) => ({
      id: e.id,
      occurredAt: e.occurred_at.toISOString(),
      action: e.action,
      actor: e.actor_label,
      targetType: e.target_type,
      targetId: e.target_id,
      details: e.details,
    })),
  };
}

export interface Erasure {
  customer: CustomerRow;
  /** False when the customer had been erased before (nothing more to do). */
  erased: boolean;
  bookings: number;
  scrubbed: ScrubCounts;
}

/**
 * Erases a customer in `trx`: the customer keeps its id, bookings and totals, but no name, email,
 * phone, notes, metadata or consent; each of its bookings' guest fields are anonymised and its
 * guest links revoked; the copies of those values in events, webhook attempts, notifications,
 * audit entries, payment notes and cached idempotent answers are replaced. One customer.erased
 * event (with the id only). Erasing an erased customer changes nothing.
 */
export async function eraseCustomer(trx: Executor, tenantId: string, id: string, at: Date): Promise<Erasure> {
  const customer = await getCustomer(trx, tenantId, id, true);
  if (customer.erased_at) return { customer, erased: false, bookings: 0, scrubbed: {} };
  const bookings = await repo.bookingsOfCustomer(trx, tenantId, customer.id);
  const texts = erasableTexts([
    customer.name,
    customer.email,
    customer.phone,
    ...bookings.flatMap((b) => [b.guest_name, b.guest_email, b.guest_phone]),
  ]);
  const customerIds = await customerIdsOf(trx, tenantId, customer.id);
  const scrubbed = await scrubCopies(trx, {
    tenantId,
    bookingIds: bookings.map((b) => b.id),
    customerIds,
    texts,
  });
  await anonymiseBookings(trx, tenantId, customer.id, at);
  const erased = await repo.updateCustomer(
    trx,
    tenantId,
    customer.id,
    {
      name: ERASED_NAME,
      email: null,
      phone: null,
      notes: '',
      metadata: {},
      marketing_consent: false,
      marketing_consent_at: null,
      erased_at: at,
    },
    at,
  );
  await recordEvent(trx, tenantId, 'customer.erased', { customer: { id: erased.id, erasedAt: at.toISOString() } });
  return { customer: erased, erased: true, bookings: bookings.length, scrubbed };
}

/**
 * After an erasure committed: removes the dead row versions that still hold the erased values.
 * PGlite (one embedded process, small tables): VACUUM (FULL) rewrites the touched tables and their
 * indexes, and a WAL switch with a checkpoint removes the log segments that still held the old
 * versions, so no file of the data directory holds them. PostgreSQL: a plain VACUUM of the touched tables (it takes no lock that blocks bookings);
 * the dead versions' space is then free for reuse, and autovacuum would do the same later
 * (docs/customers.md, "What stays on disk"). Never inside a transaction.
 */
export async function purgeErasedVersions(deps: AppDeps): Promise<void> {
  const db = deps.database.db;
  const tables = sql.join(ERASED_TABLES.map((t) => sql.table(t)));
  if (deps.database.kind === 'pglite') {
    await sql`VACUUM (FULL) ${tables}`.execute(db);
    // The write-ahead log still holds the old versions (the inserts, the updates' page images):
    // switch to a new segment and checkpoint, so the old segments are no longer needed, and remove
    // them rather than recycle them (a recycled segment keeps its old bytes until overwritten).
    await sql`SET wal_recycle = off`.execute(db);
    try {
      await sql`SELECT pg_switch_wal()`.execute(db);
      await sql`CHECKPOINT`.execute(db);
    } finally {
      await sql`RESET wal_recycle`.execute(db);
    }
  } else {
    await sql`VACUUM ${tables}`.execute(db);
  }
}
