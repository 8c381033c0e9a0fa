import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildCancellationPolicy, buildVenue } from './builders.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterEach(() => h.clock.set(null));

const STANDARD = [
  { hoursBeforeStart: 48, refundPercent: 100 },
  { hoursBeforeStart: 24, refundPercent: 50 },
  { hoursBeforeStart: 0, refundPercent: 0 },
];
const FIELDS = 'id name isDefault tiers { hoursBeforeStart refundPercent }';

describe('cancellation policies', () => {
  it('are managed over GraphQL and listed over REST', async () => {
    const { tenantId, apiKey } = await buildVenue(h);
    const created = await h.graphql(
      apiKey,
      `mutation($t: [CancellationTierInput!]!) { createCancellationPolicy(name: "Standard", isDefault: true, tiers: $t) { ${FIELDS} } }`,
      {
        t: [...STANDARD].reverse(),
      },
    );
    expect(created.body.errors).toBeUndefined();
    const standard = created.body.data.createCancellationPolicy;
    expect(standard).toEqual({ id: expect.any(String), name: 'Standard', isDefault: true, tiers: STANDARD });

    const updated = await h.graphql(
      apiKey,
      `mutation($id: ID!) { updateCancellationPolicy(id: $id, name: "Flexible") { name isDefault } }`,
      { id: standard.id },
    );
    expect(updated.body.data.updateCancellationPolicy).toEqual({ name: 'Flexible', isDefault: true });

    const list = await h.request({ method: 'GET', url: `/api/v1/tenants/${tenantId}/cancellation-policies`, apiKey });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      cancellationPolicies: [{ id: standard.id, name: 'Flexible', isDefault: true, tiers: STANDARD }],
      next: null,
    });

    const deleted = await h.graphql(apiKey, `mutation($id: ID!) { deleteCancellationPolicy(id: $id) }`, {
      id: standard.id,
    });
    expect(deleted.body.data.deleteCancellationPolicy).toBe(true);
    expect((await h.graphql(apiKey, `{ cancellationPolicies { id } }`)).body.data.cancellationPolicies).toEqual([]);
  });

  it('keep one default per tenant: a new default unsets the old one', async () => {
    const { apiKey, tenantId } = await buildVenue(h);
    await buildCancellationPolicy(h, tenantId, { name: 'First', isDefault: true, tiers: STANDARD });
    const second = await buildCancellationPolicy(h, tenantId, { name: 'Second', isDefault: true, tiers: STANDARD });
    const third = await buildCancellationPolicy(h, tenantId, { name: 'Third', tiers: STANDARD });
    const defaults = async () =>
      (await h.graphql(apiKey, `{ cancellationPolicies { id isDefault } }`)).body.data.cancellationPolicies
        .filter((p: { isDefault: boolean }) => p.isDefault)
        .map((p: { id: string }) => p.id);
    expect(await defaults()).toEqual([second.id]);

    const set = await h.graphql(
      apiKey,
      `mutation($id: ID!) { setDefaultCancellationPolicy(id: $id) { id isDefault } }`,
      { id: third.id },
    );
    expect(set.body.data.setDefaultCancellationPolicy).toEqual({ id: third.id, isDefault: true });
    expect(await defaults()).toEqual([third.id]);

    await h.graphql(apiKey, `mutation($id: ID!) { updateCancellationPolicy(id: $id, isDefault: false) { id } }`, {
      id: third.id,
    });
    expect(await defaults()).toEqual([]);
  });

  it('stay at one default when two requests set different defaults at once', async () => {
    const { apiKey, tenantId } = await buildVenue(h);
    const policies = [];
    for (const name of ['A', 'B', 'C', 'D'])
      policies.push(await buildCancellationPolicy(h, tenantId, { name, tiers: STANDARD }));
    const results = await Promise.all(
      policies.map((p) =>
        h.graphql(apiKey, `mutation($id: ID!) { setDefaultCancellationPolicy(id: $id) { id } }`, { id: p.id }),
      ),
    );
    for (const res of results) {
      // Either it became the default (and may have been replaced since), or it was told to retry.
      if (res.body.errors) expect(res.body.errors[0].extensions.code).toBe('CONFLICT');
    }
    const list = await h.graphql(apiKey, `{ cancellationPolicies { isDefault } }`);
    expect(list.body.data.cancellationPolicies.filter((p: { isDefault: boolean }) => p.isDefault)).toHaveLength(1);
  });

  it('refuse invalid tiers naming the field', async () => {
    const { apiKey } = await buildVenue(h);
    const res = await h.graphql(
      apiKey,
      `mutation { createCancellationPolicy(name: "Bad", tiers: [{hoursBeforeStart: 24, refundPercent: 150}]) { id } }`,
    );
    expect(res.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'tiers[0].refundPercent' }],
    });
  });

  it('need pricing:read to list', async () => {
    const { tenantId } = await buildVenue(h);
    const bookingsOnly = await h.key(tenantId, ['bookings:read']);
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${tenantId}/cancellation-policies`,
      apiKey: bookingsOnly,
    });
    expect(res.status).toBe(403);
  });
});

describe('cancelling a booking refunds by the default policy', () => {
  // The booking starts 2026-11-21T16:00Z and costs 4000.
  async function bookedVenue(tiers?: typeof STANDARD) {
    h.clock.set('2026-11-10T09:00:00Z');
    const venue = await buildVenue(h, { pricePerHour: 2000 });
    if (tiers) await buildCancellationPolicy(h, venue.tenantId, { isDefault: true, tiers });
    const created = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${venue.tenantId}/bookings`,
      apiKey: venue.apiKey,
      body: {
        objectId: venue.object.id,
        guestName: 'Ada',
        guestEmail: 'ada@example.com',
        startTime: '2026-11-21T16:00:00Z',
        endTime: '2026-11-21T18:00:00Z',
      },
    });
    expect(created.status).toBe(201);
    return { ...venue, bookingId: created.body.booking.id as string };
  }

  async function cancelAt(venue: Awaited<ReturnType<typeof bookedVenue>>, now: string) {
    h.clock.set(now);
    const res = await h.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${venue.tenantId}/bookings/${venue.bookingId}`,
      apiKey: venue.apiKey,
      body: { status: 'CANCELLED' },
    });
    expect(res.status).toBe(200);
    return res.body;
  }

  it.each([
    ['72 hours ahead: the 48-hour tier', '2026-11-18T16:00:00Z', 4000],
    ['exactly 48 hours ahead', '2026-11-19T16:00:00Z', 4000],
    ['30 hours ahead: the 24-hour tier', '2026-11-20T10:00:00Z', 2000],
    ['2 hours ahead: the 0-hour tier', '2026-11-21T14:00:00Z', 0],
  ])('%s', async (_, now, refund) => {
    const venue = await bookedVenue(STANDARD);
    const body = await cancelAt(venue, now);
    expect(body.refundAmount).toBe(refund);
    expect(body.booking).toMatchObject({ status: 'CANCELLED', refundAmount: refund });
  });

  it('no tier at or below the notice: no refund', async () => {
    const venue = await bookedVenue([{ hoursBeforeStart: 24, refundPercent: 100 }]);
    expect((await cancelAt(venue, '2026-11-21T04:00:00Z')).refundAmount).toBe(0);
  });

  it('no default policy: a full refund', async () => {
    const venue = await bookedVenue();
    expect((await cancelAt(venue, '2026-11-21T15:00:00Z')).refundAmount).toBe(4000);
  });
});

describe('cancellationQuote tells the refund before cancelling', () => {
  const QUOTE =
    'query($id: ID!) { cancellationQuote(bookingId: $id) { bookingId refundAmount totalPrice currency policyName } }';

  async function booked(withPolicy: boolean) {
    h.clock.set('2026-11-10T09:00:00Z');
    const venue = await buildVenue(h, { pricePerHour: 2000 });
    if (withPolicy)
      await buildCancellationPolicy(h, venue.tenantId, { name: 'Standard', isDefault: true, tiers: STANDARD });
    const created = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${venue.tenantId}/bookings`,
      apiKey: venue.apiKey,
      body: {
        objectId: venue.object.id,
        guestName: 'Ada',
        guestEmail: 'ada@example.com',
        startTime: '2026-11-21T16:00:00Z',
        endTime: '2026-11-21T18:00:00Z',
      },
    });
    expect(created.status).toBe(201);
    return { ...venue, bookingId: created.body.booking.id as string };
  }

  it('gives the same refund the cancellation then gives, and changes nothing', async () => {
    const venue = await booked(true);
    h.clock.set('2026-11-20T10:00:00Z');
    const readOnly = await h.key(venue.tenantId, ['bookings:read']);
    const quote = await h.graphql(readOnly, QUOTE, { id: venue.bookingId });
    expect(quote.body.errors).toBeUndefined();
    expect(quote.body.data.cancellationQuote).toEqual({
      bookingId: venue.bookingId,
      refundAmount: 2000,
      totalPrice: 4000,
      currency: 'EUR',
      policyName: 'Standard',
    });
    const still = await h.graphql(readOnly, 'query($id: ID!) { booking(id: $id) { status refundAmount } }', {
      id: venue.bookingId,
    });
    expect(still.body.data.booking).toEqual({ status: 'PENDING', refundAmount: null });

    const cancelled = await h.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${venue.tenantId}/bookings/${venue.bookingId}`,
      apiKey: venue.apiKey,
      body: { status: 'CANCELLED' },
    });
    expect(cancelled.body.refundAmount).toBe(2000);
  });

  it('without a default policy: a full refund and no policy name', async () => {
    const venue = await booked(false);
    const quote = await h.graphql(venue.apiKey, QUOTE, { id: venue.bookingId });
    expect(quote.body.data.cancellationQuote).toMatchObject({ refundAmount: 4000, policyName: null });
  });

  it('a booking that can no longer be cancelled is a conflict; another tenant’s is not found', async () => {
    const venue = await booked(true);
    await h.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${venue.tenantId}/bookings/${venue.bookingId}`,
      apiKey: venue.apiKey,
      body: { status: 'CANCELLED' },
    });
    const again = await h.graphql(venue.apiKey, QUOTE, { id: venue.bookingId });
    expect(again.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'invalid_transition' });

    const other = await h.tenant('Other club');
    const foreign = await h.graphql(other.apiKey, QUOTE, { id: venue.bookingId });
    expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND' });
  });
});
