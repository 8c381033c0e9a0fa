import type { AppDeps } from '../../kernel/deps.js';
import type { BookingRow } from '../../kernel/db/types.js';
import { DomainError, type FieldError } from '../../kernel/errors.js';
import type { Locale } from '../../kernel/i18n.js';
import { recordAudit, type AuditActor } from '../audit/index.js';
import {
  createBookingOfObject,
  manageUrl,
  parseCreateBooking,
  paymentUrlOf,
  updateBookingStatus,
} from '../bookings/index.js';
import { settingsOf } from '../payments/index.js';
import type { GuardVerdict } from './guard.js';
import type { GuestInput, PageModel } from './page.model.js';
import type { PageRow } from './page.repository.js';
import { countryOfTimeZone, normalisePhone } from '../../kernel/phone.js';
import { pageTexts } from './page.texts.js';

// A guest's booking from the page: the form's fields checked in the guest's language, then the
// same bookings service the desk uses (events, webhooks, notifications, door credentials), with
// the guest as the audit entry's actor. Where the guest goes next follows the venue's payment mode.

/** The form as posted: every field a string (missing: empty), cut to a sane length. */
export interface BookingForm {
  step: string;
  object: string;
  date: string;
  duration: string;
  start: string;
  name: string;
  email: string;
  phone: string;
  accept: string;
  pay: string;
  website: string;
  challenge: string;
  nonce: string;
  lang: string;
}

const FORM_FIELDS: readonly (keyof BookingForm)[] = [
  'step',
  'object',
  'date',
  'duration',
  'start',
  'name',
  'email',
  'phone',
  'accept',
  'pay',
  'website',
  'challenge',
  'nonce',
  'lang',
];

export function readForm(body: unknown): BookingForm {
  const source = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const out = {} as BookingForm;
  for (const field of FORM_FIELDS) {
    const value = source[field];
    out[field] = typeof value === 'string' ? value.slice(0, field === 'name' ? 1000 : 400) : '';
  }
  return out;
}

export function guestOf(form: BookingForm): GuestInput {
  return {
    name: form.name,
    email: form.email,
    phone: form.phone,
    accepted: form.accept === 'yes',
    pay: form.pay === 'online' || form.pay === 'venue' ? form.pay : '',
  };
}

const EMAIL = /^[^\s@<>()",;]{1,64}@[^\s@<>()",;]+\.[^\s@<>()",;]{2,}$/;

export interface CheckedBooking {
  guestName: string;
  guestEmail: string;
  guestPhone: string;
  payOnline: boolean;
}

/** The form's field errors in the guest's language, or what to book. */
export function checkForm(model: PageModel, form: BookingForm): { errors: FieldError[]; booking?: CheckedBooking } {
  const t = (key: Parameters<typeof pageTexts.t>[1], params?: Record<string, string>) =>
    pageTexts.t(model.locale, key, params);
  const errors: FieldError[] = [];
  if (!model.object || model.object.id !== form.object) errors.push({ field: 'object', message: t('error.object') });
  else if (!model.date || model.date !== form.date)
    errors.push({
      field: 'date',
      message: t('error.date', { from: model.dateBounds?.min ?? '', to: model.dateBounds?.max ?? '' }),
    });
  else if (!model.start) errors.push({ field: 'start', message: t('error.start') });
  const name = form.name.trim().replace(/\s+/g, ' ');
  if (!name || name.length > 200) errors.push({ field: 'name', message: t('error.name') });
  const email = form.email.trim();
  if (!EMAIL.test(email) || email.length > 254) errors.push({ field: 'email', message: t('error.email') });
  const phone = normalisePhone(form.phone, model.object ? countryOfTimeZone(model.object.time_zone) : undefined);
  if (!phone.ok)
    errors.push({
      field: 'phone',
      message: t(phone.reason === 'needs_country_code' ? 'error.phoneCountry' : 'error.phone'),
    });
  if (form.accept !== 'yes') errors.push({ field: 'accept', message: t('error.accept') });
  const mode = model.page.payment_mode;
  if (mode === 'online_optional' && form.pay !== 'online' && form.pay !== 'venue')
    errors.push({ field: 'pay', message: t('error.payment') });
  if (errors.length || !phone.ok) return { errors };
  return {
    errors,
    booking: {
      guestName: name,
      guestEmail: email,
      guestPhone: phone.e164,
      payOnline: mode === 'online_required' || (mode === 'online_optional' && form.pay === 'online'),
    },
  };
}

/** The form-level message for a refusal of the guard. */
export function refusalMessage(locale: Locale, verdict: Exclude<GuardVerdict, { ok: true }>): string {
  const minutes = String('retryAfterSeconds' in verdict ? Math.max(1, Math.ceil(verdict.retryAfterSeconds / 60)) : 1);
  switch (verdict.reason) {
    case 'address_limited':
      return pageTexts.t(locale, 'error.tooMany', { minutes });
    case 'tenant_limited':
      return pageTexts.t(locale, 'error.busy', { minutes });
    case 'without_proof_limited':
      return pageTexts.t(locale, 'error.noScript', { minutes });
    case 'proof_expired':
    case 'proof_used':
      return pageTexts.t(locale, 'error.expired');
    default:
      return pageTexts.t(locale, 'error.refused');
  }
}

/** The guest of a booking made on the booking page, as the audit log names them. */
export const bookingPageGuest = (booking: Pick<BookingRow, 'id' | 'guest_name'>): AuditActor => ({
  type: 'guest',
  id: booking.id,
  label: `guest ${booking.guest_name} (booking page)`,
});

export interface CreatedBooking {
  booking: BookingRow;
  /** Where the guest goes next: the paymentUrl, or the booking's manage page. */
  next: string;
}

/**
 * Creates the booking through the bookings service (PENDING; CONFIRMED at once when the guest pays
 * at the venue and the tenant does not tie confirmation to payment: confirmOnPayment off) and
 * audits it with the guest as actor, in one transaction.
 */
export async function createGuestBooking(
  deps: AppDeps,
  page: PageRow,
  model: PageModel,
  checked: CheckedBooking,
  address: string,
): Promise<CreatedBooking> {
  const { object, start } = model;
  if (!object || !start) throw new Error('checkForm lets no booking without an object and a start through');
  const command = parseCreateBooking({
    objectId: object.id,
    guestName: checked.guestName,
    guestEmail: checked.guestEmail,
    guestPhone: checked.guestPhone,
    startTime: start.start.toISOString(),
    endTime: start.end.toISOString(),
    // The page's language becomes the guest's: their mails and SMS follow it (docs/notifications.md).
    locale: model.locale === 'de' ? 'DE' : 'EN',
  });
  const tenantId = page.tenant_id;
  const booking = await deps.database.db.transaction().execute(async (trx) => {
    let { booking } = await createBookingOfObject(trx, deps, tenantId, command, { payOnline: checked.payOnline });
    if (!checked.payOnline && !(await settingsOf(trx, tenantId)).confirmOnPayment) {
      ({ booking } = await updateBookingStatus(trx, deps, tenantId, booking.id, { status: 'CONFIRMED' }));
    }
    await recordAudit(trx, {
      tenantId,
      actor: bookingPageGuest(booking),
      action: 'booking.guest_created',
      target: { type: 'booking', id: booking.id },
      details: { status: booking.status, payment: checked.payOnline ? 'online' : 'venue', locale: model.locale },
      ip: address,
      at: deps.now(),
    });
    return booking;
  });
  const next = checked.payOnline
    ? paymentUrlOf(deps, booking)
    : manageUrl(deps.env.publicUrl, deps.secret, booking.id, booking.guest_link_version);
  return { booking, next };
}

/** Whether a refusal of the bookings service is the guest's to fix (another time), and which message says so. */
export function bookingRefusal(locale: Locale, error: unknown): string | undefined {
  if (!(error instanceof DomainError)) return undefined;
  if (error.kind === 'CONFLICT') return pageTexts.t(locale, 'error.taken');
  if (error.kind === 'BAD_USER_INPUT' || error.kind === 'NOT_FOUND') return pageTexts.t(locale, 'error.rules');
  return undefined;
}
