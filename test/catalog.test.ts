import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildVenue } from './builders.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

describe('opening hours and booking rules over REST', () => {
  it('returns the contract shape of opening hours with special dates', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h, { openingHours: { monday: { open: '08:00', close: '22:00' } } });
    const set = await h.graphql(apiKey, `mutation($o: ID!) { setSpecialDate(objectId: $o, date: "2026-12-24", closed: true, reason: "Christmas Eve") { specialDates { date } } }`, {
      o: object.id,
    });
    expect(set.body.errors).toBeUndefined();
    const res = await h.request({ method: 'GET', url: `/api/v1/tenants/${tenantId}/objects/${object.id}/opening-hours`, apiKey });
    expect(res.status).toBe(200);
    expect(res.body.schedule.monday).toEqual({ open: '08:00', close: '22:00' });
    expect(res.body.schedule.tuesday).toBeNull();
    expect(Object.keys(res.body.schedule).sort()).toEqual(['friday', 'monday', 'saturday', 'sunday', 'thursday', 'tuesday', 'wednesday']);
    expect(res.body.specialDates).toEqual([{ date: '2026-12-24', closed: true, reason: 'Christmas Eve', open: null, close: null }]);
  });

  it('returns booking rules with defaults', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h, { bookingRules: { bufferMinutes: 15 } });
    const res = await h.request({ method: 'GET', url: `/api/v1/tenants/${tenantId}/objects/${object.id}/booking-rules`, apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ minDurationMinutes: 60, maxDurationMinutes: 240, slotIncrementMinutes: 60, minAdvanceMinutes: 0, maxAdvanceDays: 365, bufferMinutes: 15 });
  });
});
