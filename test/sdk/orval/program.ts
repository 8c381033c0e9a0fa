// An integrator's program on the client orval generates from Portier's /api/openapi.json
// (`client: 'fetch'`, one file ./generated/portier.ts, with ./fetch.ts as its mutator).
// test/openapi-sdk.test.ts generates it next to a copy of this file, type-checks both with `strict`,
// then runs it against a live server: create → confirm → cancel a booking (reading the status back
// each time), exchange an authorization code for a token and read the booking with it. It prints
// one JSON line.
import { BookingStatus, bookingDetails, createBooking, oauthToken, updateBooking } from './generated/portier.js';
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

configure({ baseUrl: input.baseUrl, token: input.apiKey });
const created = await createBooking(tenantId, {
  objectId: input.objectId,
  guestName: 'Ada Lovelace',
  guestEmail: 'ada@example.com',
  startTime: input.startTime,
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
configure({ baseUrl: input.baseUrl, token: token.access_token });

console.log(
  JSON.stringify({
    statuses,
    refundAmount: cancelled.data.refundAmount,
    token: { type: token.token_type, scope: token.scope, expiresIn: token.expires_in, refresh: !!token.refresh_token },
    readWithToken: await statusOf(booking.id),
  }),
);
