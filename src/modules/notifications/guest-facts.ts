import type { Executor } from '../../kernel/db/index.js';
import type { Locale } from '../../kernel/i18n.js';

/** What a guest message needs of its booking at the moment it is sent (the `guestFacts` port). */
export interface GuestFacts {
  /** The booking's short reference (PRT-7KQ2M). */
  reference: string;
  /** The guest's language: their choice, else the venue's booking page default, else English. */
  locale: Locale;
  /** The guest's manage link (PUBLIC_URL/b/{token}) of the booking's current link version. */
  manageUrl: string;
  /** The booking's payment page (PUBLIC_URL/pay/{token}). */
  paymentUrl: string;
  /** The venue's VAT rate in basis points (1900 = 19 %); null: no VAT line on receipts. */
  vatRateBasisPoints: number | null;
}

/** Reads the facts of a booking of the tenant; undefined when there is no such booking. */
export type GuestFactsOf = (db: Executor, tenantId: string, bookingId: string) => Promise<GuestFacts | undefined>;
