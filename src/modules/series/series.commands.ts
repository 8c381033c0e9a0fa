import { invalidField } from '../../kernel/errors.js';
import { parseCreateBooking, type CreateBooking } from '../bookings/index.js';

// A series' input is a booking's (guest, first range, metadata, status, locale: parseCreateBooking's
// schema and messages) plus its rule text and failOnConflict. The rule itself is parsed by the
// service, which needs the object's time zone to read a date-only UNTIL.

export interface CreateBookingSeries {
  booking: CreateBooking;
  rule: string;
  failOnConflict: boolean;
}

const RULE_MAX = 500;

function ruleOf(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > RULE_MAX) {
    throw invalidField(
      'rule',
      `must be an RRULE value of at most ${RULE_MAX} characters, e.g. FREQ=WEEKLY;BYDAY=TU;COUNT=10`,
      'invalid_rule',
    );
  }
  return value;
}

export function parseCreateBookingSeries(input: Record<string, unknown>): CreateBookingSeries {
  const { rule, failOnConflict, ...booking } = input;
  const text = ruleOf(rule);
  if (failOnConflict != null && typeof failOnConflict !== 'boolean') {
    throw invalidField('failOnConflict', 'must be true or false');
  }
  return { booking: parseCreateBooking(booking), rule: text, failOnConflict: failOnConflict === true };
}

/** The preview takes only the object, the first range and the rule: the guest is a placeholder. */
export function parsePreviewBookingSeries(input: {
  objectId: unknown;
  startTime: unknown;
  endTime: unknown;
  rule: unknown;
}): CreateBookingSeries {
  const text = ruleOf(input.rule);
  const booking = parseCreateBooking({
    objectId: input.objectId,
    startTime: input.startTime,
    endTime: input.endTime,
    guestName: 'Preview',
    guestEmail: 'preview@example.com',
  });
  return { booking, rule: text, failOnConflict: false };
}

export type SeriesScope = 'THIS' | 'FOLLOWING' | 'ALL';
