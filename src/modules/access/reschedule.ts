import type { Executor } from '../../db/index.js';
import type { AppDeps } from '../../deps.js';
import { issueCredentials } from './access.service.js';

/** The booking as it is after a reschedule: its new window. */
export interface RescheduledBooking {
  id: string;
  tenant_id: string;
  start_time: Date;
  end_time: Date;
}

/**
 * Makes a rescheduled booking's credentials follow its new window; `trx` is the reschedule's
 * transaction. Their validity is read from the booking's times at every access check, so the SMS
 * code and today's QR token need no change: they open the door in the new window and not in the old
 * one. A QR token that carries its own window (signed, verifiable offline) is reissued here, and the
 * old one refused.
 */
export async function rescheduleCredentials(trx: Executor, deps: AppDeps, booking: RescheduledBooking): Promise<void> {
  // Issued at creation; a booking from before credentials existed gets them now (idempotent).
  await issueCredentials(trx, deps, booking);
}
