import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness, type TestResponse } from './harness.js';
import { buildDevice, buildDoor, buildVenue, slotInDays } from './builders.js';
import { ownApp, type OwnApp } from './own-app.js';

// Issue 12, finding 1: hostile input answered 500 (NUL, lone surrogates, year 0000, deep nesting,
// malformed GraphQL GET parameters, subscriptions). Each must be a 400 naming the field (GraphQL:
// BAD_USER_INPUT), on both databases, and nothing is stored.

const NUL = 'A\u0000B';
const LONE = 'A\ud800B';

let h: Harness;
let app: OwnApp;
let venue: Awaited<ReturnType<typeof buildVenue>>;
let deviceKey: string;
let deviceId: string;
let base: string;

beforeAll(async () => {
  h = await harness();
  // An app of its own with load shedding off: on a busy machine it would answer 503 at random.
  app = await ownApp(h, { options: { loadShedding: { maxEventLoopDelay: 0 } } });
  venue = await buildVenue(h);
  const door = await buildDoor(h, venue.tenantId, [venue.object.id]);
  const { activationCode } = await buildDevice(h, venue.tenantId, [door.id]);
  const activated = await app.request({
    method: 'POST',
    url: '/api/devices/activate',
    body: { activation_code: activationCode, serial: 'SN-1', firmware_version: '1.0.0' },
  });
  ({ device_key: deviceKey, device_id: deviceId } = activated.body as { device_key: string; device_id: string });
  base = `/api/v1/tenants/${venue.tenantId}`;
});
afterAll(async () => {
  await app?.close();
});

function expectProblemNaming(res: TestResponse, field: string) {
  expect(res.status, res.text.slice(0, 300)).toBe(400);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const fields = ((res.body.errors ?? []) as { field: string }[]).map((e) => e.field);
  expect(fields, res.text.slice(0, 300)).toContain(field);
}

/**
 * BAD_USER_INPUT naming the input. A request error (variable coercion: no data) answers 400; an
 * error of one field (a resolver's input check) answers 200 with the error at that field's path
 * (GraphQL over HTTP, the partial-data rule).
 */
function expectBadUserInput(res: TestResponse, mention: string) {
  const fieldError = ((res.body.errors ?? []) as { path?: unknown }[]).some((e) => e.path !== undefined);
  expect(res.status, res.text.slice(0, 300)).toBe(fieldError ? 200 : 400);
  const errors = (res.body.errors ?? []) as { message: string; extensions?: { code?: string } }[];
  expect(errors.length, res.text.slice(0, 300)).toBeGreaterThan(0);
  expect(errors.map((e) => e.extensions?.code)).toContain('BAD_USER_INPUT');
  expect(errors.map((e) => e.message).join(' | ')).toContain(mention);
}

let day = 2;
/** A valid create-booking body on a day of its own (so a wrongly accepted one cannot make the next overlap). */
const booking = (over: Record<string, unknown>) => ({
  objectId: venue.object.id,
  guestName: 'Ada',
  guestEmail: 'ada@example.com',
  ...slotInDays((day += 1)),
  ...over,
});

async function bookingCount(): Promise<number> {
  const rows = await h.deps.database.db
    .selectFrom('bookings')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', venue.tenantId)
    .executeTakeFirstOrThrow();
  return Number(rows.n);
}

describe('REST bodies: NUL and lone surrogates in any string are refused naming the field', () => {
  it.each([
    ['guestName', NUL],
    ['guestEmail', 'a\u0000@example.com'],
    ['guestName', LONE],
  ])('createBooking %s', async (field, value) => {
    const before = await bookingCount();
    const res = await app.request({
      method: 'POST',
      url: `${base}/bookings`,
      apiKey: venue.apiKey,
      body: booking({ [field]: value }),
    });
    expectProblemNaming(res, field);
    expect(await bookingCount()).toBe(before);
  });

  it('webhook url', async () => {
    const res = await app.request({
      method: 'POST',
      url: `${base}/webhooks`,
      apiKey: venue.apiKey,
      body: { url: `https://example.com/${NUL}`, events: ['booking.created'], secret: 'a-secret-of-at-least-16' },
    });
    expectProblemNaming(res, 'url');
  });

  it('pricing rule name', async () => {
    const res = await app.request({
      method: 'POST',
      url: `${base}/pricing-rules`,
      apiKey: venue.apiKey,
      body: { name: NUL, type: 'duration_based', percent: 10, minDurationMinutes: 60 },
    });
    expectProblemNaming(res, 'name');
  });

  it('a nested key (not only values) is checked', async () => {
    const res = await app.request({
      method: 'POST',
      url: `${base}/bookings`,
      apiKey: venue.apiKey,
      body: booking({ extra: { [NUL]: 1 } }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toMatch(/^extra\./);
  });
});

describe('REST query strings', () => {
  it('the guestEmail list filter with NUL', async () => {
    const res = await app.request({
      method: 'GET',
      url: `${base}/bookings?guestEmail=a%00b%40example.com`,
      apiKey: venue.apiKey,
    });
    expectProblemNaming(res, 'guestEmail');
  });

  it('a lone surrogate, percent-encoded as CESU-8, in a filter', async () => {
    const res = await app.request({
      method: 'GET',
      url: `${base}/bookings?guestEmail=%ED%A0%80`,
      apiKey: venue.apiKey,
    });
    expect(res.status, res.text).toBeLessThan(500);
  });

  it.each(['0000-01-01', '0000-01-01T00:00:00Z'])('a year-0000 list boundary (%s)', async (from) => {
    const res = await app.request({ method: 'GET', url: `${base}/bookings?from=${from}`, apiKey: venue.apiKey });
    expectProblemNaming(res, 'from');
  });

  it('availability for a year-0000 date', async () => {
    const res = await app.request({
      method: 'GET',
      url: `${base}/objects/availability?date=0000-01-01&objectId=${venue.object.id}`,
      apiKey: venue.apiKey,
    });
    expectProblemNaming(res, 'date');
  });
});

describe('year-0000 timestamps in bodies', () => {
  it('createBooking startTime', async () => {
    const res = await app.request({
      method: 'POST',
      url: `${base}/bookings`,
      apiKey: venue.apiKey,
      body: booking({ startTime: '0000-01-01T10:00:00Z', endTime: '0000-01-01T11:00:00Z' }),
    });
    expectProblemNaming(res, 'startTime');
  });

  it('price preview', async () => {
    const res = await app.request({
      method: 'POST',
      url: '/api/pricing/preview',
      apiKey: venue.apiKey,
      body: { objectId: venue.object.id, startTime: '0000-01-01T10:00:00Z', endTime: '0000-01-01T11:00:00Z' },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('startTime');
  });
});

describe('deep nesting', () => {
  it('a JSON body nested 100,000 levels deep is a 400, not a crash', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const res = await app.request({ method: 'POST', url: `${base}/bookings`, apiKey: venue.apiKey, body: deep });
    expect(res.status, res.text.slice(0, 300)).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.errors[0].field).toBe('body');
  });

  it('the same on GraphQL', async () => {
    const deep = `{"query":"{ __typename }","variables":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    const res = await app.request({ method: 'POST', url: '/api/v1/graphql', apiKey: venue.apiKey, body: deep });
    expect(res.status, res.text.slice(0, 300)).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('device routes', () => {
  it('heartbeat door_states keys with NUL', async () => {
    const res = await app.request({
      method: 'POST',
      url: `/api/devices/${deviceId}/heartbeat`,
      apiKey: deviceKey,
      body: { cpu_percent: 1, memory_percent: 1, wifi_signal_dbm: -50, door_states: { [NUL]: 'locked' } },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].field).toMatch(/^door_states\./);
  });

  it('a command result with NUL or a lone surrogate, and an error with NUL', async () => {
    const created = await app.request({
      method: 'POST',
      url: `${base}/devices/${deviceId}/commands`,
      apiKey: venue.apiKey,
      body: {
        type: 'unlock',
        doorId: (
          await h.deps.database.db
            .selectFrom('doors')
            .select('id')
            .where('tenant_id', '=', venue.tenantId)
            .executeTakeFirstOrThrow()
        ).id,
        durationSeconds: 5,
      },
    });
    expect(created.status, created.text).toBe(201);
    const url = `/api/devices/${deviceId}/commands/${created.body.command.id}`;
    for (const [body, field] of [
      [{ status: 'executed', result: { note: NUL } }, 'result.note'],
      [{ status: 'executed', result: LONE }, 'result'],
      [{ status: 'failed', error: NUL }, 'error'],
    ] as const) {
      const res = await app.request({ method: 'PATCH', url, apiKey: deviceKey, body });
      expect(res.status, res.text).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const row = await h.deps.database.db
      .selectFrom('device_commands')
      .select('status')
      .where('id', '=', created.body.command.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });
});

describe('GraphQL', () => {
  it.each([
    [
      'createAccommodation',
      `mutation($t: ID) { createAccommodation(tenantId: $t, name: $v, address: "x", timeZone: "Europe/Berlin") { id } }`,
      'name',
    ],
    ['createDoor', `mutation($t: ID) { createDoor(tenantId: $t, name: $v, gpioPin: 3) { id } }`, 'name'],
    [
      'createApiKey',
      `mutation($t: ID) { createApiKey(tenantId: $t, name: $v, scopes: ["bookings:read"]) { apiKey } }`,
      'name',
    ],
    [
      'registerDevice',
      `mutation($t: ID) { registerDevice(tenantId: $t, name: $v, doorIds: []) { activationCode } }`,
      'name',
    ],
  ])('%s: NUL in a variable', async (_name, template) => {
    const query = template.replace('mutation($t: ID)', 'mutation($t: ID, $v: String!)');
    const res = await app.graphql(venue.apiKey, query, { t: venue.tenantId, v: NUL });
    expectBadUserInput(res, 'variables.v');
  });

  it('NUL in a literal argument (a GraphQL string escape)', async () => {
    const res = await app.graphql(
      venue.apiKey,
      `mutation { setSpecialDate(tenantId: "${venue.tenantId}", objectId: "${venue.object.id}", date: "2030-12-24", closed: true, reason: "x\\u0000y") { __typename } }`,
    );
    expectBadUserInput(res, 'reason');
  });

  it('a year-0000 date in a literal argument', async () => {
    const res = await app.graphql(
      venue.apiKey,
      `mutation { setSpecialDate(tenantId: "${venue.tenantId}", objectId: "${venue.object.id}", date: "0000-12-24", closed: true) { __typename } }`,
    );
    expectBadUserInput(res, 'date');
  });

  it('a year-0000 DateTime variable', async () => {
    const res = await app.graphql(
      venue.apiKey,
      `query($s: DateTime!, $e: DateTime!) { priceQuote(tenantId: "${venue.tenantId}", objectId: "${venue.object.id}", startTime: $s, endTime: $e) { totalPrice } }`,
      { s: '0000-01-01T10:00:00Z', e: '0000-01-01T11:00:00Z' },
    );
    expectBadUserInput(res, '$s');
  });

  it.each(['variables', 'extensions'])('GET with %s=abc', async (name) => {
    const res = await app.request({
      method: 'GET',
      url: `/api/v1/graphql?query=${encodeURIComponent('{ __typename }')}&${name}=abc`,
      apiKey: venue.apiKey,
    });
    expectBadUserInput(res, name);
  });

  it('a subscription operation without Accept: text/event-stream', async () => {
    const res = await app.graphql(venue.apiKey, 'subscription { bookingChanged { type } }');
    expectBadUserInput(res, 'subscription operations need Server-Sent Events (send Accept: text/event-stream)');
  });

  it('enum suggestions do not leak', async () => {
    const res = await app.graphql(
      venue.apiKey,
      `query($s: BookingStatus) { bookings(tenantId: "${venue.tenantId}", status: $s) { id } }`,
      { s: 'CONFIRMD' },
    );
    expect(res.body.errors.length).toBeGreaterThan(0);
    expect(res.text).not.toMatch(/did you mean/i);
    const literal = await app.graphql(
      venue.apiKey,
      `{ bookings(tenantId: "${venue.tenantId}", status: CONFIRMD) { id } }`,
    );
    expect(literal.text).not.toMatch(/did you mean/i);
  });
});

describe('found by the fuzz test', () => {
  it('a body that is JSON but not an object is a 400 naming body', async () => {
    for (const body of ['"text"', '[1]', '42', 'null']) {
      const res = await app.request({
        method: 'PATCH',
        url: `${base}/bookings/${crypto.randomUUID()}`,
        apiKey: venue.apiKey,
        body,
      });
      expectProblemNaming(res, 'body');
    }
  });

  it('a prototype-poisoning body is a 400 naming body', async () => {
    const res = await app.request({
      method: 'POST',
      url: `${base}/bookings`,
      apiKey: venue.apiKey,
      body: '{"__proto__": {"x": 1}}',
    });
    expectProblemNaming(res, 'body');
  });

  it('an empty path parameter is a 400 naming it (not an empty 404)', async () => {
    const res = await app.request({ method: 'GET', url: `${base}/bookings/`, apiKey: venue.apiKey });
    expectProblemNaming(res, 'bookingId');
  });

  it('a path that is not percent-encoded UTF-8 is a 400 naming path', async () => {
    const res = await app.request({ method: 'GET', url: `${base}/bookings/x%ED%AF%BFy`, apiKey: venue.apiKey });
    expectProblemNaming(res, 'path');
  });
});

describe('content types on REST', () => {
  it('text/plain bodies are refused with 415', async () => {
    const res = await app.request({
      method: 'POST',
      url: `${base}/bookings`,
      apiKey: venue.apiKey,
      body: JSON.stringify(booking({})),
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status, res.text).toBe(415);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('text/plain on GraphQL POST is refused with 415', async () => {
    const res = await app.request({
      method: 'POST',
      url: '/api/v1/graphql',
      apiKey: venue.apiKey,
      body: JSON.stringify({ query: '{ __typename }' }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status, res.text).toBe(415);
  });
});
