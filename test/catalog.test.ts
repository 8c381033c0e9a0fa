import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildBooking, buildVenue } from './builders.js';
import { createAccommodation, createObject } from '../src/modules/catalog/catalog.service.js';
import { parseCreateAccommodation, parseCreateObject } from '../src/modules/catalog/catalog.commands.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

describe('opening hours and booking rules over REST', () => {
  it('returns the contract shape of opening hours with special dates', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h, {
      openingHours: { monday: { open: '08:00', close: '22:00' } },
    });
    const set = await h.graphql(
      apiKey,
      `mutation($o: ID!) { setSpecialDate(objectId: $o, date: "2026-12-24", closed: true, reason: "Christmas Eve") { specialDates { date } } }`,
      {
        o: object.id,
      },
    );
    expect(set.body.errors).toBeUndefined();
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${tenantId}/objects/${object.id}/opening-hours`,
      apiKey,
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['schedule', 'specialDates', 'timeZone']);
    expect(res.body.timeZone).toBe('Europe/Berlin');
    expect(res.body.schedule.monday).toEqual({ open: '08:00', close: '22:00' });
    expect(res.body.schedule.tuesday).toBeNull();
    expect(Object.keys(res.body.schedule).sort()).toEqual([
      'friday',
      'monday',
      'saturday',
      'sunday',
      'thursday',
      'tuesday',
      'wednesday',
    ]);
    expect(res.body.specialDates).toEqual([
      { date: '2026-12-24', closed: true, reason: 'Christmas Eve', open: null, close: null },
    ]);
  });

  it('returns booking rules with defaults', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h, { bookingRules: { bufferMinutes: 15 } });
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${tenantId}/objects/${object.id}/booking-rules`,
      apiKey,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      timeZone: 'Europe/Berlin',
      minDurationMinutes: 60,
      maxDurationMinutes: 240,
      slotIncrementMinutes: 60,
      minAdvanceMinutes: 0,
      maxAdvanceDays: 365,
      bufferMinutes: 15,
    });
  });
});

describe('the time zone on opening hours and booking rules', () => {
  it('follows the accommodation: REST and GraphQL give the same zone, and a changed zone shows at once', async () => {
    const { tenantId, apiKey, accommodation, object } = await buildVenue(h, { timeZone: 'America/New_York' });
    const rest = (path: string) =>
      h.request({ method: 'GET', url: `/api/v1/tenants/${tenantId}/objects/${object.id}/${path}`, apiKey });
    expect((await rest('opening-hours')).body.timeZone).toBe('America/New_York');
    expect((await rest('booking-rules')).body.timeZone).toBe('America/New_York');
    const query = `query($o: ID!) {
      openingHours(objectId: $o) { timeZone }
      bookingRules(objectId: $o) { timeZone }
      bookableObject(id: $o) { timeZone openingHours { timeZone } bookingRules { timeZone } }
    }`;
    const gql = await h.graphql(apiKey, query, { o: object.id });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data).toEqual({
      openingHours: { timeZone: 'America/New_York' },
      bookingRules: { timeZone: 'America/New_York' },
      bookableObject: {
        timeZone: 'America/New_York',
        openingHours: { timeZone: 'America/New_York' },
        bookingRules: { timeZone: 'America/New_York' },
      },
    });
    // A booking's object carries the zone too (the bookings list's one-statement plan joins the accommodation).
    await buildBooking(h, tenantId, object.id, { start: '2027-01-05T15:00:00Z', end: '2027-01-05T16:00:00Z' });
    const booked = await h.graphql(apiKey, '{ bookings(first: 5) { object { id timeZone } } }');
    expect(booked.body.data.bookings).toEqual([{ object: { id: object.id, timeZone: 'America/New_York' } }]);
    const moved = await h.graphql(
      apiKey,
      `mutation($id: ID!) { updateAccommodation(id: $id, timeZone: "Asia/Tokyo") { timeZone } }`,
      { id: accommodation.id },
    );
    expect(moved.body.errors).toBeUndefined();
    expect((await rest('opening-hours')).body.timeZone).toBe('Asia/Tokyo');
    expect((await rest('booking-rules')).body.timeZone).toBe('Asia/Tokyo');
    const writes = await h.graphql(
      apiKey,
      `mutation($o: ID!) {
        setBookingRules(objectId: $o, rules: { bufferMinutes: 5 }) { timeZone bufferMinutes }
        setOpeningHours(objectId: $o, schedule: { monday: { open: "09:00", close: "17:00" } }) { timeZone }
      }`,
      { o: object.id },
    );
    expect(writes.body.errors).toBeUndefined();
    expect(writes.body.data).toEqual({
      setBookingRules: { timeZone: 'Asia/Tokyo', bufferMinutes: 5 },
      setOpeningHours: { timeZone: 'Asia/Tokyo' },
    });
  });
});

describe('GET /objects', () => {
  const list = (tenantId: string, apiKey: string, query = '') =>
    h.request({ method: 'GET', url: `/api/v1/tenants/${tenantId}/objects${query ? `?${query}` : ''}`, apiKey });

  it("lists the tenant's objects by name, each with its fields, accommodation id and time zone", async () => {
    const v = await buildVenue(h, { objects: 2, timeZone: 'Europe/Berlin' });
    const db = h.deps.database.db;
    const lisbon = await createAccommodation(
      db,
      v.tenantId,
      parseCreateAccommodation({ name: 'Praia', address: 'Rua 1, Lisboa', timeZone: 'Europe/Lisbon' }),
    );
    const boat = await createObject(
      db,
      v.tenantId,
      parseCreateObject({ accommodationId: lisbon.id, name: 'Boat', pricePerHour: 5000 }),
    );
    await buildVenue(h); // another tenant's objects stay out
    const res = await list(v.tenantId, v.apiKey);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['next', 'objects', 'pagination']);
    expect(res.body.pagination).toEqual({ page: 1, pageSize: 20, total: 3 });
    expect(
      res.body.objects.map((o: { id: string; name: string; accommodationId: string; timeZone: string }) => [
        o.id,
        o.name,
        o.accommodationId,
        o.timeZone,
      ]),
    ).toEqual([
      [boat.id, 'Boat', lisbon.id, 'Europe/Lisbon'],
      [v.objects[0].id, 'Court 1', v.accommodation.id, 'Europe/Berlin'],
      [v.objects[1].id, 'Court 2', v.accommodation.id, 'Europe/Berlin'],
    ]);
    const court = res.body.objects[1];
    expect(Object.keys(court).sort()).toEqual([
      'accommodation',
      'accommodationId',
      'bookingRules',
      'createdAt',
      'id',
      'livemode',
      'metadata',
      'name',
      'openingHours',
      'pricePerHour',
      'published',
      'timeZone',
      'updatedAt',
    ]);
    expect(court).toMatchObject({
      livemode: true,
      pricePerHour: 2000,
      accommodation: { id: v.accommodation.id },
      openingHours: { timeZone: 'Europe/Berlin', schedule: { monday: { open: '08:00', close: '22:00' } } },
      bookingRules: { timeZone: 'Europe/Berlin', minDurationMinutes: 60 },
    });
    // The same objects over GraphQL (the public bookableObjects query) carry the same zones.
    const gql = await h.graphql(v.apiKey, '{ bookableObjects { id timeZone accommodationId } }');
    expect(gql.body.data.bookableObjects).toEqual(
      res.body.objects.map((o: { id: string; timeZone: string; accommodationId: string }) => ({
        id: o.id,
        timeZone: o.timeZone,
        accommodationId: o.accommodationId,
      })),
    );
  });

  it('pages with page and pageSize, and filters by accommodation', async () => {
    const v = await buildVenue(h, { objects: 5 });
    const other = await createAccommodation(
      h.deps.database.db,
      v.tenantId,
      parseCreateAccommodation({ name: 'Annex', address: 'Weg 2', timeZone: 'Europe/Berlin' }),
    );
    await createObject(
      h.deps.database.db,
      v.tenantId,
      parseCreateObject({ accommodationId: other.id, name: 'Annex 1', pricePerHour: 100 }),
    );
    const names = (res: { body: { objects: { name: string }[] } }) => res.body.objects.map((o) => o.name);
    const first = await list(v.tenantId, v.apiKey, 'pageSize=2');
    expect(names(first)).toEqual(['Annex 1', 'Court 1']);
    expect(first.body.pagination).toEqual({ page: 1, pageSize: 2, total: 6 });
    const third = await list(v.tenantId, v.apiKey, 'pageSize=2&page=3');
    expect(names(third)).toEqual(['Court 4', 'Court 5']);
    const past = await list(v.tenantId, v.apiKey, 'pageSize=2&page=9');
    expect(past.body).toEqual({ objects: [], pagination: { page: 9, pageSize: 2, total: 6 }, next: null });
    const annex = await list(v.tenantId, v.apiKey, `accommodationId=${other.id}`);
    expect(names(annex)).toEqual(['Annex 1']);
    expect(annex.body.pagination.total).toBe(1);
    const none = await list(v.tenantId, v.apiKey, 'accommodationId=00000000-0000-4000-8000-000000000000');
    expect(none.body).toEqual({ objects: [], pagination: { page: 1, pageSize: 20, total: 0 }, next: null });
  });

  it('refuses bad paging and ids naming the field, another tenant, and keys without catalog:read', async () => {
    const v = await buildVenue(h);
    const other = await buildVenue(h);
    for (const [query, field] of [
      ['pageSize=0', 'pageSize'],
      ['pageSize=101', 'pageSize'],
      ['page=0', 'page'],
      ['page=x', 'page'],
      ['accommodationId=park', 'accommodationId'],
    ]) {
      const res = await list(v.tenantId, v.apiKey, query);
      expect(res.status, query).toBe(400);
      expect(res.body.errors, query).toEqual([expect.objectContaining({ field })]);
    }
    expect((await list(other.tenantId, v.apiKey)).status).toBe(403);
    expect((await list(v.tenantId, await h.key(v.tenantId, ['bookings:read']))).status).toBe(403);
    expect((await list(v.tenantId, await h.key(v.tenantId, ['catalog:read']))).status).toBe(200);
  });
});
