import { DateTime } from 'luxon';
import type { BookingPagePaymentMode, BookingStatus, PaymentStatus } from '../../kernel/db/types.js';
import { intlTag, type Locale } from '../../kernel/i18n.js';

// Pure rules of the guest's manage page (docs/booking-page.md "The guest's manage page"),
// table-tested in guest.rules.test.ts.

interface BookingState {
  status: BookingStatus;
  start_time: Date;
}

export type CancelRefusal = 'cancelled' | 'completed' | 'started' | 'tooLate';

/**
 * Whether the guest may cancel online now: a PENDING or CONFIRMED booking that has not started,
 * and — when the venue has a default cancellation policy — a tier of it covers the notice given
 * (`tierApplies`). A venue that lets guests cancel until the start with no refund adds a tier
 * {hoursBeforeStart: 0, refundPercent: 0}. Staff can always cancel in the dashboard.
 */
export function cancelRefusal(booking: BookingState, tierApplies: boolean, now: Date): CancelRefusal | null {
  if (booking.status === 'CANCELLED') return 'cancelled';
  if (booking.status === 'COMPLETED') return 'completed';
  if (booking.start_time.getTime() <= now.getTime()) return 'started';
  if (!tierApplies) return 'tooLate';
  return null;
}

export type RescheduleRefusal = 'cancelled' | 'completed' | 'started';

/** Whether the guest may move the booking online now: PENDING or CONFIRMED, not yet started. */
export function rescheduleRefusal(booking: BookingState, now: Date): RescheduleRefusal | null {
  if (booking.status === 'CANCELLED') return 'cancelled';
  if (booking.status === 'COMPLETED') return 'completed';
  if (booking.start_time.getTime() <= now.getTime()) return 'started';
  return null;
}

interface Money {
  status: BookingStatus;
  payment_status: PaymentStatus;
  total_price: number;
  amount_paid: number;
}

/** Cents still due: nothing once cancelled or completed, or when what was paid covers the price. */
export function amountDue(booking: Money): number {
  if (booking.status === 'CANCELLED' || booking.status === 'COMPLETED') return 0;
  return Math.max(0, booking.total_price - booking.amount_paid);
}

/**
 * How the guest can pay what is due: `online` through the booking's paymentUrl (a payment provider
 * is configured, the venue does not take payment at the venue only, and the booking is unpaid — the
 * paymentUrl charges the whole price), `venue` when something is due otherwise, null when nothing is.
 */
export function payOption(
  booking: Money,
  providerConfigured: boolean,
  paymentMode: BookingPagePaymentMode | null,
): 'online' | 'venue' | null {
  if (amountDue(booking) === 0) return null;
  const online = providerConfigured && paymentMode !== 'at_venue' && booking.payment_status === 'UNPAID';
  return online ? 'online' : 'venue';
}

/** The VAT contained in a gross amount at `basisPoints` (1900 = 19 %), rounded to the cent. */
export function vatIncluded(grossCents: number, basisPoints: number): number {
  if (basisPoints <= 0 || grossCents <= 0) return 0;
  return Math.round((grossCents * basisPoints) / (10_000 + basisPoints));
}

/** A rate in basis points as a guest reads it: 1900 → "19 %" (en) or "19 %" (de), 750 → "7.5 %"/"7,5 %". */
export function percentOf(basisPoints: number, locale: Locale): string {
  return new Intl.NumberFormat(intlTag(locale), { style: 'percent', maximumFractionDigits: 2 }).format(
    basisPoints / 10_000,
  );
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

export function money(cents: number, currency: string, locale: Locale): string {
  const key = `${locale}|${currency}`;
  let format = moneyFormats.get(key);
  if (!format)
    moneyFormats.set(key, (format = new Intl.NumberFormat(intlTag(locale), { style: 'currency', currency })));
  return format.format(cents / 100);
}

const DAY_FORMAT: Record<Locale, string> = { en: 'cccc d LLLL yyyy', de: 'cccc, d. LLLL yyyy' };

/** A local date as a guest reads it: "Saturday 21 November 2026" / "Samstag, 21. November 2026". */
export function localDay(date: string, zone: string, locale: Locale): string {
  return DateTime.fromISO(date, { zone }).setLocale(intlTag(locale)).toFormat(DAY_FORMAT[locale]);
}

/** A booking's time in the venue's zone: "Saturday 21 November 2026, 10:00–12:00". */
export function localRange(start: Date, end: Date, zone: string, locale: Locale): string {
  const s = DateTime.fromJSDate(start, { zone }).setLocale(intlTag(locale));
  const e = DateTime.fromJSDate(end, { zone }).setLocale(intlTag(locale));
  const day = DAY_FORMAT[locale];
  const endText = s.hasSame(e, 'day') ? e.toFormat('HH:mm') : e.toFormat(`${day}, HH:mm`);
  return `${s.toFormat(`${day}, HH:mm`)}–${endText}`;
}

/** The local date (YYYY-MM-DD) of an instant in `zone`. */
export function localDateIn(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toISODate() ?? '';
}

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A form's date YYYY-MM-DD when it is a real calendar date, else undefined. */
export function parseLocalDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || !LOCAL_DATE.test(value)) return undefined;
  return DateTime.fromISO(value, { zone: 'UTC' }).isValid ? value : undefined;
}

/** A form's instant (an ISO timestamp with offset, as the page writes it), else undefined. */
export function parseInstant(value: unknown): Date | undefined {
  if (typeof value !== 'string' || value.length > 40 || !/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(value))
    return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The booking's length in whole minutes. */
export const durationMinutes = (booking: { start_time: Date; end_time: Date }): number =>
  Math.round((booking.end_time.getTime() - booking.start_time.getTime()) / 60_000);
