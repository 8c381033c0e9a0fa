import type { Executor } from '../../kernel/db/index.js';
import type { AppDeps } from '../../kernel/deps.js';
import { DomainError, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import { getCredentials } from '../access/index.js';
import { guestActor, recordAudit } from '../audit/index.js';
import { freeStartsOn, type FreeStart } from '../availability/index.js';
import {
  bookingIdOfManageToken,
  isManageToken,
  manageUrl,
  parseRescheduleBooking,
  parseUpdateBookingStatus,
  quoteCancellation,
  rescheduleBooking,
  updateBookingStatus,
} from '../bookings/index.js';
import * as repo from './guest.repository.js';
import {
  cancelRefusal,
  durationMinutes,
  rescheduleRefusal,
  type CancelRefusal,
  type RescheduleRefusal,
} from './guest.rules.js';

// What the guest's manage page (/b/{token}) does. The token is the only credential: it names one
// booking, and only its current version (bookings.guest_link_version) is accepted. Every change goes
// through the services staff use (events, webhooks, notifications, refunds) and is audited with the
// guest as actor; the audit entry names the booking, never the token.

export type { GuestBooking } from './guest.repository.js';

/** The booking a manage token opens, or undefined for a malformed, unknown, forged or revoked token. */
export async function guestBookingOf(deps: AppDeps, token: string): Promise<repo.GuestBooking | undefined> {
  const id = bookingIdOfManageToken(token);
  if (!id) return undefined;
  const booking = await repo.findGuestBooking(deps.database.db, id);
  if (!booking || !isManageToken(deps.secret, token, booking.id, booking.guest_link_version)) return undefined;
  return booking;
}

/** The door key of a CONFIRMED booking as the mails carry it (the same QR token and SMS code). */
export async function doorKeyOf(deps: AppDeps, booking: repo.GuestBooking) {
  if (booking.status !== 'CONFIRMED') return null;
  const credentials = await deps.database.db
    .transaction()
    .execute((trx) => getCredentials(trx, deps, booking.tenant_id, booking.id));
  return { qrSvg: credentials.qrCode.svg, smsCode: credentials.sms.code };
}

export interface CancelPreview {
  refusal: CancelRefusal | null;
  /** Cents cancelling now gives back (the policy's refund of what was paid). */
  moneyBack: number;
  amountPaid: number;
  policyName: string | null;
  shortestNoticeHours: number | null;
}

/** What cancelling now would give back, and whether the guest may (the staff's quote, the guest's rule). */
export async function previewCancel(db: Executor, deps: AppDeps, booking: repo.GuestBooking): Promise<CancelPreview> {
  if (booking.status === 'CANCELLED' || booking.status === 'COMPLETED') {
    return {
      refusal: booking.status === 'CANCELLED' ? 'cancelled' : 'completed',
      moneyBack: 0,
      amountPaid: booking.amount_paid - booking.amount_refunded,
      policyName: null,
      shortestNoticeHours: null,
    };
  }
  const quote = await quoteCancellation(db, deps, booking.tenant_id, booking.id);
  return {
    refusal: cancelRefusal(booking, quote.tierApplies, deps.now()),
    moneyBack: quote.moneyBack,
    amountPaid: quote.amountPaid,
    policyName: quote.policyName,
    shortestNoticeHours: quote.shortestNoticeHours,
  };
}

export type CancelOutcome =
  { ok: true; moneyBack: number } | { ok: false; refusal: CancelRefusal; preview?: CancelPreview };

/**
 * Cancels the booking for its guest, when the rule allows it at this moment (decided again under the
 * booking's lock): the staff's status change (booking.cancelled, the guest's mail, the refund outbox).
 */
export async function cancelAsGuest(deps: AppDeps, booking: repo.GuestBooking, ip: string): Promise<CancelOutcome> {
  return deps.database.db.transaction().execute(async (trx) => {
    const current = await repo.lockBooking(trx, booking.tenant_id, booking.id);
    if (!current) return { ok: false, refusal: 'cancelled' } as const;
    const preview = await previewCancel(trx, deps, { ...booking, ...current });
    if (preview.refusal) return { ok: false, refusal: preview.refusal, preview } as const;
    const { booking: cancelled, refundAmount } = await updateBookingStatus(
      trx,
      deps,
      booking.tenant_id,
      booking.id,
      parseUpdateBookingStatus({ status: 'CANCELLED' }),
    );
    const moneyBack = cancelled.amount_refunded - current.amount_refunded;
    await recordAudit(trx, {
      tenantId: booking.tenant_id,
      actor: guestActor(booking),
      action: 'booking.guest_cancelled',
      target: { type: 'booking', id: booking.id },
      details: { previousStatus: current.status, refundAmount, moneyBack, policyName: preview.policyName },
      ip,
      at: deps.now(),
    });
    return { ok: true, moneyBack } as const;
  });
}

/** The free starts on a local date for the booking's object and length (its own time counts as free). */
export async function rescheduleOptions(deps: AppDeps, booking: repo.GuestBooking, date: string): Promise<FreeStart[]> {
  const { starts } = await freeStartsOn(deps.database.db, booking.tenant_id, deps.now(), {
    objectId: booking.object_id,
    date,
    durationMinutes: durationMinutes(booking),
    exceptBookingId: booking.id,
  });
  return starts;
}

export type RescheduleOutcome = { ok: true } | { ok: false; refusal: RescheduleRefusal | 'taken' | 'badStart' };

/**
 * Moves the booking to `start` (same object, same length) for its guest: the staff's reschedule
 * (booking.rescheduled, new door credentials — the old QR is refused at the door — and the guest's
 * mail), after the guest's rule is checked again under the booking's lock.
 */
export async function rescheduleAsGuest(
  deps: AppDeps,
  booking: repo.GuestBooking,
  start: Date,
  ip: string,
): Promise<RescheduleOutcome> {
  const end = new Date(start.getTime() + durationMinutes(booking) * 60_000);
  const command = parseRescheduleBooking({ startTime: start.toISOString(), endTime: end.toISOString() });
  try {
    return await deps.database.db.transaction().execute(async (trx) => {
      const current = await repo.lockBooking(trx, booking.tenant_id, booking.id);
      if (!current) return { ok: false, refusal: 'cancelled' } as const;
      const refusal = rescheduleRefusal(current, deps.now());
      if (refusal) return { ok: false, refusal } as const;
      const { booking: moved, previous } = await rescheduleBooking(trx, deps, booking.tenant_id, booking.id, command);
      await recordAudit(trx, {
        tenantId: booking.tenant_id,
        actor: guestActor(booking),
        action: 'booking.guest_rescheduled',
        target: { type: 'booking', id: booking.id },
        details: {
          previous: { startTime: previous.startTime.toISOString(), endTime: previous.endTime.toISOString() },
          startTime: moved.start_time.toISOString(),
          endTime: moved.end_time.toISOString(),
          previousTotalPrice: previous.totalPrice,
          totalPrice: moved.total_price,
        },
        ip,
        at: deps.now(),
      });
      return { ok: true } as const;
    });
  } catch (error) {
    // The transaction is rolled back; the guest is told what to do next.
    if (error instanceof DomainError && error.code === 'slot_unavailable') return { ok: false, refusal: 'taken' };
    if (error instanceof DomainError && (error.status === 400 || error.status === 422))
      return { ok: false, refusal: 'badStart' };
    throw error;
  }
}

/** The booking's current manage link (staff; the link can cancel and move the booking). */
export async function guestLinkOf(db: Executor, deps: AppDeps, tenantId: string, bookingId: string) {
  const version = isUuid(bookingId) ? await repo.linkVersionOf(db, tenantId, bookingId) : undefined;
  if (version === undefined) throw notFound('Booking', bookingId);
  return { bookingId, manageUrl: manageUrl(deps.env.publicUrl, deps.secret, bookingId, version) };
}

/** Revokes every manage link given out for the booking (raises its version); returns the new link. */
export async function revokeGuestLink(trx: Executor, deps: AppDeps, tenantId: string, bookingId: string) {
  const raised = isUuid(bookingId) ? await repo.raiseLinkVersion(trx, tenantId, bookingId) : undefined;
  if (!raised) throw notFound('Booking', bookingId);
  return {
    bookingId,
    version: raised.guest_link_version,
    manageUrl: manageUrl(deps.env.publicUrl, deps.secret, bookingId, raised.guest_link_version),
  };
}
