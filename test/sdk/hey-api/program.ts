// An integrator's program on the client @hey-api/openapi-ts generates from Portier's
// /api/openapi.json (its fetch client, @hey-api/client-fetch, written into ./generated/).
// test/openapi-sdk.test.ts generates it next to a copy of this file, type-checks both with `strict`,
// then runs it against a live server: find the slot in availability (its instants, seen in the
// program's own time zone), create → confirm → cancel a booking by them (reading the status back
// each time), walk the day's bookings by cursor, book in the sandbox with a test-mode key, exchange
// an authorization code for a token and read the booking with it. It prints one JSON line.
import {
  bookingDetails,
  bookingPage,
  createBooking,
  oauthToken,
  objectAvailability,
  updateBooking,
} from './generated/index.js';
import type { Booking, OAuthTokenResponse } from './generated/index.js';
import { createClient, createConfig, type Client } from './generated/client/index.js';

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

// `auth` answers the bearer security of every operation that has one; the token endpoint has none.
// Portier-Version pins the API version the program was written against; every answer echoes it.
const PORTIER_VERSION = '2026-12-03';
const api = createClient(
  createConfig({ baseUrl: input.baseUrl, auth: () => input.apiKey, headers: { 'portier-version': PORTIER_VERSION } }),
);

async function statusOf(client: Client, bookingId: string): Promise<Booking['status']> {
  const read = await bookingDetails({ client, path: { tenantId, bookingId }, throwOnError: true });
  return read.data.booking.status;
}

// The day's slots in the program's own zone: the slot's instants are what a booking sends, no
// time-zone arithmetic here.
const date = input.startTime.slice(0, 10);
const availabilityAnswer = await objectAvailability({
  client: api,
  path: { tenantId },
  query: { date, objectId: input.objectId, timeZone: 'America/New_York' },
  throwOnError: true,
});
const availability = availabilityAnswer.data;
const version = availabilityAnswer.response.headers.get('portier-version');
if (!('objects' in availability)) throw new Error('availability: a range answered for one date');
const slot = availability.objects[0]?.slots.find((s) => Date.parse(s.startTime) === Date.parse(input.startTime));
if (!slot?.available) throw new Error(`availability: no free slot at ${input.startTime}`);

// throwOnError: an error answer rejects (with the Problem body) instead of returning { error }.
const created = await createBooking({
  client: api,
  path: { tenantId },
  body: {
    objectId: input.objectId,
    guestName: 'Ada Lovelace',
    guestEmail: 'ada@example.com',
    startTime: slot.startTime,
    endTime: input.endTime,
  },
  throwOnError: true,
});
const booking: Booking = created.data.booking;
const statuses: Booking['status'][] = [booking.status, await statusOf(api, booking.id)];

const path = { tenantId, bookingId: booking.id };
const confirmed = await updateBooking({ client: api, path, body: { status: 'CONFIRMED' }, throwOnError: true });
statuses.push(confirmed.data.booking.status, await statusOf(api, booking.id));

const cancelled = await updateBooking({ client: api, path, body: { status: 'CANCELLED' }, throwOnError: true });
statuses.push(cancelled.data.booking.status, await statusOf(api, booking.id));

// Every booking of the day, one per page, by the cursor each page hands on.
const seen: string[] = [];
let after: string | undefined;
for (let pages = 0; pages < 50; pages += 1) {
  const query = { from: date, objectId: input.objectId, limit: 1, ...(after ? { after } : {}) };
  const page = (await bookingPage({ client: api, path: { tenantId }, query, throwOnError: true })).data;
  seen.push(...page.bookings.map((b) => b.id));
  if (!page.next) break;
  after = page.next;
}

// Test mode: the same create with the sandbox's svc_test_ key and tenant id makes a test-mode
// booking, which the live key cannot read.
const testApi = createClient(
  createConfig({
    baseUrl: input.baseUrl,
    auth: () => input.test.apiKey,
    headers: { 'portier-version': PORTIER_VERSION },
  }),
);
const testBooking = (
  await createBooking({
    client: testApi,
    path: { tenantId: input.test.tenantId },
    body: {
      objectId: input.test.objectId,
      guestName: 'Test Guest',
      guestEmail: 'test@example.com',
      startTime: slot.startTime,
      endTime: input.endTime,
    },
    throwOnError: true,
  })
).data.booking;
const crossed = await bookingDetails({ client: api, path: { tenantId, bookingId: testBooking.id } });
const modes = { live: booking.livemode, test: testBooking.livemode, liveKeyReadsTest: crossed.response.status };

// The generated operation encodes the form body itself; a confidential app signs in with Basic.
const basic = Buffer.from(`${input.oauth.clientId}:${input.oauth.clientSecret}`).toString('base64');
const exchanged = await oauthToken({
  client: api,
  headers: { authorization: `Basic ${basic}` },
  body: {
    grant_type: 'authorization_code',
    code: input.oauth.code,
    redirect_uri: input.oauth.redirectUri,
    code_verifier: input.oauth.verifier,
  },
  throwOnError: true,
});
const token: OAuthTokenResponse = exchanged.data;
const asApp = createClient(createConfig({ baseUrl: input.baseUrl, auth: () => token.access_token }));

console.log(
  JSON.stringify({
    statuses,
    version,
    slot: { callerTimeZone: availability.callerTimeZone, localStart: slot.localStart?.slice(11) },
    modes,
    pagedOnce: seen.filter((id) => id === booking.id).length === 1 && new Set(seen).size === seen.length,
    refundAmount: cancelled.data.refundAmount,
    token: { type: token.token_type, scope: token.scope, expiresIn: token.expires_in, refresh: !!token.refresh_token },
    readWithToken: await statusOf(asApp, booking.id),
  }),
);
