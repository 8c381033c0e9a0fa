import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildPricingRule, buildVenue } from './builders.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

const PEAK = { name: 'Evening peak', type: 'time_based', startTime: '18:00', endTime: '22:00', percent: 25 };

describe('pricing rules over REST', () => {
  it('creates a rule from a flat body (201 {pricingRule}) and lists it', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    const created = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${tenantId}/pricing-rules`,
      apiKey,
      body: { ...PEAK, weekdays: ['friday', 'saturday'], objectIds: [object.id] },
    });
    expect(created.status).toBe(201);
    const rule = created.body.pricingRule;
    expect(rule).toEqual({
      id: expect.any(String),
      name: 'Evening peak',
      type: 'time_based',
      active: true,
      objectIds: [object.id],
      percent: 25,
      startTime: '18:00',
      endTime: '22:00',
      weekdays: ['friday', 'saturday'],
      minDurationMinutes: null,
      minDaysInAdvance: null,
      createdAt: expect.any(String),
    });

    const early = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${tenantId}/pricing-rules`,
      apiKey,
      body: { name: 'Early bird', type: 'early_bird', minDaysInAdvance: 14, percent: -10, active: false },
    });
    expect(early.status).toBe(201);
    expect(early.body.pricingRule).toMatchObject({
      type: 'early_bird',
      active: false,
      objectIds: [],
      startTime: null,
      weekdays: null,
      minDaysInAdvance: 14,
    });

    const list = await h.request({ method: 'GET', url: `/api/v1/tenants/${tenantId}/pricing-rules`, apiKey });
    expect(list.status).toBe(200);
    expect(list.body.pricingRules.map((r: { id: string }) => r.id)).toEqual([rule.id, early.body.pricingRule.id]);
  });

  it.each([
    ['an unknown type', { ...PEAK, type: 'hourly' }, 'type'],
    ['a missing field of the type', { name: 'x', type: 'duration_based', percent: 5 }, 'minDurationMinutes'],
    ['a malformed time', { ...PEAK, startTime: '6pm' }, 'startTime'],
    ['percent out of range', { ...PEAK, percent: -150 }, 'percent'],
    ['a missing percent', { name: 'x', type: 'early_bird', minDaysInAdvance: 3 }, 'percent'],
    ['an unknown object', { ...PEAK, objectIds: ['00000000-0000-4000-8000-00000000abcd'] }, 'objectIds'],
  ])('refuses %s with problem+json naming the field', async (_, body, field) => {
    const { tenantId, apiKey } = await buildVenue(h);
    const res = await h.request({ method: 'POST', url: `/api/v1/tenants/${tenantId}/pricing-rules`, apiKey, body });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it("refuses another tenant's object as unknown", async () => {
    const mine = await buildVenue(h);
    const theirs = await buildVenue(h);
    const res = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${mine.tenantId}/pricing-rules`,
      apiKey: mine.apiKey,
      body: { ...PEAK, objectIds: [theirs.object.id] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'unknown_object', errors: [{ field: 'objectIds' }] });
  });

  it('needs pricing:read to list and pricing:write to create; other tenants get 403', async () => {
    const { tenantId } = await buildVenue(h);
    const other = await buildVenue(h);
    const reader = await h.key(tenantId, ['pricing:read']);
    const bookingsOnly = await h.key(tenantId, ['bookings:read', 'bookings:write']);
    const url = `/api/v1/tenants/${tenantId}/pricing-rules`;
    expect((await h.request({ method: 'GET', url, apiKey: reader })).status).toBe(200);
    expect((await h.request({ method: 'GET', url, apiKey: bookingsOnly })).status).toBe(403);
    const write = await h.request({ method: 'POST', url, apiKey: reader, body: PEAK });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('missing_scope');
    const foreign = await h.request({ method: 'GET', url, apiKey: other.apiKey });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('tenant_mismatch');
    expect((await h.request({ method: 'GET', url })).status).toBe(401);
  });
});

describe('pricing rules over GraphQL', () => {
  const FIELDS = 'id name type active objectIds percent startTime endTime weekdays minDurationMinutes minDaysInAdvance';

  it('creates, updates, deactivates and deletes a rule', async () => {
    const { apiKey } = await buildVenue(h);
    const created = await h.graphql(
      apiKey,
      `mutation { createPricingRule(name: "Weekend", type: "day_based", weekdays: ["sunday", "saturday"], percent: 10) { pricingRule { ${FIELDS} } } }`,
    );
    expect(created.body.errors).toBeUndefined();
    const rule = created.body.data.createPricingRule.pricingRule;
    expect(rule).toMatchObject({ type: 'day_based', weekdays: ['saturday', 'sunday'], percent: 10, active: true });

    const updated = await h.graphql(
      apiKey,
      `mutation($id: ID!) { updatePricingRule(id: $id, type: "duration_based", minDurationMinutes: 120, percent: -10) { ${FIELDS} } }`,
      {
        id: rule.id,
      },
    );
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data.updatePricingRule).toMatchObject({
      name: 'Weekend',
      type: 'duration_based',
      weekdays: null,
      minDurationMinutes: 120,
      percent: -10,
    });

    const deactivated = await h.graphql(apiKey, `mutation($id: ID!) { deactivatePricingRule(id: $id) { active } }`, {
      id: rule.id,
    });
    expect(deactivated.body.data.deactivatePricingRule.active).toBe(false);

    const list = await h.graphql(apiKey, `{ pricingRules { id active } }`);
    expect(list.body.data.pricingRules).toEqual([{ id: rule.id, active: false }]);

    const deleted = await h.graphql(apiKey, `mutation($id: ID!) { deletePricingRule(id: $id) }`, { id: rule.id });
    expect(deleted.body.data.deletePricingRule).toBe(true);
    const again = await h.graphql(apiKey, `mutation($id: ID!) { deletePricingRule(id: $id) }`, { id: rule.id });
    expect(again.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('reports invalid updates as BAD_USER_INPUT with the field', async () => {
    const { tenantId, apiKey } = await buildVenue(h);
    const rule = await buildPricingRule(h, tenantId, PEAK);
    const res = await h.graphql(apiKey, `mutation($id: ID!) { updatePricingRule(id: $id, endTime: "25:00") { id } }`, {
      id: rule.id,
    });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field: 'endTime' }] });
  });

  it("does not touch another tenant's rule", async () => {
    const mine = await buildVenue(h);
    const theirs = await buildVenue(h);
    const rule = await buildPricingRule(h, theirs.tenantId, PEAK);
    const res = await h.graphql(mine.apiKey, `mutation($id: ID!) { deactivatePricingRule(id: $id) { id } }`, {
      id: rule.id,
    });
    expect(res.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
