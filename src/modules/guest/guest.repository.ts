import type { Executor } from '../../kernel/db/index.js';

// The guest module's reads and its one write (private to the module).

/** A booking as its guest's manage page shows it, with its venue and the venue's booking-page settings. */
export async function findGuestBooking(db: Executor, bookingId: string) {
  return db
    .selectFrom('bookings as b')
    .innerJoin('objects as o', (j) => j.onRef('o.tenant_id', '=', 'b.tenant_id').onRef('o.id', '=', 'b.object_id'))
    .innerJoin('accommodations as a', (j) =>
      j.onRef('a.tenant_id', '=', 'o.tenant_id').onRef('a.id', '=', 'o.accommodation_id'),
    )
    .leftJoin('booking_pages as p', 'p.tenant_id', 'b.tenant_id')
    .select([
      'b.id',
      'b.tenant_id',
      'b.object_id',
      'b.guest_name',
      'b.guest_email',
      'b.status',
      'b.payment_status',
      'b.amount_paid',
      'b.amount_refunded',
      'b.paid_at',
      'b.total_price',
      'b.currency',
      'b.refund_amount',
      'b.start_time',
      'b.end_time',
      'b.event_sequence',
      'b.guest_link_version',
      'b.reference',
      'o.name as object_name',
      'a.name as accommodation_name',
      'a.address as accommodation_address',
      'a.time_zone',
      'p.default_locale',
      'p.payment_mode',
      'p.vat_rate_basis_points',
      'p.accent_colour',
      'p.logo',
    ])
    .where('b.id', '=', bookingId)
    .executeTakeFirst();
}

export type GuestBooking = NonNullable<Awaited<ReturnType<typeof findGuestBooking>>>;

/** Raises the booking's manage-link version (every link given out so far stops working); the new version, or undefined for an unknown booking. */
export async function raiseLinkVersion(
  db: Executor,
  tenantId: string,
  bookingId: string,
): Promise<{ id: string; guest_link_version: number; guest_name: string } | undefined> {
  return db
    .updateTable('bookings')
    .set((eb) => ({ guest_link_version: eb('guest_link_version', '+', 1) }))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', bookingId)
    .returning(['id', 'guest_link_version', 'guest_name'])
    .executeTakeFirst();
}

/** The booking's current manage-link version (undefined: no such booking of the tenant). */
export async function linkVersionOf(db: Executor, tenantId: string, bookingId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('bookings')
    .select('guest_link_version')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', bookingId)
    .executeTakeFirst();
  return row?.guest_link_version;
}

/** The booking's state, row-locked until the transaction ends (every change of a booking queues here). */
export async function lockBooking(db: Executor, tenantId: string, bookingId: string) {
  return db
    .selectFrom('bookings')
    .select(['status', 'start_time', 'end_time', 'amount_paid', 'amount_refunded', 'total_price'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', bookingId)
    .forUpdate()
    .executeTakeFirst();
}
