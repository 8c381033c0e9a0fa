import type { BookingStatus } from '../../kernel/db/types.js';

export const BOOKING_STATUSES: readonly BookingStatus[] = ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED'];

/** The allowed status changes (DESIGN section 5); everything else is a conflict. */
const ALLOWED: Record<BookingStatus, readonly BookingStatus[]> = {
  PENDING: ['CONFIRMED', 'CANCELLED'],
  CONFIRMED: ['CANCELLED', 'COMPLETED'],
  CANCELLED: [],
  COMPLETED: [],
};

export function canTransition(from: BookingStatus, to: BookingStatus): boolean {
  return ALLOWED[from].includes(to);
}

/** The event a transition emits. */
export function eventOfStatus(status: BookingStatus): string | undefined {
  switch (status) {
    case 'CONFIRMED':
      return 'booking.confirmed';
    case 'CANCELLED':
      return 'booking.cancelled';
    case 'COMPLETED':
      return 'booking.completed';
    default:
      return undefined;
  }
}
