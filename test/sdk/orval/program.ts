// An integrator's program on the client orval generates from Portier's /api/openapi.json
// (`client: 'fetch'`, one file ./generated/portier.ts, with ./fetch.ts as its mutator).
// test/openapi-sdk.test.ts generates it next to a copy of this file, type-checks both with `strict`,
// then runs it against a live server: find the slot in availability (its instants, seen in the
// program's own time zone), create → confirm → cancel a booking by them (reading the status back
// each time), walk the day's bookings by cursor, book in the sandbox with a test-mode key, exchange
// an authorization code for a token and read the booking with it. It prints one JSON line.
import {
  BookingStatus,
  bookingDetails,
  bookingPage,
  createBooking,
  oauthToken,
  objectAvailability,
  updateBooking,
} from './generated/portier.js';
import type { Booking, OAuthTokenResponse } from './generated/portier.js';
import { configure } from './fetch.js';

interface Input {
  baseUrl: string;
  apiKey: string;
  tenantId: string;
  objectId: string;
  startTime: string;
  endTime: string;
  oauth: { clientId: string; clientSecret: string; code: string; verifier: string; redirectUri: string };
  /** The venue's sandbox: a svc_test_ key, its tenant id and an object of its own. */
  test: { apiKey: string; tenantId: string; objectId: string };
}
const input = JSON.parse(process.argv[2] ?? '') as Input;
const { tenantId } = input;

/** orval answers every documented status as a value: anything but the success is an error here. */
function failed(what: string, res: { status: number; data: unknown }): Error {
  return new Error(`${what}: ${res.status} ${JSON.stringify(res.data)}`);
}

async function statusOf(bookingId: string): Promise<BookingStatus> {
  const read = await bookingDetails(tenantId, bookingId);
  if (read.status !== 200) throw failed('get', read);
  return read.data.booking.status;
}

// Portier-Version pins the API version the program was written against; every answer echoes it.
const PORTIER_VERSION = '2026-12-03';
configure({ baseUrl: input.baseUrl, token: input.apiKey, version: PORTIER_VERSION });

// The day's slots in the program's own zone: the slot's instants are what a booking sends, no
// time-zone arithmetic here.
const date = input.startTime.slice(0, 10);
const read = await objectAvailability(tenantId, { date, objectId: input.objectId, timeZone: 'America/New_York' });
if (read.status !== 200) throw failed('availability', read);
const availability = read.data;
const version = read.headers.get('portier-version');
if (!('objects' in availability)) throw new Error('availability: a range answered for one date');
const slot = availability.objects[0]?.slots.find((s) => Date.parse(s.startTime) === Date.parse(input.startTime));
if (!slot?.available) throw new Error(`availability: no free slot at ${input.startTime}`);

const created = await createBooking(tenantId, {
  objectId: input.objectId,
  guestName: 'Ada Lovelace',
  guestEmail: 'ada@example.com',
  startTime: slot.startTime,
  endTime: input.endTime,
});
if (created.status !== 201) throw failed('create', created);
const booking: Booking = created.data.booking;
const statuses: BookingStatus[] = [booking.status, await statusOf(booking.id)];

const confirmed = await updateBooking(tenantId, booking.id, { status: BookingStatus.CONFIRMED });
if (confirmed.status !== 200) throw failed('confirm', confirmed);
statuses.push(confirmed.data.booking.status, await statusOf(booking.id));

const cancelled = await updateBooking(tenantId, booking.id, { status: BookingStatus.CANCELLED });
if (cancelled.status !== 200) throw failed('cancel', cancelled);
statuses.push(cancelled.data.booking.status, await statusOf(booking.id));

// Every booking of the day, one per page, by the cursor each page hands on.
const seen: string[] = [];
let after: string | undefined;
for (let pages = 0; pages < 50; pages += 1) {
  const page = await bookingPage(tenantId, {
    from: date,
    objectId: input.objectId,
    limit: 1,
    ...(after ? { after } : {}),
  });
  if (page.status !== 200) throw failed('page', page);
  seen.push(...page.data.bookings.map((b) => b.id));
  if (!page.data.next) break;
  after = page.data.next;
}

// Test mode: the same create with the sandbox's svc_test_ key and tenant id makes a test-mode
// booking, which the live key cannot read.
configure({ baseUrl: input.baseUrl, token: input.test.apiKey, version: PORTIER_VERSION });
const testCreated = await createBooking(input.test.tenantId, {
  objectId: input.test.objectId,
  guestName: 'Test Guest',
  guestEmail: 'test@example.com',
  startTime: slot.startTime,
  endTime: input.endTime,
});
if (testCreated.status !== 201) throw failed('test create', testCreated);
const testBooking = testCreated.data.booking;
configure({ baseUrl: input.baseUrl, token: input.apiKey, version: PORTIER_VERSION });
const crossed = await bookingDetails(tenantId, testBooking.id);
const modes = { live: booking.livemode, test: testBooking.livemode, liveKeyReadsTest: crossed.status };

// The generated operation encodes the form body itself; a confidential app signs in with Basic.
const basic = Buffer.from(`${input.oauth.clientId}:${input.oauth.clientSecret}`).toString('base64');
const exchanged = await oauthToken(
  {
    grant_type: 'authorization_code',
    code: input.oauth.code,
    redirect_uri: input.oauth.redirectUri,
    code_verifier: input.oauth.verifier,
  },
  { headers: { authorization: `Basic ${basic}` } },
);
if (exchanged.status !== 200) throw failed('token', exchanged);
const token: OAuthTokenResponse = exchanged.data;
configure({ baseUrl: input.baseUrl, token: token.access_token, version: PORTIER_VERSION });

console.log(
  JSON.stringify({
    statuses,
    version,
    slot: { callerTimeZone: availability.callerTimeZone, localStart: slot.localStart?.slice(11) },
    modes,
    pagedOnce: seen.filter((id) => id === booking.id).length === 1 && new Set(seen).size === seen.length,
    refundAmount: cancelled.data.refundAmount,
    token: { type: token.token_type, scope: token.scope, expiresIn: token.expires_in, refresh: !!token.refresh_token },
    readWithToken: await statusOf(booking.id),
  }),
);
