import { readFileSync } from 'node:fs';
import { Kind, parse } from 'graphql';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { bookViaRest, buildActiveDevice, buildDoor, buildVenue } from './builders.js';
import { PRICING_RULE_TYPES } from '../src/modules/pricing/rule-input.js';
import { DOOR_BEHAVIORS } from '../src/modules/catalog/catalog.rules.js';
import { WEEKDAYS } from '../src/kernel/validation.js';
import { OFFLINE_REASONS } from '../src/modules/devices/devices.schemas.js';

// The typed graph (docs/schema.md, "Enums and scalars"): output fields that were String are enums
// and format scalars now, and every REST, device and GraphQL value stays what it was.

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterEach(() => h.clock.set(null));

/** The named type of a field and, for an enum, its value names, by introspection. */
async function fieldType(
  apiKey: string,
  type: string,
  field: string,
): Promise<{ kind: string; name: string; values: string[] | null }> {
  const res = await h.graphql(
    apiKey,
    `query($t: String!) { __type(name: $t) { fields { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }`,
    { t: type },
  );
  expect(res.body.errors).toBeUndefined();
  type Ref = { kind: string; name: string | null; ofType?: Ref | null };
  let ref = (res.body.data.__type.fields as { name: string; type: Ref }[]).find((f) => f.name === field)?.type;
  while (ref && !ref.name) ref = ref.ofType ?? undefined;
  if (!ref?.name) throw new Error(`${type}.${field} not found`);
  if (ref.kind !== 'ENUM') return { kind: ref.kind, name: ref.name, values: null };
  const e = await h.graphql(apiKey, `query($t: String!) { __type(name: $t) { enumValues { name } } }`, { t: ref.name });
  return {
    kind: ref.kind,
    name: ref.name,
    values: (e.body.data.__type.enumValues as { name: string }[]).map((v) => v.name),
  };
}

describe('the typed graph: enums and scalars of output fields', () => {
  it('types the closed sets as enums whose values are exactly the wire values the services use', async () => {
    const { apiKey } = await buildVenue(h);
    const expected: [string, string, string, readonly string[]][] = [
      ['PricingRule', 'type', 'PricingRuleType', PRICING_RULE_TYPES],
      ['PricingRule', 'weekdays', 'Weekday', WEEKDAYS],
      ['Door', 'behavior', 'DoorBehavior', DOOR_BEHAVIORS],
      ['DeviceCommand', 'type', 'DeviceCommandType', ['unlock']],
      ['DeviceCommand', 'status', 'DeviceCommandStatus', ['pending', 'delivered', 'executed', 'failed', 'expired']],
      ['DoorState', 'state', 'DoorLockState', ['locked', 'unlocked']],
      [
        'AccessLogEntry',
        'reason',
        'AccessDenialReason',
        [...OFFLINE_REASONS, 'door_not_assigned', 'too_many_invalid_tokens'],
      ],
      ['AccessLogEntry', 'mode', 'AccessMode', ['online', 'offline']],
      ['AccessLogEntry', 'credentialType', 'CredentialType', ['qr', 'sms']],
      ['User', 'role', 'UserRole', ['ADMIN', 'STAFF']],
    ];
    for (const [type, field, enumName, values] of expected) {
      const found = await fieldType(apiKey, type, field);
      expect(found.name, `${type}.${field}`).toBe(enumName);
      expect([...(found.values ?? [])].sort(), `${type}.${field}`).toEqual([...values].sort());
    }
  });

  it('types formatted strings with graphql-scalars names', async () => {
    const { apiKey } = await buildVenue(h);
    const expected: [string, string, string][] = [
      ['Booking', 'startTime', 'DateTime'],
      ['Booking', 'guestEmail', 'EmailAddress'],
      ['Booking', 'paymentUrl', 'URL'],
      ['Webhook', 'url', 'URL'],
      ['User', 'email', 'EmailAddress'],
      ['SpecialDate', 'date', 'LocalDate'],
      ['DayHours', 'open', 'LocalTime'],
      ['Slot', 'end', 'LocalTime'],
      ['PricingRule', 'startTime', 'LocalTime'],
    ];
    for (const [type, field, scalar] of expected) {
      expect(await fieldType(apiKey, type, field), `${type}.${field}`).toEqual({
        kind: 'SCALAR',
        name: scalar,
        values: null,
      });
    }
  });

  it('shows the SDL’s descriptions of the format scalars (the resolvers repeat them word for word)', async () => {
    const { apiKey } = await buildVenue(h);
    const sdl = parse(readFileSync(new URL('../schema/base.graphql', import.meta.url), 'utf8'));
    for (const name of ['LocalDate', 'LocalTime', 'EmailAddress', 'URL']) {
      const node = sdl.definitions.find((d) => d.kind === Kind.SCALAR_TYPE_DEFINITION && d.name.value === name);
      const res = await h.graphql(apiKey, `query($t: String!) { __type(name: $t) { description specifiedByURL } }`, {
        t: name,
      });
      expect(res.body.data.__type, name).toEqual({
        description: node && 'description' in node ? node.description?.value : undefined,
        specifiedByURL: null,
      });
    }
  });

  it('keeps the contract queries’ argument types: availability(date: String!, objectId: ID!), bookings(status: BookingStatus, first: Int)', async () => {
    const { apiKey, object } = await buildVenue(h);
    const res = await h.graphql(
      apiKey,
      `query($date: String!, $objectId: ID!) { availability(date: $date, objectId: $objectId) { objectName slots { start end available } } }`,
      {
        date: '2026-11-30',
        objectId: object.id,
      },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.availability.slots[0]).toEqual({
      start: '08:00',
      end: '09:00',
      available: expect.any(Boolean),
    });
    expect(res.body.data.availability.slots.at(-1)).toMatchObject({ start: '21:00', end: '22:00' });
    const list = await h.graphql(
      apiKey,
      `query($status: BookingStatus, $first: Int) { bookings(status: $status, first: $first) { id guestEmail startTime } }`,
      {
        status: 'PENDING',
        first: 5,
      },
    );
    expect(list.body.errors).toBeUndefined();
  });
});

describe('wire values stay byte for byte (REST, device protocol, GraphQL)', () => {
  it('a time_based pricing rule on monday: REST create and list, GraphQL read', async () => {
    const { tenantId, apiKey } = await buildVenue(h);
    const url = `/api/v1/tenants/${tenantId}/pricing-rules`;
    const body = {
      name: 'Monday evening',
      type: 'time_based',
      startTime: '18:00',
      endTime: '24:00',
      weekdays: ['monday'],
      percent: 20,
    };
    const created = await h.request({ method: 'POST', url, apiKey, body });
    expect(created.status).toBe(201);
    expect(created.body.pricingRule).toMatchObject({
      type: 'time_based',
      startTime: '18:00',
      endTime: '24:00',
      weekdays: ['monday'],
    });
    expect(created.text).toContain('"type":"time_based"');
    expect(created.text).toContain('"weekdays":["monday"]');

    const listed = await h.request({ method: 'GET', url, apiKey });
    expect(listed.status).toBe(200);
    expect(listed.body.pricingRules).toEqual([
      expect.objectContaining({ type: 'time_based', startTime: '18:00', endTime: '24:00', weekdays: ['monday'] }),
    ]);

    const gql = await h.graphql(apiKey, `{ pricingRules { type startTime endTime weekdays } }`);
    expect(gql.body).toEqual({
      data: { pricingRules: [{ type: 'time_based', startTime: '18:00', endTime: '24:00', weekdays: ['monday'] }] },
    });

    // Every type and weekday survives a round trip through the enum.
    for (const [type, extra] of [
      ['day_based', { weekdays: ['monday', 'sunday'] }],
      ['duration_based', { minDurationMinutes: 120 }],
      ['early_bird', { minDaysInAdvance: 7 }],
    ] as const) {
      const res = await h.request({ method: 'POST', url, apiKey, body: { name: type, type, percent: -5, ...extra } });
      expect(res.status, type).toBe(201);
      expect(res.body.pricingRule.type).toBe(type);
    }
  });

  it('a weekly schedule keyed monday and a special date: REST opening hours and availability', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h, {
      openingHours: { monday: { open: '08:00', close: '24:00' }, sunday: { open: '10:00', close: '12:00' } },
    });
    const set = await h.graphql(
      apiKey,
      `mutation($o: ID!) { setSpecialDate(objectId: $o, date: "2026-12-28", closed: false, open: "09:30", close: "24:00") { specialDates { date } } }`,
      {
        o: object.id,
      },
    );
    expect(set.body.errors).toBeUndefined();

    const hours = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${tenantId}/objects/${object.id}/opening-hours`,
      apiKey,
    });
    expect(hours.status).toBe(200);
    expect(hours.body.schedule).toEqual({
      monday: { open: '08:00', close: '24:00' },
      tuesday: null,
      wednesday: null,
      thursday: null,
      friday: null,
      saturday: null,
      sunday: { open: '10:00', close: '12:00' },
    });
    expect(hours.body.specialDates).toEqual([
      { date: '2026-12-28', closed: false, reason: '', open: '09:30', close: '24:00' },
    ]);

    const availability = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${tenantId}/objects/availability?date=2026-11-30&objectId=${object.id}`,
      apiKey,
    });
    expect(availability.status).toBe(200);
    expect(availability.body.date).toBe('2026-11-30');
    expect(availability.body.objects[0].slots.at(-1)).toMatchObject({ start: '23:00', end: '24:00' });
  });

  it('a door unlock_per_scan and a toggle door: GraphQL, the device config and the access check', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    const created = await h.graphql(
      apiKey,
      `mutation($o: [ID!]) { a: createDoor(name: "Main", gpioPin: 5, behavior: "unlock_per_scan", objectIds: $o) { id behavior } b: createDoor(name: "Side", gpioPin: 6, behavior: "toggle", objectIds: $o) { id behavior } }`,
      { o: [object.id] },
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.a.behavior).toBe('unlock_per_scan');
    expect(created.body.data.b.behavior).toBe('toggle');
    const read = await h.graphql(apiKey, `{ doors { name behavior } }`);
    expect(read.body.data.doors).toEqual([
      { name: 'Main', behavior: 'unlock_per_scan' },
      { name: 'Side', behavior: 'toggle' },
    ]);

    const dev = await buildActiveDevice(h, tenantId, [created.body.data.a.id, created.body.data.b.id]);
    const config = await h.request({
      method: 'GET',
      url: `/api/devices/${dev.deviceId}/config`,
      apiKey: dev.deviceKey,
    });
    expect(config.status).toBe(200);
    expect(config.text).toContain('"behavior":"unlock_per_scan"');
    expect(config.text).toContain('"behavior":"toggle"');
  });

  it('a device command, a heartbeat and the access log keep their lowercase values', async () => {
    const venue = await buildVenue(h);
    const door = await buildDoor(h, venue.tenantId, [venue.object.id], { gpioPin: 17, unlockDurationSeconds: 5 });
    const dev = await buildActiveDevice(h, venue.tenantId, [door.id]);

    const command = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${venue.tenantId}/devices/${dev.deviceId}/commands`,
      apiKey: venue.apiKey,
      body: { type: 'unlock', doorId: door.id },
    });
    expect(command.status).toBe(201);
    expect(command.body.command).toMatchObject({ type: 'unlock', status: 'pending' });

    const beat = await h.request({
      method: 'POST',
      url: `/api/devices/${dev.deviceId}/heartbeat`,
      apiKey: dev.deviceKey,
      body: { cpu_percent: 1, memory_percent: 2, wifi_signal_dbm: -50, door_states: { [door.id]: 'locked' } },
    });
    expect(beat.status).toBe(200);

    h.clock.set('2026-11-23T07:00:00Z');
    await bookViaRest(h, {
      tenantId: venue.tenantId,
      apiKey: venue.apiKey,
      objectId: venue.object.id,
      startTime: '2026-11-23T10:00:00.000Z',
      endTime: '2026-11-23T11:00:00.000Z',
    });
    const denied = await h.request({
      method: 'POST',
      url: `/api/devices/${dev.deviceId}/access-check`,
      apiKey: dev.deviceKey,
      body: { token: 'not-a-token', doorId: door.id },
    });
    expect(denied.body).toMatchObject({ allowed: false, reason: 'invalid_token' });

    const gql = await h.graphql(
      venue.apiKey,
      `query($d: ID!) {
        deviceCommands(deviceId: $d) { command { type status } }
        device(id: $d) { telemetry { doorStates { state } } }
        accessLog(deviceId: $d) { allowed reason mode credentialType }
      }`,
      { d: dev.deviceId },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.deviceCommands).toEqual([{ command: { type: 'unlock', status: 'delivered' } }]);
    expect(gql.body.data.device.telemetry.doorStates).toEqual([{ state: 'locked' }]);
    expect(gql.body.data.accessLog).toEqual([
      { allowed: false, reason: 'invalid_token', mode: 'online', credentialType: null },
    ]);
  });

  it('booking emails and URLs answer as given', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    h.clock.set('2026-11-23T07:00:00Z');
    const created = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${tenantId}/bookings`,
      apiKey,
      body: {
        objectId: object.id,
        guestName: 'Ada',
        guestEmail: 'Ada.Lovelace+court@Example.COM',
        startTime: '2026-11-24T10:00:00Z',
        endTime: '2026-11-24T11:00:00Z',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.booking.guestEmail).toBe('Ada.Lovelace+court@Example.COM');
    expect(created.body.booking.paymentUrl).toMatch(/^https?:\/\/[^/]+\/pay\/[^/]+$/);
    expect(created.body.booking.startTime).toBe('2026-11-24T10:00:00.000Z');

    const hook = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${tenantId}/webhooks`,
      apiKey,
      body: { url: 'https://hooks.example.com', events: ['booking.created'], secret: 'a-secret-of-enough-length' },
    });
    expect(hook.status).toBe(201);
    // graphql-scalars' own URL scalar would answer https://hooks.example.com/ here.
    expect(hook.body.webhook.url).toBe('https://hooks.example.com');
    expect(hook.body.webhook.events).toEqual(['booking.created']);
  });
});

describe('bad enum and scalar input', () => {
  it('GraphQL: a bad enum or scalar variable is a validation error naming the variable; a literal names the value and type', async () => {
    const { apiKey, object } = await buildVenue(h);
    const status = await h.graphql(apiKey, `query($status: BookingStatus) { bookings(status: $status) { id } }`, {
      status: 'confirmed',
    });
    expect(status.body.data).toBeUndefined();
    expect(status.body.errors[0].message).toContain('$status');
    expect(status.body.errors[0].message).toContain('BookingStatus');

    const literal = await h.graphql(apiKey, `{ bookings(status: confirmed) { id } }`);
    expect(literal.body.data).toBeUndefined();
    expect(literal.body.errors[0].message).toMatch(/confirmed.*BookingStatus/);

    const time = await h.graphql(
      apiKey,
      `query($s: DateTime!, $e: DateTime!, $o: ID!) { priceQuote(objectId: $o, startTime: $s, endTime: $e) { totalPrice } }`,
      {
        s: 'tomorrow at ten',
        e: '2026-11-24T11:00:00Z',
        o: object.id,
      },
    );
    expect(time.body.data).toBeUndefined();
    expect(time.body.errors[0].message).toContain('$s');
    expect(time.body.errors[0].message).toContain('DateTime');
  });

  it('GraphQL: a value outside a closed set that stays String is BAD_USER_INPUT naming the argument', async () => {
    const { apiKey } = await buildVenue(h);
    const res = await h.graphql(
      apiKey,
      `mutation { createPricingRule(name: "x", type: "hourly", percent: 5) { pricingRule { id } } }`,
    );
    expect(res.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: [expect.objectContaining({ field: 'type' })],
    });
    const door = await h.graphql(apiKey, `mutation { createDoor(name: "x", gpioPin: 3, behavior: "swing") { id } }`);
    expect(door.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: [expect.objectContaining({ field: 'behavior' })],
    });
  });

  it('REST: a bad enum or scalar parameter is a 400 problem naming the parameter', async () => {
    const { tenantId, apiKey } = await buildVenue(h);
    const list = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${tenantId}/bookings?status=confirmed`,
      apiKey,
    });
    expect(list.status).toBe(400);
    expect(list.headers['content-type']).toContain('application/problem+json');
    expect(list.body.errors).toEqual([{ field: 'status', message: expect.stringContaining('CONFIRMED') }]);

    const rule = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${tenantId}/pricing-rules`,
      apiKey,
      body: { name: 'x', type: 'TIME_BASED', percent: 5 },
    });
    expect(rule.status).toBe(400);
    expect(rule.body.errors.map((e: { field: string }) => e.field)).toContain('type');
  });
});
