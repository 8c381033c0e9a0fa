import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildDoor, buildVenue } from './builders.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

/** The data of a GraphQL call that must succeed. */
async function ok(apiKey: string, query: string, variables?: Record<string, unknown>) {
  const res = await h.graphql(apiKey, query, variables);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The one error of a GraphQL call that must fail. */
async function fails(apiKey: string, query: string, variables?: Record<string, unknown>) {
  const res = await h.graphql(apiKey, query, variables);
  expect(res.body.errors, JSON.stringify(res.body)).toHaveLength(1);
  return { status: res.status, error: res.body.errors[0], data: res.body.data };
}

const fieldsOf = (error: { extensions: { fields?: { field: string }[] } }) =>
  (error.extensions.fields ?? []).map((f) => f.field);

describe('accommodations', () => {
  it('creates, reads, updates and deletes an accommodation', async () => {
    const { apiKey } = await h.tenant();
    const created = await ok(
      apiKey,
      `mutation { createAccommodation(name: " Sportpark Nord ", address: "Hauptstrasse 1, 10115 Berlin", timeZone: "Europe/Berlin") { id name address timeZone objects { id } createdAt } }`,
    );
    const a = created.createAccommodation;
    expect(a).toMatchObject({
      name: 'Sportpark Nord',
      address: 'Hauptstrasse 1, 10115 Berlin',
      timeZone: 'Europe/Berlin',
      objects: [],
    });
    expect(new Date(a.createdAt).toISOString()).toBe(a.createdAt);

    const updated = await ok(
      apiKey,
      `mutation($id: ID!) { updateAccommodation(id: $id, name: "Sportpark Süd", timeZone: "Europe/Vienna") { name address timeZone } }`,
      {
        id: a.id,
      },
    );
    expect(updated.updateAccommodation).toEqual({
      name: 'Sportpark Süd',
      address: 'Hauptstrasse 1, 10115 Berlin',
      timeZone: 'Europe/Vienna',
    });

    const read = await ok(apiKey, `query($id: ID!) { accommodation(id: $id) { name } accommodations { id } }`, {
      id: a.id,
    });
    expect(read.accommodation.name).toBe('Sportpark Süd');
    expect(read.accommodations).toEqual([{ id: a.id }]);

    expect(
      (await ok(apiKey, `mutation($id: ID!) { deleteAccommodation(id: $id) }`, { id: a.id })).deleteAccommodation,
    ).toBe(true);
    const gone = await fails(apiKey, `query($id: ID!) { accommodation(id: $id) { id } }`, { id: a.id });
    expect(gone.status).toBe(200);
    expect(gone.error.extensions.code).toBe('NOT_FOUND');
  });

  it('deleting an accommodation deletes its objects', async () => {
    const { apiKey, accommodation, object } = await buildVenue(h, { objects: 2 });
    await ok(apiKey, `mutation($id: ID!) { deleteAccommodation(id: $id) }`, { id: accommodation.id });
    const res = await fails(apiKey, `query($id: ID!) { bookableObject(id: $id) { id } }`, { id: object.id });
    expect(res.error.extensions.code).toBe('NOT_FOUND');
  });

  it.each([
    ['an unknown time zone', { timeZone: 'Mars/Olympus_Mons' }, ['timeZone']],
    ['an empty name', { name: '  ' }, ['name']],
    ['an empty address and a bad zone', { address: '', timeZone: 'CEST' }, ['address', 'timeZone']],
  ])('refuses %s, naming the field', async (_, override, fields) => {
    const { apiKey } = await h.tenant();
    const vars = { name: 'Park', address: 'Street 1', timeZone: 'Europe/Berlin', ...override };
    const res = await fails(
      apiKey,
      `mutation($name: String!, $address: String!, $timeZone: String!) { createAccommodation(name: $name, address: $address, timeZone: $timeZone) { id } }`,
      vars,
    );
    expect(res.status).toBe(200);
    expect(res.error.extensions.code).toBe('BAD_USER_INPUT');
    expect(fieldsOf(res.error)).toEqual(fields);
    for (const field of fields) expect(res.error.message).toContain(field);
  });

  it('refuses a bad time zone on update and leaves the accommodation unchanged', async () => {
    const { apiKey, accommodation } = await buildVenue(h);
    const res = await fails(
      apiKey,
      `mutation($id: ID!) { updateAccommodation(id: $id, timeZone: "Europe/Atlantis") { id } }`,
      { id: accommodation.id },
    );
    expect(fieldsOf(res.error)).toEqual(['timeZone']);
    const read = await ok(apiKey, `query($id: ID!) { accommodation(id: $id) { timeZone } }`, { id: accommodation.id });
    expect(read.accommodation.timeZone).toBe('Europe/Berlin');
  });
});

describe('objects', () => {
  it('creates, reads, updates and deletes an object', async () => {
    const { apiKey, accommodation } = await buildVenue(h, { objects: 0 });
    const created = await ok(
      apiKey,
      `mutation($a: ID!) { createObject(accommodationId: $a, name: "Court 1", pricePerHour: 2000,
          openingHours: { monday: { open: "08:00", close: "22:00" }, saturday: { open: "10:00", close: "24:00" } },
          bookingRules: { bufferMinutes: 10 }) {
        id name pricePerHour accommodationId accommodation { id name address }
        openingHours { schedule { monday { open close } tuesday { open close } saturday { open close } } specialDates { date } }
        bookingRules { minDurationMinutes maxDurationMinutes slotIncrementMinutes minAdvanceMinutes maxAdvanceDays bufferMinutes } } }`,
      { a: accommodation.id },
    );
    const o = created.createObject;
    expect(o).toMatchObject({
      name: 'Court 1',
      pricePerHour: 2000,
      accommodationId: accommodation.id,
      accommodation: { id: accommodation.id, name: 'Sportpark Test', address: 'Teststrasse 1, 10115 Berlin' },
      openingHours: {
        schedule: {
          monday: { open: '08:00', close: '22:00' },
          tuesday: null,
          saturday: { open: '10:00', close: '24:00' },
        },
        specialDates: [],
      },
      bookingRules: {
        minDurationMinutes: 60,
        maxDurationMinutes: 240,
        slotIncrementMinutes: 60,
        minAdvanceMinutes: 0,
        maxAdvanceDays: 365,
        bufferMinutes: 10,
      },
    });

    const updated = await ok(
      apiKey,
      `mutation($id: ID!) { updateObject(id: $id, name: "Centre Court", pricePerHour: 2500) { name pricePerHour } }`,
      { id: o.id },
    );
    expect(updated.updateObject).toEqual({ name: 'Centre Court', pricePerHour: 2500 });

    const listed = await ok(
      apiKey,
      `query($a: ID!) { bookableObjects(accommodationId: $a) { id name } accommodation(id: $a) { objects { id } } }`,
      { a: accommodation.id },
    );
    expect(listed.bookableObjects).toEqual([{ id: o.id, name: 'Centre Court' }]);
    expect(listed.accommodation.objects).toEqual([{ id: o.id }]);

    expect((await ok(apiKey, `mutation($id: ID!) { deleteObject(id: $id) }`, { id: o.id })).deleteObject).toBe(true);
    expect((await ok(apiKey, `{ bookableObjects { id } }`)).bookableObjects).toEqual([]);
  });

  it('lists objects of several accommodations with their accommodation', async () => {
    const { tenantId, apiKey, accommodation } = await buildVenue(h, { objects: 2 });
    const other = await ok(
      apiKey,
      `mutation { createAccommodation(name: "Halle", address: "Weg 2", timeZone: "Europe/Berlin") { id } }`,
    );
    await ok(
      apiKey,
      `mutation($a: ID!) { createObject(accommodationId: $a, name: "Hall A", pricePerHour: 0) { id } }`,
      { a: other.createAccommodation.id },
    );
    const data = await ok(apiKey, `query($t: ID) { bookableObjects(tenantId: $t) { name accommodation { id } } }`, {
      t: tenantId,
    });
    expect(data.bookableObjects.map((o: { name: string }) => o.name)).toEqual(['Court 1', 'Court 2', 'Hall A']);
    expect(data.bookableObjects[0].accommodation.id).toBe(accommodation.id);
    expect(data.bookableObjects[2].accommodation.id).toBe(other.createAccommodation.id);
  });

  it.each([
    ['a bad HH:MM', { openingHours: { monday: { open: '8am', close: '22:00' } } }, ['openingHours.monday.open']],
    [
      'close before open',
      { openingHours: { friday: { open: '22:00', close: '08:00' } } },
      ['openingHours.friday.close'],
    ],
    [
      'min > max duration',
      { bookingRules: { minDurationMinutes: 180, maxDurationMinutes: 120 } },
      ['bookingRules.maxDurationMinutes'],
    ],
    ['a negative price', { pricePerHour: -1 }, ['pricePerHour']],
    [
      'a slot increment out of range',
      { bookingRules: { slotIncrementMinutes: 2 } },
      ['bookingRules.slotIncrementMinutes'],
    ],
  ])('refuses %s on creation, naming the field', async (_, override, fields) => {
    const { apiKey, accommodation } = await buildVenue(h, { objects: 0 });
    const vars = {
      a: accommodation.id,
      name: 'Court',
      price: 1000,
      hours: null,
      rules: null,
      ...renameObjectVars(override),
    };
    const res = await fails(
      apiKey,
      `mutation($a: ID!, $name: String!, $price: Int!, $hours: WeeklyScheduleInput, $rules: BookingRulesInput) {
        createObject(accommodationId: $a, name: $name, pricePerHour: $price, openingHours: $hours, bookingRules: $rules) { id } }`,
      vars,
    );
    expect(res.status).toBe(200);
    expect(res.error.extensions.code).toBe('BAD_USER_INPUT');
    expect(fieldsOf(res.error)).toEqual(fields);
    expect((await ok(apiKey, `{ bookableObjects { id } }`)).bookableObjects).toEqual([]);
  });

  it("refuses an object in another tenant's accommodation as not found", async () => {
    const mine = await h.tenant();
    const theirs = await buildVenue(h);
    const res = await fails(
      mine.apiKey,
      `mutation($a: ID!) { createObject(accommodationId: $a, name: "Sneaky", pricePerHour: 0) { id } }`,
      { a: theirs.accommodation.id },
    );
    expect(res.status).toBe(200);
    expect(res.error.extensions.code).toBe('NOT_FOUND');
  });
});

function renameObjectVars(override: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  if ('openingHours' in override) out.hours = override.openingHours;
  if ('bookingRules' in override) out.rules = override.bookingRules;
  if ('pricePerHour' in override) out.price = override.pricePerHour;
  return out;
}

describe('opening hours and special dates', () => {
  it('setOpeningHours replaces the week; a weekday left out is closed', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    const data = await ok(
      apiKey,
      `mutation($o: ID!) { setOpeningHours(objectId: $o, schedule: { tuesday: { open: "09:00", close: "17:30" }, sunday: null }) { schedule { monday { open } tuesday { open close } sunday { open } } } }`,
      { o: object.id },
    );
    expect(data.setOpeningHours.schedule).toEqual({
      monday: null,
      tuesday: { open: '09:00', close: '17:30' },
      sunday: null,
    });
    const rest = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${tenantId}/objects/${object.id}/opening-hours`,
      apiKey,
    });
    expect(rest.body.schedule).toEqual({
      monday: null,
      tuesday: { open: '09:00', close: '17:30' },
      wednesday: null,
      thursday: null,
      friday: null,
      saturday: null,
      sunday: null,
    });
  });

  it.each([
    ['a bad HH:MM', { monday: { open: '08:00', close: '25:00' } }, ['schedule.monday.close']],
    ['close before open', { monday: { open: '12:00', close: '11:59' } }, ['schedule.monday.close']],
    ['close equal to open', { sunday: { open: '12:00', close: '12:00' } }, ['schedule.sunday.close']],
  ])('setOpeningHours refuses %s and keeps the old hours', async (_, schedule, fields) => {
    const { apiKey, object } = await buildVenue(h);
    const res = await fails(
      apiKey,
      `mutation($o: ID!, $s: WeeklyScheduleInput!) { setOpeningHours(objectId: $o, schedule: $s) { schedule { monday { open } } } }`,
      {
        o: object.id,
        s: schedule,
      },
    );
    expect(res.status).toBe(200);
    expect(fieldsOf(res.error)).toEqual(fields);
    const read = await ok(
      apiKey,
      `query($o: ID!) { openingHours(objectId: $o) { schedule { monday { open close } } } }`,
      { o: object.id },
    );
    expect(read.openingHours.schedule.monday).toEqual({ open: '08:00', close: '22:00' });
  });

  it('sets, replaces and removes special dates, sorted by date', async () => {
    const { apiKey, object } = await buildVenue(h);
    const set = `mutation($o: ID!, $d: String!, $c: Boolean!, $r: String, $open: String, $close: String) {
      setSpecialDate(objectId: $o, date: $d, closed: $c, reason: $r, open: $open, close: $close) { specialDates { date closed reason open close } } }`;
    await ok(apiKey, set, {
      o: object.id,
      d: '2026-12-31',
      c: false,
      r: 'New Year’s Eve',
      open: '10:00',
      close: '16:00',
    });
    const both = await ok(apiKey, set, { o: object.id, d: '2026-12-24', c: true, r: 'Christmas Eve' });
    expect(both.setSpecialDate.specialDates).toEqual([
      { date: '2026-12-24', closed: true, reason: 'Christmas Eve', open: null, close: null },
      { date: '2026-12-31', closed: false, reason: 'New Year’s Eve', open: '10:00', close: '16:00' },
    ]);
    const replaced = await ok(apiKey, set, { o: object.id, d: '2026-12-24', c: false, r: 'Open after all' });
    expect(replaced.setSpecialDate.specialDates[0]).toEqual({
      date: '2026-12-24',
      closed: false,
      reason: 'Open after all',
      open: null,
      close: null,
    });

    const removed = await ok(
      apiKey,
      `mutation($o: ID!) { removeSpecialDate(objectId: $o, date: "2026-12-31") { specialDates { date } } }`,
      { o: object.id },
    );
    expect(removed.removeSpecialDate.specialDates).toEqual([{ date: '2026-12-24' }]);
    const again = await fails(
      apiKey,
      `mutation($o: ID!) { removeSpecialDate(objectId: $o, date: "2026-12-31") { specialDates { date } } }`,
      { o: object.id },
    );
    expect(again.status).toBe(200);
    expect(again.error.extensions.code).toBe('NOT_FOUND');
  });

  it.each([
    ['a bad date', { d: '2026-02-30', c: true }, ['date']],
    ['a bad HH:MM', { d: '2026-12-31', c: false, open: '10:00', close: '4pm' }, ['close']],
    ['close before open', { d: '2026-12-31', c: false, open: '16:00', close: '10:00' }, ['close']],
    ['an open without a close', { d: '2026-12-31', c: false, open: '10:00' }, ['close']],
    ['hours on a closed date', { d: '2026-12-31', c: true, close: '16:00' }, ['close']],
  ])('setSpecialDate refuses %s, naming the field', async (_, vars, fields) => {
    const { apiKey, object } = await buildVenue(h);
    const res = await fails(
      apiKey,
      `mutation($o: ID!, $d: String!, $c: Boolean!, $open: String, $close: String) { setSpecialDate(objectId: $o, date: $d, closed: $c, open: $open, close: $close) { specialDates { date } } }`,
      { o: object.id, ...vars },
    );
    expect(res.status).toBe(200);
    expect(fieldsOf(res.error)).toEqual(fields);
  });
});

describe('booking rules', () => {
  it('setBookingRules changes only the rules given', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    const data = await ok(
      apiKey,
      `mutation($o: ID!) { setBookingRules(objectId: $o, rules: { minDurationMinutes: 30, slotIncrementMinutes: 30, maxAdvanceDays: 90 }) { minDurationMinutes maxDurationMinutes slotIncrementMinutes minAdvanceMinutes maxAdvanceDays bufferMinutes } }`,
      { o: object.id },
    );
    const expected = {
      minDurationMinutes: 30,
      maxDurationMinutes: 240,
      slotIncrementMinutes: 30,
      minAdvanceMinutes: 0,
      maxAdvanceDays: 90,
      bufferMinutes: 0,
    };
    expect(data.setBookingRules).toEqual(expected);
    const rest = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${tenantId}/objects/${object.id}/booking-rules`,
      apiKey,
    });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({ timeZone: 'Europe/Berlin', ...expected });
  });

  it.each([
    ['min > max duration', { minDurationMinutes: 300 }, ['rules.maxDurationMinutes']],
    ['min > max given together', { minDurationMinutes: 120, maxDurationMinutes: 90 }, ['rules.maxDurationMinutes']],
    ['a negative buffer', { bufferMinutes: -15 }, ['rules.bufferMinutes']],
  ])('refuses %s, naming the field, and keeps the rules', async (_, rules, fields) => {
    const { apiKey, object } = await buildVenue(h);
    const res = await fails(
      apiKey,
      `mutation($o: ID!, $r: BookingRulesInput!) { setBookingRules(objectId: $o, rules: $r) { minDurationMinutes } }`,
      { o: object.id, r: rules },
    );
    expect(res.status).toBe(200);
    expect(fieldsOf(res.error)).toEqual(fields);
    const read = await ok(
      apiKey,
      `query($o: ID!) { bookingRules(objectId: $o) { minDurationMinutes maxDurationMinutes bufferMinutes } }`,
      { o: object.id },
    );
    expect(read.bookingRules).toEqual({ minDurationMinutes: 60, maxDurationMinutes: 240, bufferMinutes: 0 });
  });
});

describe('doors', () => {
  const DOOR = 'id name gpioPin behavior unlockDurationSeconds objectIds';

  it('creates, reads, updates and deletes a door', async () => {
    const { apiKey, objects } = await buildVenue(h, { objects: 2 });
    const [a, b] = objects.map((o) => o.id);
    const created = await ok(
      apiKey,
      `mutation($ids: [ID!]) { createDoor(name: "Main gate", gpioPin: 17, objectIds: $ids) { ${DOOR} } }`,
      { ids: [a, a] },
    );
    const door = created.createDoor;
    expect(door).toMatchObject({
      name: 'Main gate',
      gpioPin: 17,
      behavior: 'unlock_per_scan',
      unlockDurationSeconds: 5,
      objectIds: [a],
    });

    const updated = await ok(
      apiKey,
      `mutation($id: ID!, $ids: [ID!]) { updateDoor(id: $id, gpioPin: 4, behavior: "toggle", unlockDurationSeconds: 10, objectIds: $ids) { ${DOOR} } }`,
      { id: door.id, ids: [a, b] },
    );
    expect(updated.updateDoor).toMatchObject({
      name: 'Main gate',
      gpioPin: 4,
      behavior: 'toggle',
      unlockDurationSeconds: 10,
    });
    expect([...updated.updateDoor.objectIds].sort()).toEqual([a, b].sort());

    const renamed = await ok(
      apiKey,
      `mutation($id: ID!) { updateDoor(id: $id, name: "Side gate") { name objectIds } }`,
      { id: door.id },
    );
    expect(renamed.updateDoor.name).toBe('Side gate');
    expect(renamed.updateDoor.objectIds).toHaveLength(2);

    const listed = await ok(apiKey, `query($id: ID!) { doors { id } door(id: $id) { name } }`, { id: door.id });
    expect(listed).toEqual({ doors: [{ id: door.id }], door: { name: 'Side gate' } });

    expect((await ok(apiKey, `mutation($id: ID!) { deleteDoor(id: $id) }`, { id: door.id })).deleteDoor).toBe(true);
    expect((await fails(apiKey, `query($id: ID!) { door(id: $id) { id } }`, { id: door.id })).status).toBe(200);
  });

  it('deleting an object removes it from its doors', async () => {
    const { tenantId, apiKey, objects } = await buildVenue(h, { objects: 2 });
    const door = await buildDoor(
      h,
      tenantId,
      objects.map((o) => o.id),
    );
    await ok(apiKey, `mutation($id: ID!) { deleteObject(id: $id) }`, { id: objects[0].id });
    const read = await ok(apiKey, `query($id: ID!) { door(id: $id) { objectIds } }`, { id: door.id });
    expect(read.door.objectIds).toEqual([objects[1].id]);
  });

  it('refuses an unknown object, naming objectIds', async () => {
    const { apiKey, object } = await buildVenue(h);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const res = await fails(
      apiKey,
      `mutation($ids: [ID!]) { createDoor(name: "Gate", gpioPin: 17, objectIds: $ids) { id } }`,
      { ids: [object.id, unknown] },
    );
    expect(res.status).toBe(200);
    expect(fieldsOf(res.error)).toEqual(['objectIds']);
    expect(res.error.message).toContain(unknown);
    expect((await ok(apiKey, `{ doors { id } }`)).doors).toEqual([]);
  });

  it("treats another tenant's object as unknown", async () => {
    const mine = await buildVenue(h);
    const theirs = await buildVenue(h);
    const door = await buildDoor(h, mine.tenantId, [mine.object.id]);
    const res = await fails(
      mine.apiKey,
      `mutation($id: ID!, $ids: [ID!]) { updateDoor(id: $id, objectIds: $ids) { id } }`,
      { id: door.id, ids: [theirs.object.id] },
    );
    expect(fieldsOf(res.error)).toEqual(['objectIds']);
    const read = await ok(mine.apiKey, `query($id: ID!) { door(id: $id) { objectIds } }`, { id: door.id });
    expect(read.door.objectIds).toEqual([mine.object.id]);
  });

  it.each([
    ['a GPIO pin out of range', { gpioPin: 64 }, ['gpioPin']],
    ['an unknown behavior', { behavior: 'open_forever' }, ['behavior']],
    ['a zero unlock duration', { unlockDurationSeconds: 0 }, ['unlockDurationSeconds']],
    ['a malformed object id', { objectIds: ['court-1'] }, ['objectIds']],
  ])('refuses %s, naming the field', async (_, override, fields) => {
    const { apiKey } = await h.tenant();
    const vars = {
      name: 'Gate',
      pin: 17,
      ...('gpioPin' in override ? { pin: override.gpioPin } : {}),
      behavior: (override as { behavior?: string }).behavior,
      seconds: (override as { unlockDurationSeconds?: number }).unlockDurationSeconds,
      ids: (override as { objectIds?: string[] }).objectIds,
    };
    const res = await fails(
      apiKey,
      `mutation($name: String!, $pin: Int!, $behavior: String, $seconds: Int, $ids: [ID!]) { createDoor(name: $name, gpioPin: $pin, behavior: $behavior, unlockDurationSeconds: $seconds, objectIds: $ids) { id } }`,
      vars,
    );
    expect(res.status).toBe(200);
    expect(fieldsOf(res.error)).toEqual(fields);
  });
});

describe('deleting what has bookings', () => {
  it('refuses to delete an object or accommodation with bookings (409)', async () => {
    const { tenantId, apiKey, accommodation, object } = await buildVenue(h);
    const start = new Date('2026-11-20T10:00:00Z');
    await h.deps.database.db
      .insertInto('bookings')
      .values({
        tenant_id: tenantId,
        object_id: object.id,
        guest_name: 'Ada',
        guest_email: 'ada@example.com',
        guest_phone: null,
        start_time: start,
        end_time: new Date('2026-11-20T11:00:00Z'),
        blocked_until: new Date('2026-11-20T11:00:00Z'),
        status: 'CONFIRMED',
        total_price: 2000,
        refund_amount: null,
      })
      .execute();
    const obj = await fails(apiKey, `mutation($id: ID!) { deleteObject(id: $id) }`, { id: object.id });
    expect(obj.status).toBe(200);
    expect(obj.error.extensions).toMatchObject({ code: 'CONFLICT', reason: 'has_bookings' });
    const acc = await fails(apiKey, `mutation($id: ID!) { deleteAccommodation(id: $id) }`, { id: accommodation.id });
    expect(acc.status).toBe(200);
    expect(
      (await ok(apiKey, `query($id: ID!) { bookableObject(id: $id) { id } }`, { id: object.id })).bookableObject.id,
    ).toBe(object.id);
  });
});
