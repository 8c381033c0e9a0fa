import { describe, expect, it } from 'vitest';
import { DomainError, type FieldError } from './errors.js';
import { parseBookingsConnection, parseRescheduleBooking } from '../modules/bookings/index.js';
import { parseCreateApiKey } from '../modules/tenants/index.js';
import { parseCreateUser } from '../modules/users/index.js';
import { parseChangePassword, parseSignIn } from '../modules/users/users.commands.js';
import { parseCreateApp } from '../modules/oauth/apps.commands.js';
import { parseDeliveriesConnection, parseUpdateWebhook } from '../modules/webhooks/webhooks.commands.js';
import { parseActivateDevice, parseRegisterDevice } from '../modules/devices/devices.commands.js';
import { parseAvailabilityQuery } from '../modules/availability/availability.commands.js';
import { parseListAccessLog } from '../modules/access/access.commands.js';

// The inputs that had hand-written checks in their services, now parsed where they enter: each
// refusal keeps its field, code and message; each accepted input comes out decoded.

function refusal(parse: () => unknown): { code: string; fields: FieldError[] } {
  try {
    parse();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, fields: error.fieldErrors };
    throw error;
  }
  throw new Error('the input was accepted');
}

const ID = '0b5e2d1c-8f6a-4c3b-9d2e-1a2b3c4d5e6f';
const SCOPES_KNOWN = 'known scopes are bookings:read';

describe('converted inputs refuse as before', () => {
  it.each<[string, () => unknown, string, FieldError[]]>([
    [
      'an app without URIs or scopes',
      () => parseCreateApp({ name: 'x', redirectUris: [], scopes: [] }),
      'validation_failed',
      [
        { field: 'redirectUris', message: 'must list 1 to 10 redirect URIs' },
        { field: 'scopes', message: expect.stringContaining('must list at least one of bookings:read') as string },
      ],
    ],
    [
      'an app with a plain-http URI',
      () => parseCreateApp({ name: 'x', redirectUris: ['http://evil.example/cb'], scopes: ['admin'] }),
      'validation_failed',
      [
        {
          field: 'redirectUris',
          message: expect.stringContaining('http is allowed only for a loopback host') as string,
        },
      ],
    ],
    [
      'a key with an unknown scope and a zero limit',
      () => parseCreateApiKey({ name: 'k', scopes: ['nope'], rateLimitPerMinute: 0 }),
      'validation_failed',
      [
        {
          field: 'scopes',
          message: expect.stringMatching(new RegExp(`^unknown scope nope; ${SCOPES_KNOWN}`)) as string,
        },
        { field: 'rateLimitPerMinute', message: 'must be a positive integer' },
      ],
    ],
    [
      'a user with a short password',
      () => parseCreateUser({ email: 'a@b', password: 'short' }),
      'validation_failed',
      [
        { field: 'email', message: 'must be an email address' },
        { field: 'password', message: 'must be at least 12 characters long' },
      ],
    ],
    [
      'a sign-in without a body',
      () => parseSignIn(null),
      'validation_failed',
      [
        { field: 'email', message: 'is required' },
        { field: 'password', message: 'is required' },
      ],
    ],
    [
      'a sign-in with a number for an email',
      () => parseSignIn({ email: 5, password: 'x' }),
      'validation_failed',
      [{ field: 'email', message: 'must be a string' }],
    ],
    [
      'a password change without the current one',
      () => parseChangePassword({ currentPassword: '', newPassword: 'long enough password' }),
      'validation_failed',
      [{ field: 'currentPassword', message: 'is required' }],
    ],
    [
      'a webhook change to null',
      () => parseUpdateWebhook({ url: null, events: null, active: 'yes' }),
      'validation_failed',
      [
        { field: 'url', message: 'must not be null; leave it out to keep the current one' },
        { field: 'events', message: 'must not be null; leave it out to keep the current ones' },
        { field: 'active', message: 'must be true or false' },
      ],
    ],
    [
      'a webhook change to ftp and an unknown event',
      () => parseUpdateWebhook({ url: 'ftp://x.example', events: ['nope'] }),
      'validation_failed',
      [
        { field: 'url', message: 'must use http or https, not ftp' },
        { field: 'events', message: expect.stringContaining('unknown event type "nope"') as string },
      ],
    ],
    [
      'a delivery page of another size and a malformed webhook',
      () => parseDeliveriesConnection({ first: 500, webhookId: 'x' }),
      'validation_failed',
      [
        { field: 'first', message: 'must be a whole number from 1 to 100' },
        { field: 'webhookId', message: 'must be a webhook id (uuid)' },
      ],
    ],
    [
      'a reschedule ending before it starts',
      () => parseRescheduleBooking({ startTime: '2026-12-01T11:00:00Z', endTime: '2026-12-01T10:00:00Z' }),
      'invalid_time_range',
      [{ field: 'endTime', message: 'must be later than startTime' }],
    ],
    [
      'a reschedule to a malformed object',
      () => parseRescheduleBooking({ startTime: 'soon', endTime: '2026-12-01T10:00:00Z', objectId: 'x' }),
      'validation_failed',
      [
        { field: 'startTime', message: 'must be an ISO 8601 timestamp with a time zone offset' },
        { field: 'objectId', message: 'must be the id of a bookable object' },
      ],
    ],
    [
      'a connection page with a foreign cursor',
      () => parseBookingsConnection({ after: 'abc' }),
      'validation_failed',
      [{ field: 'after', message: 'is not a cursor this connection returned' }],
    ],
    [
      'a device for malformed doors',
      () => parseRegisterDevice({ name: 'd', doorIds: ['x', ID] }),
      'validation_failed',
      [{ field: 'doorIds', message: 'not door ids: x' }],
    ],
    [
      'a device for no list of doors',
      () => parseRegisterDevice({ name: 'd', doorIds: 'x' }),
      'validation_failed',
      [{ field: 'doorIds', message: 'must be a list of door ids' }],
    ],
    [
      'an activation with a blank serial',
      () => parseActivateDevice({ activation_code: 'A', serial: '  ', firmware_version: '1' }),
      'validation_failed',
      [{ field: 'serial', message: 'must not be blank' }],
    ],
    [
      'availability on no date',
      () => parseAvailabilityQuery({ date: '2026-02-30', accommodationId: 'x' }),
      'validation_failed',
      [
        { field: 'date', message: 'must be a date YYYY-MM-DD' },
        { field: 'accommodationId', message: 'must be an accommodation id (uuid)' },
      ],
    ],
    [
      'an access log before no time',
      () => parseListAccessLog({ first: 501, before: 'yesterday' }),
      'validation_failed',
      [
        { field: 'first', message: 'must be a whole number from 1 to 500' },
        { field: 'before', message: 'must be an ISO 8601 timestamp' },
      ],
    ],
  ])('%s', (_, parse, code, fields) => {
    const got = refusal(parse);
    expect(got.code).toBe(code);
    expect(got.fields).toEqual(fields);
  });
});

describe('converted inputs decode what services use', () => {
  it('trims, defaults and de-duplicates', () => {
    expect(parseCreateUser({ email: ' ada@example.com ', password: 'long enough password', role: null })).toEqual({
      email: 'ada@example.com',
      password: 'long enough password',
      role: 'admin',
    });
    expect(parseRegisterDevice({ name: ' Gate ', doorIds: [ID, ID] })).toEqual({ name: 'Gate', doorIds: [ID] });
    expect(parseUpdateWebhook({ events: ['booking.created', 'booking.created'] }).events).toEqual(['booking.created']);
    expect(parseListAccessLog({ before: '2026-12-01T10:00:00+01:00' })).toEqual({
      first: 50,
      before: new Date('2026-12-01T09:00:00Z'),
    });
    expect(parseBookingsConnection({ from: '2026-12-01' })).toEqual({
      first: 20,
      after: null,
      key: null,
      filters: { from: new Date('2026-12-01T00:00:00Z') },
    });
  });
});
