import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { NotificationData } from '../../kernel/db/types.js';
import { headerSafe } from './notification.rules.js';

// The iCalendar part of a guest mail (RFC 5545, written by ical-generator): one VEVENT whose UID
// is the booking's for its whole life, SEQUENCE the booking's event sequence (so a reschedule
// replaces the entry and a cancellation removes it), DTSTART/DTEND in UTC, ORGANIZER the venue.

export interface CalendarInput {
  data: NotificationData;
  method: 'REQUEST' | 'CANCEL';
  sequence: number;
  /** The From address: ORGANIZER's mailto (named after the venue). */
  organizerEmail: string;
  guestEmail: string;
  /** Stamps the event (DTSTAMP): when the change was queued. */
  stamp: Date;
  /** The domain of the UID: the installation's public host. */
  domain: string;
}

/**
 * A name for a CN parameter. RFC 5545 has no escape inside a parameter value and allows no DQUOTE
 * in a quoted one: ical-generator writes `\"` (and `\\` for a backslash), which readers take as
 * the value's end, so a guest named `x";ROLE=CHAIR;CN="y` rewrote the ATTENDEE. A DQUOTE becomes an
 * apostrophe, a backslash a slash, control characters a space; a semicolon a comma too, because
 * readers such as node-ical split parameters on it even inside quotes.
 */
export function paramSafe(value: string): string {
  return headerSafe(value).replace(/"/g, "'").replace(/\\/g, '/').replace(/;/g, ',');
}

export const bookingUid = (bookingId: string, domain: string): string => `booking-${bookingId}@${domain}`;

export function bookingCalendar(input: CalendarInput): string {
  const { data } = input;
  const calendar = ical({
    prodId: { company: 'Portier', product: 'Portier', language: 'EN' },
    method: input.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  calendar.createEvent({
    id: bookingUid(data.booking.id, input.domain),
    sequence: input.sequence,
    stamp: input.stamp,
    start: new Date(data.booking.startTime),
    end: new Date(data.booking.endTime),
    summary: headerSafe(`${data.booking.objectName} at ${data.accommodation.name}`),
    location: headerSafe(`${data.accommodation.name}, ${data.accommodation.address}`),
    organizer: { name: paramSafe(data.accommodation.name), email: input.organizerEmail },
    attendees: [{ email: input.guestEmail, name: paramSafe(data.booking.guestName) }],
    status: input.method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return calendar.toString();
}
