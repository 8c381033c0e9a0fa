import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildPricingRule, buildVenue } from './builders.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
// Fixed dates below: every test runs at a fixed now unless it sets its own.
beforeEach(() => h.clock.set('2026-11-01T09:00:00Z'));
afterEach(() => h.clock.set(null));

const PREVIEW = '/api/pricing/preview';

/** A Berlin venue at €20.00/h with one rule of each type. */
async function pricedVenue() {
  const venue = await buildVenue(h, { pricePerHour: 2000, timeZone: 'Europe/Berlin' });
  for (const rule of [
    { name: 'Evening peak', type: 'time_based', startTime: '18:00', endTime: '22:00', percent: 25 },
    { name: 'Weekend', type: 'day_based', weekdays: ['saturday', 'sunday'], percent: 10 },
    { name: 'Long booking', type: 'duration_based', minDurationMinutes: 120, percent: -10 },
    { name: 'Early bird', type: 'early_bird', minDaysInAdvance: 7, percent: -15 },
  ]) {
    await buildPricingRule(h, venue.tenantId, rule);
  }
  return venue;
}

// Saturday 2026-11-21, 17:00–19:00 in Berlin (+01:00).
const SATURDAY = { startTime: '2026-11-21T16:00:00Z', endTime: '2026-11-21T18:00:00Z' };
const SUNDAY = { startTime: '2026-11-22T16:00:00Z', endTime: '2026-11-22T18:00:00Z' };

describe('POST /api/pricing/preview', () => {
  it('returns the contract shape with every applicable rule', async () => {
    h.clock.set('2026-11-01T09:00:00Z');
    const { apiKey, object } = await pricedVenue();
    const res = await h.request({ method: 'POST', url: PREVIEW, apiKey, body: { objectId: object.id, ...SATURDAY } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      basePrice: 4000,
      adjustments: [
        { rule: 'Evening peak', amount: 500 },
        { rule: 'Weekend', amount: 400 },
        { rule: 'Long booking', amount: -400 },
        { rule: 'Early bird', amount: -600 },
      ],
      totalPrice: 3900,
      currency: 'EUR',
      breakdown:
        '2 h × €20.00 = €40.00; Evening peak +€5.00; Weekend +€4.00; Long booking -€4.00; Early bird -€6.00; Total €39.00',
    });
  });

  it('uses the current time for early_bird', async () => {
    const { apiKey, object } = await pricedVenue();
    h.clock.set('2026-11-20T09:00:00Z');
    const res = await h.request({ method: 'POST', url: PREVIEW, apiKey, body: { objectId: object.id, ...SATURDAY } });
    expect(res.body.adjustments.map((a: { rule: string }) => a.rule)).not.toContain('Early bird');
    expect(res.body.totalPrice).toBe(4500);
  });

  it.each([
    ['a missing objectId', { startTime: SATURDAY.startTime, endTime: SATURDAY.endTime }, 'objectId'],
    ['an objectId that is not a uuid', { objectId: 'court-1', ...SATURDAY }, 'objectId'],
    [
      'a missing endTime',
      { objectId: '00000000-0000-4000-8000-000000000001', startTime: SATURDAY.startTime },
      'endTime',
    ],
    [
      'a startTime that is not ISO 8601',
      { objectId: '00000000-0000-4000-8000-000000000001', startTime: 'tomorrow', endTime: SATURDAY.endTime },
      'startTime',
    ],
    [
      'a startTime without an offset',
      { objectId: '00000000-0000-4000-8000-000000000001', startTime: '2026-11-21T16:00:00', endTime: SATURDAY.endTime },
      'startTime',
    ],
  ])('refuses %s with 400 problem+json naming the field', async (_, body, field) => {
    const { apiKey } = await buildVenue(h);
    const res = await h.request({ method: 'POST', url: PREVIEW, apiKey, body });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('ignores unknown body fields', async () => {
    const { apiKey, object } = await buildVenue(h);
    const res = await h.request({
      method: 'POST',
      url: PREVIEW,
      apiKey,
      body: { objectId: object.id, ...SATURDAY, guestName: 'Ada' },
    });
    expect(res.status).toBe(200);
    expect(res.body.totalPrice).toBe(4000);
  });

  it('refuses an end before the start, naming endTime', async () => {
    const { apiKey, object } = await buildVenue(h);
    const res = await h.request({
      method: 'POST',
      url: PREVIEW,
      apiKey,
      body: { objectId: object.id, startTime: SATURDAY.endTime, endTime: SATURDAY.startTime },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'endTime', message: 'must be later than startTime' }]);
  });

  it("answers 404 for an unknown object or another tenant's", async () => {
    const mine = await buildVenue(h);
    const theirs = await buildVenue(h);
    for (const objectId of [theirs.object.id, '00000000-0000-4000-8000-00000000abcd']) {
      const res = await h.request({
        method: 'POST',
        url: PREVIEW,
        apiKey: mine.apiKey,
        body: { objectId, ...SATURDAY },
      });
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
  });

  it('needs an API key with pricing:read', async () => {
    const { tenantId, object } = await buildVenue(h);
    const body = { objectId: object.id, ...SATURDAY };
    const reader = await h.key(tenantId, ['pricing:read']);
    const bookingsOnly = await h.key(tenantId, ['bookings:read', 'bookings:write']);
    expect((await h.request({ method: 'POST', url: PREVIEW, apiKey: reader, body })).status).toBe(200);
    const denied = await h.request({ method: 'POST', url: PREVIEW, apiKey: bookingsOnly, body });
    expect(denied.status).toBe(403);
    expect(denied.headers['content-type']).toContain('application/problem+json');
    expect(denied.body.code).toBe('missing_scope');
    // The scope is checked before the body.
    expect((await h.request({ method: 'POST', url: PREVIEW, apiKey: bookingsOnly, body: {} })).status).toBe(403);
    const anonymous = await h.request({ method: 'POST', url: PREVIEW, body });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="portier"');
  });
});

describe('priceQuote over GraphQL', () => {
  const QUERY = `query($o: ID!, $s: DateTime!, $e: DateTime!) { priceQuote(objectId: $o, startTime: $s, endTime: $e) { basePrice adjustments { rule amount } totalPrice currency breakdown } }`;

  it('gives the same quote as the REST preview', async () => {
    h.clock.set('2026-11-01T09:00:00Z');
    const { apiKey, object } = await pricedVenue();
    const rest = await h.request({ method: 'POST', url: PREVIEW, apiKey, body: { objectId: object.id, ...SATURDAY } });
    const gql = await h.graphql(apiKey, QUERY, { o: object.id, s: SATURDAY.startTime, e: SATURDAY.endTime });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.priceQuote).toEqual(rest.body);
  });

  it('answers NOT_FOUND for an unknown object and FORBIDDEN without pricing:read', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    const missing = await h.graphql(apiKey, QUERY, {
      o: '00000000-0000-4000-8000-00000000abcd',
      s: SATURDAY.startTime,
      e: SATURDAY.endTime,
    });
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const bookingsOnly = await h.key(tenantId, ['bookings:read']);
    const denied = await h.graphql(bookingsOnly, QUERY, { o: object.id, s: SATURDAY.startTime, e: SATURDAY.endTime });
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('the preview and the booking agree', () => {
  it('over REST: the booking stores the previewed total', async () => {
    h.clock.set('2026-11-01T09:00:00Z');
    const { tenantId, apiKey, object } = await pricedVenue();
    const preview = await h.request({
      method: 'POST',
      url: PREVIEW,
      apiKey,
      body: { objectId: object.id, ...SATURDAY },
    });
    const created = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${tenantId}/bookings`,
      apiKey,
      body: { objectId: object.id, guestName: 'Ada', guestEmail: 'ada@example.com', ...SATURDAY },
    });
    expect(created.status).toBe(201);
    expect(preview.body.totalPrice).toBe(3900);
    expect(created.body.booking.totalPrice).toBe(preview.body.totalPrice);
  });

  it('over GraphQL: priceQuote then createBooking', async () => {
    h.clock.set('2026-11-18T09:00:00Z');
    const { apiKey, object } = await pricedVenue();
    const quote = await h.graphql(
      apiKey,
      `query($o: ID!, $s: DateTime!, $e: DateTime!) { priceQuote(objectId: $o, startTime: $s, endTime: $e) { totalPrice } }`,
      {
        o: object.id,
        s: SUNDAY.startTime,
        e: SUNDAY.endTime,
      },
    );
    const booking = await h.graphql(
      apiKey,
      `mutation($o: ID!, $s: DateTime!, $e: DateTime!) { createBooking(objectId: $o, guestName: "Ada", guestEmail: "ada@example.com", startTime: $s, endTime: $e) { booking { totalPrice } } }`,
      { o: object.id, s: SUNDAY.startTime, e: SUNDAY.endTime },
    );
    expect(booking.body.errors).toBeUndefined();
    // Four days ahead: no early bird. 4000 + 500 + 400 − 400.
    expect(quote.body.data.priceQuote.totalPrice).toBe(4500);
    expect(booking.body.data.createBooking.booking.totalPrice).toBe(quote.body.data.priceQuote.totalPrice);
  });

  it('inactive rules and rules of other objects change neither', async () => {
    h.clock.set('2026-11-18T09:00:00Z');
    const { tenantId, apiKey, objects } = await buildVenue(h, { objects: 2 });
    const [court1, court2] = objects;
    await buildPricingRule(h, tenantId, {
      name: 'Court 2 peak',
      type: 'time_based',
      startTime: '18:00',
      endTime: '22:00',
      percent: 50,
      objectIds: [court2.id],
    });
    await buildPricingRule(h, tenantId, {
      name: 'Off',
      type: 'day_based',
      weekdays: ['saturday'],
      percent: 100,
      active: false,
    });
    const body = { objectId: court1.id, ...SATURDAY };
    const preview = await h.request({ method: 'POST', url: PREVIEW, apiKey, body });
    const created = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${tenantId}/bookings`,
      apiKey,
      body: { ...body, guestName: 'Ada', guestEmail: 'ada@example.com' },
    });
    expect(preview.body).toMatchObject({ basePrice: 4000, adjustments: [], totalPrice: 4000 });
    expect(created.body.booking.totalPrice).toBe(4000);
  });
});

describe('statements per preview', () => {
  it('reads the object, its zone, its special dates and the pricing rules in one statement, whatever the number of rules', async () => {
    h.clock.set('2026-11-18T09:00:00Z');
    const { tenantId, apiKey, object } = await buildVenue(h);
    const body = { objectId: object.id, ...SATURDAY };
    const statementsOfPreview = async () => {
      let fewest = Infinity;
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const before = h.deps.database.queries.count;
        const res = await h.request({ method: 'POST', url: PREVIEW, apiKey, body });
        expect(res.status).toBe(200);
        fewest = Math.min(fewest, h.deps.database.queries.count - before);
      }
      return fewest;
    };
    const withoutRules = await statementsOfPreview();
    for (let i = 0; i < 5; i += 1)
      await buildPricingRule(h, tenantId, {
        name: `Weekend ${i}`,
        type: 'day_based',
        weekdays: ['saturday'],
        percent: 10,
      });
    const withRules = await statementsOfPreview();
    // One for everything the price depends on; the key was read by an earlier request, within
    // API_KEY_CACHE_MS (test/api-key-cache.test.ts).
    expect(withoutRules).toBe(1);
    expect(withRules).toBe(1);
    const preview = await h.request({ method: 'POST', url: PREVIEW, apiKey, body });
    expect(preview.body.adjustments).toHaveLength(5);
  });
});

describe('the preview applies the booking rules of creation', () => {
  it('refuses a range outside opening hours with the same code as creation', async () => {
    const { apiKey, object, tenantId } = await buildVenue(h);
    // 05:00–06:00 in Berlin: before the 08:00 opening.
    const range = { objectId: object.id, startTime: '2026-11-21T04:00:00Z', endTime: '2026-11-21T05:00:00Z' };
    const preview = await h.request({ method: 'POST', url: PREVIEW, apiKey, body: range });
    const booking = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${tenantId}/bookings`,
      apiKey,
      body: { ...range, guestName: 'Ada', guestEmail: 'ada@example.com' },
    });
    expect(preview.status).toBe(400);
    expect(booking.status).toBe(400);
    expect(preview.body.code).toBe(booking.body.code);
    expect(preview.body.code).toBe('outside_opening_hours');
  });
});
