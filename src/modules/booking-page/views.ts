import type { BookingPagePaymentMode, BookingRow, ObjectRow } from '../../kernel/db/types.js';
import type { Language } from './booking-page.rules.js';

// What the booking page's GraphQL types are made from (codegen.ts maps them here): types only,
// importing nothing beyond the kernel, so generated/graphql.ts closes no import cycle.

export interface BookingPageSettingsView {
  /** false until the first save (no row). */
  saved: boolean;
  enabled: boolean;
  slug: string | null;
  paymentMode: BookingPagePaymentMode;
  allowedOrigins: string[];
  logo: string | null;
  accentColour: string | null;
  defaultLocale: Language;
  texts: Record<Language, Record<string, string>>;
  vatRateBasisPoints: number | null;
  updatedAt: Date | null;
}

/** The page as a guest's browser may see it. */
export interface PublicBookingPageView {
  tenantId: string;
  name: string;
  settings: BookingPageSettingsView & { slug: string };
}

export interface PublicObjectView {
  object: ObjectRow;
  accommodation: { name: string; address: string; time_zone: string };
}

export interface PublicBookingView {
  booking: BookingRow;
  objectName: string;
  /** The Stripe Checkout link when the venue takes payment online; null: pay at the venue. */
  paymentUrl: string | null;
  manageUrl: string;
}
