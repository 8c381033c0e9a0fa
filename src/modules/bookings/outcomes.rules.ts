import type { BookingStatus, CancellationReasonCode } from '../../kernel/db/types.js';

// Pure rules of a booking's outcome beyond its status (issue #43, docs/bookings.md "No-shows and
// cancellation reasons"): when a no-show may be marked, and what a cancellation's reason may be.

export const CANCELLATION_REASON_CODES: readonly CancellationReasonCode[] = [
  'GUEST_REQUEST',
  'NO_PAYMENT',
  'WEATHER',
  'MAINTENANCE',
  'DUPLICATE',
  'VENUE_CLOSED',
  'OTHER',
];

/** The longest free text of a cancellation reason (the column's CHECK says the same). */
export const MAX_CANCELLATION_REASON = 500;

/** Control characters other than tab and newline, and unpaired surrogates (text PostgreSQL cannot hold or a reader cannot show). */
const UNPRINTABLE =
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  /[\u0000-\u0008\u000b-\u001f\u007f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A refusal: the field it concerns and why. */
export interface OutcomeRefusal {
  field: string;
  message: string;
  code: string;
}

export interface CancellationReason {
  code: CancellationReasonCode;
  text: string | null;
}

/**
 * The reason given with a status change: null when none was given; a refusal when one is given with
 * another status than CANCELLED, an unknown code, text that is too long or holds control
 * characters (a newline and a tab are fine), or OTHER without text. Text alone means OTHER.
 */
export function cancellationReasonOf(input: {
  status: BookingStatus | undefined;
  reasonCode?: unknown;
  reason?: unknown;
}): CancellationReason | OutcomeRefusal | null {
  const codeGiven = input.reasonCode !== undefined && input.reasonCode !== null;
  const textGiven = input.reason !== undefined && input.reason !== null;
  if (!codeGiven && !textGiven) return null;
  if (input.status !== 'CANCELLED') {
    return {
      field: codeGiven ? 'reasonCode' : 'reason',
      message: 'a cancellation reason goes only with status CANCELLED',
      code: 'validation_failed',
    };
  }
  if (codeGiven && !(CANCELLATION_REASON_CODES as readonly unknown[]).includes(input.reasonCode)) {
    return {
      field: 'reasonCode',
      message: `must be one of ${CANCELLATION_REASON_CODES.join(', ')}`,
      code: 'validation_failed',
    };
  }
  let text: string | null = null;
  if (textGiven) {
    if (typeof input.reason !== 'string')
      return { field: 'reason', message: 'must be a string', code: 'validation_failed' };
    const trimmed = input.reason.trim();
    const length = Array.from(trimmed).length;
    if (length > MAX_CANCELLATION_REASON) {
      return {
        field: 'reason',
        message: `must be at most ${MAX_CANCELLATION_REASON} characters (it has ${length})`,
        code: 'validation_failed',
      };
    }
    if (UNPRINTABLE.test(trimmed)) {
      return {
        field: 'reason',
        message: 'must not contain control characters (other than newlines and tabs)',
        code: 'validation_failed',
      };
    }
    text = trimmed === '' ? null : trimmed;
  }
  const code = codeGiven ? (input.reasonCode as CancellationReasonCode) : 'OTHER';
  if (code === 'OTHER' && text === null) {
    return { field: 'reason', message: 'say why in reason when the code is OTHER', code: 'validation_failed' };
  }
  return { code, text };
}

/** Whether a booking may be marked a no-show at `now`: null when it may, else why not (a conflict). */
export function noShowRefusal(
  booking: { status: BookingStatus; start_time: Date; no_show_at: Date | null },
  now: Date,
): OutcomeRefusal | null {
  if (booking.no_show_at !== null) {
    return {
      field: 'bookingId',
      message: `The booking was marked a no-show already (at ${booking.no_show_at.toISOString()})`,
      code: 'already_no_show',
    };
  }
  if (booking.status !== 'CONFIRMED') {
    return {
      field: 'bookingId',
      message: `A ${booking.status} booking cannot be marked a no-show: only a CONFIRMED one`,
      code: 'invalid_transition',
    };
  }
  if (now.getTime() < booking.start_time.getTime()) {
    return {
      field: 'bookingId',
      message: `The booking starts at ${booking.start_time.toISOString()}: a no-show can be marked only after its start`,
      code: 'no_show_before_start',
    };
  }
  return null;
}

export const isRefusal = (value: CancellationReason | OutcomeRefusal | null): value is OutcomeRefusal =>
  value !== null && 'field' in value;
