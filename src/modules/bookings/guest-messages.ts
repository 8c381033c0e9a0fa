import type { Executor } from '../../kernel/db/index.js';
import type { ServerSecret } from '../../kernel/crypto.js';
import type { AppDeps } from '../../kernel/deps.js';
import { DEFAULT_LOCALE } from '../../kernel/i18n.js';
import type { GuestFactsOf } from '../notifications/index.js';
import type { BookingRow } from '../../kernel/db/types.js';
import { manageUrl } from './manage-link.js';
import { paymentUrl } from './payment.js';

// What the guest's messages need of a booking at the moment they are sent (issue #41,
// docs/notifications.md "Links and languages"): its reference, the guest's language, the manage
// link of the booking's current guest_link_version (so a revoked link is never mailed again) and
// the payment link; and the venue's VAT rate for a receipt. The notifications module asks through
// its `guestFacts` port (src/app/deps.ts wires this), as it may not depend on bookings.

/** The facts of one booking of the tenant now; undefined when there is no such booking. */
export function guestFactsReader(publicUrl: string, secret: ServerSecret): GuestFactsOf {
  return async (db, tenantId, bookingId) => {
    const row = await db
      .selectFrom('bookings as b')
      .leftJoin('booking_pages as p', 'p.tenant_id', 'b.tenant_id')
      .select([
        'b.id',
        'b.reference',
        'b.guest_locale',
        'b.guest_link_version',
        'p.default_locale',
        'p.vat_rate_basis_points',
      ])
      .where('b.tenant_id', '=', tenantId)
      .where('b.id', '=', bookingId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      reference: row.reference,
      locale: row.guest_locale ?? row.default_locale ?? DEFAULT_LOCALE,
      manageUrl: manageUrl(publicUrl, secret, row.id, row.guest_link_version),
      paymentUrl: paymentUrl(publicUrl, secret, row.id),
      vatRateBasisPoints: row.vat_rate_basis_points,
    };
  };
}

/**
 * Whether a new booking waits for an online payment, so the guest is sent the "pay here" message:
 * the installation takes payments online (Stripe), the venue did not choose payment at the venue
 * on its booking page (no booking page: online, as the paymentUrl works), and something is due.
 */
export async function awaitsOnlinePayment(
  db: Executor,
  deps: AppDeps,
  booking: Pick<BookingRow, 'tenant_id' | 'status' | 'total_price' | 'amount_paid'>,
): Promise<boolean> {
  if (booking.status !== 'PENDING') return false;
  if (booking.total_price - booking.amount_paid <= 0) return false;
  if (!(await deps.providers.configured(db, booking.tenant_id, 'stripe'))) return false;
  const page = await db
    .selectFrom('booking_pages')
    .select('payment_mode')
    .where('tenant_id', '=', booking.tenant_id)
    .executeTakeFirst();
  return page?.payment_mode !== 'at_venue';
}
