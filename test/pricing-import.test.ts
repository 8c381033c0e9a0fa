import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { importCatalog } from '../src/transport/import/import.js';
import { DomainError } from '../src/kernel/errors.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

const accommodations = [
  {
    key: 'park',
    name: 'Sportpark Nord',
    address: 'Hauptstrasse 1, 10115 Berlin',
    timeZone: 'Europe/Berlin',
    objects: [
      { key: 'court1', name: 'Court 1', pricePerHour: 2000 },
      { key: 'court2', name: 'Court 2', pricePerHour: 2500 },
    ],
  },
];

async function importError(tenantId: string, file: unknown): Promise<DomainError> {
  const error = await importCatalog(h.deps, tenantId, file).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('catalog import: pricingRules and cancellationPolicies', () => {
  it('creates rules (objects by file key) and policies, and reports their ids', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const result = await importCatalog(h.deps, tenantId, {
      accommodations,
      pricingRules: [
        { key: 'peak', name: 'Evening peak', type: 'time_based', startTime: '18:00', endTime: '22:00', percent: 25 },
        {
          key: 'court2-weekend',
          name: 'Court 2 weekend',
          type: 'day_based',
          weekdays: ['saturday', 'sunday'],
          percent: 10,
          objects: ['court2'],
        },
      ],
      cancellationPolicies: [
        {
          key: 'std',
          name: 'Standard',
          isDefault: true,
          tiers: [
            { hoursBeforeStart: 24, refundPercent: 100 },
            { hoursBeforeStart: 0, refundPercent: 0 },
          ],
        },
        { key: 'strict', name: 'Strict', tiers: [{ hoursBeforeStart: 72, refundPercent: 50 }] },
      ],
    });
    expect(Object.keys(result.pricingRules)).toEqual(['peak', 'court2-weekend']);
    expect(Object.keys(result.cancellationPolicies)).toEqual(['std', 'strict']);

    const rules = await h.graphql(apiKey, `{ pricingRules { id name objectIds startTime } }`);
    expect(rules.body.data.pricingRules).toEqual([
      { id: result.pricingRules.peak, name: 'Evening peak', objectIds: [], startTime: '18:00' },
      {
        id: result.pricingRules['court2-weekend'],
        name: 'Court 2 weekend',
        objectIds: [result.objects.court2],
        startTime: null,
      },
    ]);
    const policies = await h.graphql(apiKey, `{ cancellationPolicies { id isDefault tiers { hoursBeforeStart } } }`);
    expect(policies.body.data.cancellationPolicies).toEqual([
      {
        id: result.cancellationPolicies.std,
        isDefault: true,
        tiers: [{ hoursBeforeStart: 24 }, { hoursBeforeStart: 0 }],
      },
      { id: result.cancellationPolicies.strict, isDefault: false, tiers: [{ hoursBeforeStart: 72 }] },
    ]);
  });

  it.each([
    [
      'an invalid rule, naming its place in the file',
      { pricingRules: [{ key: 'peak', name: 'Peak', type: 'time_based', startTime: '18:00', percent: 25 }] },
      'pricingRules[peak].endTime',
    ],
    [
      'an unknown object key',
      {
        pricingRules: [
          { key: 'p', name: 'P', type: 'early_bird', minDaysInAdvance: 3, percent: -5, objects: ['court9'] },
        ],
      },
      'pricingRules[p].objects[0]',
    ],
    [
      'an unknown rule field',
      { pricingRules: [{ key: 'p', name: 'P', type: 'early_bird', minDaysInAdvance: 3, percent: -5, discount: 5 }] },
      'pricingRules[p].discount',
    ],
    [
      'invalid tiers',
      { cancellationPolicies: [{ key: 's', name: 'S', tiers: [{ hoursBeforeStart: -1, refundPercent: 100 }] }] },
      'cancellationPolicies[s].tiers[0].hoursBeforeStart',
    ],
    [
      'two default policies',
      {
        cancellationPolicies: [
          { key: 'a', name: 'A', isDefault: true, tiers: [{ hoursBeforeStart: 0, refundPercent: 100 }] },
          { key: 'b', name: 'B', isDefault: true, tiers: [{ hoursBeforeStart: 0, refundPercent: 100 }] },
        ],
      },
      'cancellationPolicies[b].isDefault',
    ],
  ])('refuses %s, importing nothing', async (_, sections, field) => {
    const { tenantId, apiKey } = await h.tenant();
    const error = await importError(tenantId, { accommodations, ...sections });
    expect(error.kind).toBe('BAD_USER_INPUT');
    expect(error.fieldErrors.map((e) => e.field)).toContain(field);
    const after = await h.graphql(apiKey, `{ accommodations { id } pricingRules { id } cancellationPolicies { id } }`);
    expect(after.body.data).toEqual({ accommodations: [], pricingRules: [], cancellationPolicies: [] });
  });
});
