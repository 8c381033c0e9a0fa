import { describe, expect, it } from 'vitest';
import { DomainError, type FieldError } from './errors.js';
import { PAGE_SIZES, pageSizeOf } from './paging.js';
import { parseCreateBooking, parseListBookings, parseUpdateBookingStatus } from '../modules/bookings/index.js';
import { parseCreateAccommodation, parseCreateDoor, parseSpecialDate } from '../modules/catalog/index.js';
import { parseCreatePolicy } from '../modules/pricing/index.js';

// The edge validator (src/kernel/commands.ts) as callers see it: a typed value, or a ValidationError
// whose fields and messages are the contract's.

function refusal(parse: () => unknown): { code: string; fields: FieldError[]; message: string } {
  try {
    parse();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, fields: error.fieldErrors, message: error.message };
    throw error;
  }
  throw new Error('the input was accepted');
}

const OBJECT = '0b5e2d1c-8f6a-4c3b-9d2e-1a2b3c4d5e6f';
const booking = {
  objectId: OBJECT,
  guestName: '  Ada Lovelace ',
  guestEmail: 'ada@example.com',
  startTime: '2026-12-01T10:00:00+01:00',
  endTime: '2026-12-01T11:00:00Z',
};

describe('createBooking command', () => {
  it('decodes a valid command: trimmed names, Dates, no phone', () => {
    const command = parseCreateBooking({ ...booking, tenantId: 'ignored' });
    expect(command.guestName).toBe('Ada Lovelace');
    expect(command.startTime).toEqual(new Date('2026-12-01T09:00:00Z'));
    expect(command.endTime).toEqual(new Date('2026-12-01T11:00:00Z'));
    expect(command.guestPhone).toBeUndefined();
  });

  it('takes Dates (a GraphQL DateTime) and a null phone', () => {
    const command = parseCreateBooking({
      ...booking,
      startTime: new Date('2026-12-01T09:00:00Z'),
      endTime: new Date('2026-12-01T10:00:00Z'),
      guestPhone: null,
    });
    expect(command.guestPhone).toBeNull();
    expect(command.endTime.getTime() - command.startTime.getTime()).toBe(3_600_000);
  });

  it.each<[string, Record<string, unknown>, FieldError[]]>([
    [
      'objectId not a uuid',
      { objectId: 'obj-1' },
      [{ field: 'objectId', message: 'must be the id of a bookable object' }],
    ],
    [
      'objectId missing',
      { objectId: undefined },
      [{ field: 'objectId', message: 'must be the id of a bookable object' }],
    ],
    [
      'guestName blank',
      { guestName: '   ' },
      [{ field: 'guestName', message: 'must be a non-empty string of at most 200 characters' }],
    ],
    [
      'guestName too long',
      { guestName: 'x'.repeat(201) },
      [{ field: 'guestName', message: 'must be a non-empty string of at most 200 characters' }],
    ],
    [
      'guestName a number',
      { guestName: 42 },
      [{ field: 'guestName', message: 'must be a non-empty string of at most 200 characters' }],
    ],
    ['guestEmail', { guestEmail: 'ada@' }, [{ field: 'guestEmail', message: 'must be a valid email address' }]],
    [
      'guestPhone',
      { guestPhone: 'call me' },
      [{ field: 'guestPhone', message: 'must be a phone number in international (E.164) form such as +49 30 1234567' }],
    ],
    [
      'startTime without offset',
      { startTime: '2026-12-01T10:00:00' },
      [{ field: 'startTime', message: 'must be an ISO 8601 timestamp with a time zone offset' }],
    ],
    [
      'endTime not a date',
      { endTime: '2026-02-30T10:00:00Z' },
      [{ field: 'endTime', message: 'must be an ISO 8601 timestamp with a time zone offset' }],
    ],
    [
      'endTime past year 9999',
      { endTime: '+010000-01-01T00:00:00Z' },
      [{ field: 'endTime', message: 'must be an ISO 8601 timestamp with a time zone offset' }],
    ],
    [
      'several fields, in the order of the command',
      { endTime: 7, guestEmail: null, objectId: 1 },
      [
        { field: 'objectId', message: 'must be the id of a bookable object' },
        { field: 'guestEmail', message: 'must be a valid email address' },
        { field: 'endTime', message: 'must be an ISO 8601 timestamp with a time zone offset' },
      ],
    ],
  ])('refuses %s', (_, change, fields) => {
    const { code, fields: got, message } = refusal(() => parseCreateBooking({ ...booking, ...change }));
    expect(code).toBe('validation_failed');
    expect(got).toEqual(fields);
    expect(message).toBe(fields.map((f) => `${f.field}: ${f.message}`).join('; '));
  });

  it('refuses an empty range with its own code', () => {
    const { code, fields } = refusal(() => parseCreateBooking({ ...booking, endTime: '2026-12-01T09:00:00Z' }));
    expect(code).toBe('invalid_time_range');
    expect(fields).toEqual([{ field: 'endTime', message: 'must be later than startTime' }]);
  });

  it('refuses a value that is not an object', () => {
    expect(refusal(() => parseCreateBooking(null)).code).toBe('validation_failed');
  });
});

describe('updateBookingStatus command', () => {
  it.each(['CONFIRMED', 'CANCELLED', 'COMPLETED', 'PENDING'])('accepts %s', (status) => {
    expect(parseUpdateBookingStatus({ status }).status).toBe(status);
  });
  it.each([['confirmed'], [''], [null], [3]])('refuses %j', (status) => {
    expect(refusal(() => parseUpdateBookingStatus({ status })).fields).toEqual([
      { field: 'status', message: 'must be one of CONFIRMED, CANCELLED, COMPLETED' },
    ]);
  });
});

describe('listBookings command and page sizes', () => {
  it('decodes boundaries: a date is midnight UTC', () => {
    const command = parseListBookings({ from: '2026-11-20', to: '2026-11-21T10:00:00+02:00', pageSize: null });
    expect(command.from).toEqual(new Date('2026-11-20T00:00:00Z'));
    expect(command.to).toEqual(new Date('2026-11-21T08:00:00Z'));
    expect(command.pageSize).toBeNull();
  });
  it.each<[Record<string, unknown>, FieldError]>([
    [{ page: 0 }, { field: 'page', message: 'must be a whole number ≥ 1' }],
    [{ page: 1.5 }, { field: 'page', message: 'must be a whole number ≥ 1' }],
    [{ pageSize: 101 }, { field: 'pageSize', message: 'must be a whole number from 1 to 100' }],
    [{ pageSize: 0 }, { field: 'pageSize', message: 'must be a whole number from 1 to 100' }],
    [{ objectId: 'x' }, { field: 'objectId', message: 'must be an object id (uuid)' }],
    [
      { from: 'yesterday' },
      {
        field: 'from',
        message:
          'must be an ISO 8601 date (YYYY-MM-DD, midnight UTC) or timestamp with an offset, such as 2026-11-20T10:00:00Z',
      },
    ],
  ])('refuses %j', (input, field) => {
    expect(refusal(() => parseListBookings(input)).fields).toEqual([field]);
  });
  it('one page-size definition: default, limit and message', () => {
    expect(pageSizeOf(PAGE_SIZES.accessLog, undefined)).toBe(50);
    expect(pageSizeOf(PAGE_SIZES.accessLog, null)).toBe(50);
    expect(pageSizeOf(PAGE_SIZES.accessLog, 500)).toBe(500);
    expect(refusal(() => pageSizeOf(PAGE_SIZES.deviceCommands, 201)).fields).toEqual([
      { field: 'first', message: 'must be a whole number from 1 to 200' },
    ]);
    expect(refusal(() => pageSizeOf(PAGE_SIZES.bookings, 2.5, 'pageSize')).fields).toEqual([
      { field: 'pageSize', message: 'must be a whole number from 1 to 100' },
    ]);
  });
});

describe('catalog and pricing commands', () => {
  it('createDoor: defaults stay absent, a closed set is checked', () => {
    expect(parseCreateDoor({ name: ' Gate ', gpioPin: 17 })).toEqual({ name: 'Gate', gpioPin: 17 });
    expect(refusal(() => parseCreateDoor({ name: 'Gate', gpioPin: 64, behavior: 'open' })).fields).toEqual([
      { field: 'gpioPin', message: 'must be a whole number from 0 to 63' },
      { field: 'behavior', message: 'must be one of unlock_per_scan, toggle' },
    ]);
  });
  it('createAccommodation: a message made from the refused value', () => {
    expect(
      refusal(() => parseCreateAccommodation({ name: 'Park', address: 'Street 1', timeZone: 'Mars/Olympus' })).fields,
    ).toEqual([{ field: 'timeZone', message: 'must be an IANA time zone such as Europe/Berlin, got "Mars/Olympus"' }]);
  });
  it('special date: hours checked with the schema fields, in field order', () => {
    expect(parseSpecialDate({ date: '2026-12-31', closed: false, open: '10:00', close: '14:00' })).toEqual({
      date: '2026-12-31',
      closed: false,
      reason: '',
      open: '10:00',
      close: '14:00',
    });
    expect(refusal(() => parseSpecialDate({ date: '2026-02-30', closed: true, open: '10:00' })).fields).toEqual([
      { field: 'date', message: 'must be a date YYYY-MM-DD' },
      { field: 'open', message: 'a closed date takes no hours' },
    ]);
  });
  it('cancellation policy: tier errors keep their nested field names, after name', () => {
    expect(parseCreatePolicy({ name: 'Flex', tiers: [{ hoursBeforeStart: 24, refundPercent: 100 }] })).toEqual({
      name: 'Flex',
      tiers: [{ hoursBeforeStart: 24, refundPercent: 100 }],
      isDefault: false,
    });
    expect(
      refusal(() =>
        parseCreatePolicy({ isDefault: 'yes', tiers: [{ hoursBeforeStart: 24, refundPercent: 101 }], name: '' }),
      ).fields,
    ).toEqual([
      { field: 'name', message: 'must be a non-empty string of at most 200 characters' },
      { field: 'tiers[0].refundPercent', message: 'must be a whole number from 0 to 100' },
      { field: 'isDefault', message: 'must be true or false' },
    ]);
  });
});
