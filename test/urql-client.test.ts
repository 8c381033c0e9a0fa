import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, fetchExchange, gql } from '@urql/core';
import { harness, type Harness } from './harness.js';
import { buildVenue } from './builders.js';
import { ownApp, type OwnApp } from './own-app.js';

// An integrator's GraphQL program on urql (@urql/core, its fetch exchange) against a live server
// (issue #44): it reads a day's availability in its own time zone and books a slot by the slot's
// instants, exactly as they come (no time-zone library on the client); it pins Portier-Version and
// walks bookings by cursor; it makes a test-mode key and works in the venue's sandbox.

let h: Harness;
let own: OwnApp;
let baseUrl: string;

beforeAll(async () => {
  h = await harness();
  own = await ownApp(h);
  await own.app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = own.app.fastify.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening on TCP');
  baseUrl = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await own.close();
});

interface Slot {
  start: string;
  end: string;
  available: boolean;
  startTime: string;
  endTime: string;
  localStart: string | null;
  localEnd: string | null;
}

const AVAILABILITY = gql<
  { availability: { timeZone: string; callerTimeZone: string | null; slots: Slot[] } },
  { date: string; objectId: string; timeZone: string }
>`
  query Availability($date: String!, $objectId: ID!, $timeZone: String) {
    availability(date: $date, objectId: $objectId, timeZone: $timeZone) {
      timeZone
      callerTimeZone
      slots {
        start
        end
        available
        startTime
        endTime
        localStart
        localEnd
      }
    }
  }
`;

const CREATE = gql<
  { createBooking: { booking: { id: string; startTime: string; endTime: string; status: string } } },
  { objectId: string; guestName: string; guestEmail: string; startTime: string; endTime: string }
>`
  mutation Create(
    $objectId: ID!
    $guestName: String!
    $guestEmail: String!
    $startTime: DateTime!
    $endTime: DateTime!
  ) {
    createBooking(
      objectId: $objectId
      guestName: $guestName
      guestEmail: $guestEmail
      startTime: $startTime
      endTime: $endTime
    ) {
      booking {
        id
        startTime
        endTime
        status
      }
    }
  }
`;

const PAGE = gql<
  { bookingPage: { bookings: { id: string }[]; next: string | null } },
  { objectId: string; after?: string; limit: number }
>`
  query Page($objectId: ID!, $after: String, $limit: Int) {
    bookingPage(objectId: $objectId, after: $after, limit: $limit) {
      bookings {
        id
      }
      next
    }
  }
`;

/** The Portier-Version of each answer the client got. */
const versions: (string | null)[] = [];

/** urql's client with the key and the API version it was written against pinned on every request. */
function client(apiKey: string, version = '2026-12-03'): Client {
  return new Client({
    url: `${baseUrl}/api/v1/graphql`,
    exchanges: [fetchExchange],
    requestPolicy: 'network-only',
    fetchOptions: () => ({ headers: { authorization: `Bearer ${apiKey}`, 'portier-version': version } }),
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      versions.push(res.headers.get('portier-version'));
      return res;
    },
  });
}

describe('an urql program', () => {
  it('books a slot by the instants availability gives, seeing it in its own time zone', async () => {
    const venue = await buildVenue(h);
    const api = client(venue.apiKey);
    const day = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
    const read = await api
      .query(AVAILABILITY, { date: day, objectId: venue.object.id, timeZone: 'America/New_York' })
      .toPromise();
    expect(read.error).toBeUndefined();
    const availability = read.data?.availability;
    expect(availability?.timeZone).toBe('Europe/Berlin');
    expect(availability?.callerTimeZone).toBe('America/New_York');
    const slot = availability?.slots.find((s) => s.available && s.start === '10:00');
    if (!slot) throw new Error(`no free 10:00 slot on ${day}`);
    // 10:00 in Berlin is 03:00–05:00 in New York, whatever either side's daylight-saving time; the
    // local form and the instant are the same moment.
    expect(slot.localStart).toMatch(new RegExp(`^${day}T0[345]:00:00-0[45]:00$`));
    expect(Date.parse(slot.localStart ?? '')).toBe(Date.parse(slot.startTime));
    expect(Date.parse(slot.endTime) - Date.parse(slot.startTime)).toBeGreaterThan(0);

    const created = await api
      .mutation(CREATE, {
        objectId: venue.object.id,
        guestName: 'Ada Lovelace',
        guestEmail: 'ada@example.com',
        startTime: slot.startTime,
        endTime: slot.endTime,
      })
      .toPromise();
    expect(created.error).toBeUndefined();
    const booking = created.data?.createBooking.booking;
    expect(booking && Date.parse(booking.startTime)).toBe(Date.parse(slot.startTime));
    expect(booking && Date.parse(booking.endTime)).toBe(Date.parse(slot.endTime));

    const again = await api
      .query(AVAILABILITY, { date: day, objectId: venue.object.id, timeZone: 'America/New_York' })
      .toPromise();
    expect(again.data?.availability.slots.find((s) => s.startTime === slot.startTime)?.available).toBe(false);
  });

  it('pins the API version (echoed on every answer) and walks the bookings by cursor', async () => {
    const venue = await buildVenue(h);
    const api = client(venue.apiKey);
    const day = new Date(Date.now() + 13 * 86_400_000).toISOString().slice(0, 10);
    const ids: string[] = [];
    for (const hour of [10, 12, 14]) {
      const made = await api
        .mutation(CREATE, {
          objectId: venue.object.id,
          guestName: `Guest ${hour}`,
          guestEmail: `guest${hour}@example.com`,
          startTime: `${day}T${hour}:00:00Z`,
          endTime: `${day}T${hour + 1}:00:00Z`,
        })
        .toPromise();
      expect(made.error).toBeUndefined();
      ids.push(made.data?.createBooking.booking.id ?? '');
    }
    versions.length = 0;
    const seen: string[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 10; pages += 1) {
      const page = await api.query(PAGE, { objectId: venue.object.id, limit: 1, after }).toPromise();
      expect(page.error).toBeUndefined();
      seen.push(...(page.data?.bookingPage.bookings.map((b) => b.id) ?? []));
      const next = page.data?.bookingPage.next;
      if (!next) break;
      after = next;
    }
    expect(seen).toEqual(ids);
    expect(versions.length).toBeGreaterThanOrEqual(3);
    expect(new Set(versions)).toEqual(new Set(['2026-12-03']));

    // A version that was never released is an error naming the header, not another version's answer.
    const refused = await client(venue.apiKey, '2020-01-01')
      .query(PAGE, { objectId: venue.object.id, limit: 1 })
      .toPromise();
    expect(refused.data).toBeUndefined();
    expect(refused.error?.message).toContain('Portier-Version');
  });

  it('makes a test-mode key and works in the sandbox: its bookings say livemode false, and the live key never sees them', async () => {
    const venue = await buildVenue(h);
    const live = client(venue.apiKey);
    const made = await live
      .mutation(
        gql<{ createApiKey: { apiKey: string; apiKeyInfo: { livemode: boolean } } }>`
          mutation {
            createApiKey(name: "urql test mode", scopes: ["admin"], livemode: false) {
              apiKey
              apiKeyInfo {
                livemode
              }
            }
          }
        `,
        {},
      )
      .toPromise();
    expect(made.error).toBeUndefined();
    const testKey = made.data?.createApiKey.apiKey ?? '';
    expect(testKey).toMatch(/^svc_test_/);
    expect(made.data?.createApiKey.apiKeyInfo.livemode).toBe(false);
    const test = client(testKey);
    const viewer = await test
      .query(
        gql<{ viewer: { id: string; livemode: boolean; liveTenantId: string | null } }>`
          query {
            viewer {
              id
              livemode
              liveTenantId
            }
          }
        `,
        {},
      )
      .toPromise();
    expect(viewer.data?.viewer).toMatchObject({ livemode: false, liveTenantId: venue.tenantId });
    // The sandbox starts empty; its catalog is made with the test key's tenant.
    const sandbox = await buildVenue(h, { tenant: { tenantId: viewer.data?.viewer.id ?? '', apiKey: testKey } });
    const day = new Date(Date.now() + 15 * 86_400_000).toISOString().slice(0, 10);
    const booked = await test
      .mutation(CREATE, {
        objectId: sandbox.object.id,
        guestName: 'Test Guest',
        guestEmail: 'test@example.com',
        startTime: `${day}T10:00:00Z`,
        endTime: `${day}T11:00:00Z`,
      })
      .toPromise();
    expect(booked.error).toBeUndefined();
    const listed = await test
      .query(
        gql<{ bookings: { id: string; livemode: boolean }[] }>`
          query {
            bookings(first: 10) {
              id
              livemode
            }
          }
        `,
        {},
      )
      .toPromise();
    expect(listed.data?.bookings).toEqual([{ id: booked.data?.createBooking.booking.id, livemode: false }]);
    const seenLive = await live.query(PAGE, { objectId: sandbox.object.id, limit: 10 }).toPromise();
    expect(seenLive.error).toBeUndefined();
    expect(seenLive.data?.bookingPage.bookings).toEqual([]);
  });
});
