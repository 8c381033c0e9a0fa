import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { importCatalog } from '../src/transport/import/import.js';
import { DomainError } from '../src/kernel/errors.js';

// Issue #42, item 5's follow-up: creating accommodations, objects and doors is audited, and so is
// what a catalog file creates (`cli import`): the same actions as the GraphQL mutations, the
// command line as the actor, `details.via: "import"`. All or nothing: a refused file leaves none.

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

const file = (doorObjects: string[]) => ({
  accommodations: [
    {
      key: 'park',
      name: 'Sportpark Nord',
      address: 'Hauptstrasse 1, 10115 Berlin',
      timeZone: 'Europe/Berlin',
      objects: [
        {
          key: 'court1',
          name: 'Court 1',
          pricePerHour: 2000,
          specialDates: [{ date: '2026-12-24', closed: true, reason: 'Christmas Eve' }],
        },
        { key: 'court2', name: 'Court "2" <b>', pricePerHour: 3000 },
      ],
    },
  ],
  doors: [{ key: 'gate', name: 'Main gate', gpioPin: 17, objects: doorObjects }],
  devices: [{ key: 'ctrl', name: 'Gate controller', doors: ['gate'] }],
});

interface Entry {
  action: string;
  targetType: string | null;
  targetId: string | null;
  actor: { type: string; id: string | null; label: string };
  details: Record<string, unknown>;
}

async function auditLogOf(apiKey: string): Promise<Entry[]> {
  const res = await h.graphql(
    apiKey,
    '{ auditLog(first: 100) { edges { node { action targetType targetId actor { type id label } details } } } }',
  );
  expect(res.body.errors, res.text).toBeUndefined();
  return (res.body.data.auditLog.edges as { node: Entry }[]).map((e) => e.node).reverse();
}

describe('catalog import: audit entries', () => {
  it('records what the file created with the mutations’ actions, the command line as actor', async () => {
    const { tenantId, apiKey } = await h.tenant('Import audit');
    const result = await importCatalog(h.deps, tenantId, file(['court1', 'court2']));
    const entries = (await auditLogOf(apiKey)).filter((e) => e.details.via === 'import');
    expect(entries.map((e) => [e.action, e.targetType, e.targetId])).toEqual([
      ['accommodation.created', 'accommodation', result.accommodations.park],
      ['object.created', 'object', result.objects.court1],
      ['object.special_date_set', 'object', result.objects.court1],
      ['object.created', 'object', result.objects.court2],
      ['door.created', 'door', result.doors.gate],
      ['device.registered', 'device', result.devices.ctrl.deviceId],
    ]);
    for (const entry of entries) expect(entry.actor).toEqual({ type: 'cli', id: null, label: 'command line' });
    expect(entries[0].details).toMatchObject({ name: 'Sportpark Nord', timeZone: 'Europe/Berlin' });
    expect(entries[3].details).toMatchObject({ name: 'Court "2" <b>', pricePerHour: 3000 });
    expect(entries[4].details).toMatchObject({
      name: 'Main gate',
      gpioPin: 17,
      objectIds: [result.objects.court1, result.objects.court2],
    });
    expect(entries[5].details).toEqual({ name: 'Gate controller', doorIds: [result.doors.gate], via: 'import' });
    // Never the device's activation code.
    expect(JSON.stringify(entries)).not.toContain(result.devices.ctrl.activationCode);
  });

  it('a refused file creates nothing and records nothing', async () => {
    const { tenantId, apiKey } = await h.tenant('Import audit refused');
    const error = await importCatalog(h.deps, tenantId, file(['court1', 'no-such-court'])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).fieldErrors[0]?.field).toBe('doors[gate].objects[1]');
    expect((await auditLogOf(apiKey)).filter((e) => e.details.via === 'import')).toEqual([]);
  });
});
