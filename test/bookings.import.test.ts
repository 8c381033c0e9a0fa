import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { importCatalog } from '../src/transport/import/import.js';
import { DomainError } from '../src/kernel/errors.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
beforeEach(() => h.clock.set('2026-11-20T09:00:00Z'));
afterEach(() => h.clock.set(null));

const catalog = (bookings: unknown[]) => ({
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
          openingHours: { monday: { open: '08:00', close: '22:00' } },
        },
        { key: 'court2', name: 'Court 2', pricePerHour: 3000, bookingRules: { bufferMinutes: 30 } },
      ],
    },
  ],
  bookings,
});

const ada = { guestName: 'Ada', guestEmail: 'ada@example.com' };

async function importFails(tenantId: string, file: unknown): Promise<DomainError> {
  try {
    await importCatalog(h.deps, tenantId, file);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('import succeeded');
}

describe('import: bookings section', () => {
  it('keeps status and times, ignores hours and rules, prices as at creation, emits no events', async () => {
    const { tenantId } = await h.tenant();
    const result = await importCatalog(
      h.deps,
      tenantId,
      catalog([
        // in the past, on a Friday (no hours), at night, 90 minutes
        {
          key: 'past',
          object: 'court1',
          ...ada,
          startTime: '2026-11-13T02:15:00Z',
          endTime: '2026-11-13T03:45:00Z',
          status: 'COMPLETED',
        },
        {
          key: 'b1',
          object: 'court1',
          ...ada,
          guestPhone: '+49 30 1234567',
          startTime: '2026-11-20T10:00:00Z',
          endTime: '2026-11-20T11:00:00Z',
          status: 'CONFIRMED',
        },
        {
          key: 'b2',
          object: 'court2',
          guestName: 'Grace',
          guestEmail: 'grace@example.com',
          startTime: '2026-11-20T10:00:00Z',
          endTime: '2026-11-20T12:00:00Z',
        },
        // a cancelled booking may overlap a live one
        {
          key: 'gone',
          object: 'court1',
          ...ada,
          startTime: '2026-11-20T10:00:00Z',
          endTime: '2026-11-20T11:00:00Z',
          status: 'CANCELLED',
        },
      ]),
    );
    expect(Object.keys(result.bookings).sort()).toEqual(['b1', 'b2', 'gone', 'past']);
    const rows = await h.deps.database.db
      .selectFrom('bookings')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(result.bookings.past)).toMatchObject({
      status: 'COMPLETED',
      total_price: 3000,
      object_id: result.objects.court1,
    });
    expect(byId.get(result.bookings.past)!.start_time.toISOString()).toBe('2026-11-13T02:15:00.000Z');
    expect(byId.get(result.bookings.b1)).toMatchObject({
      status: 'CONFIRMED',
      total_price: 2000,
      guest_phone: '+49 30 1234567',
    });
    expect(byId.get(result.bookings.b2)).toMatchObject({ status: 'PENDING', total_price: 6000 });
    expect(byId.get(result.bookings.b2)!.blocked_until.toISOString()).toBe('2026-11-20T12:30:00.000Z');
    expect(byId.get(result.bookings.gone)!.status).toBe('CANCELLED');
    const events = await h.deps.database.db
      .selectFrom('events')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .execute();
    expect(events).toEqual([]);
  });

  it('refuses overlapping live bookings (including the buffer) and imports nothing', async () => {
    const { tenantId } = await h.tenant();
    const error = await importFails(
      tenantId,
      catalog([
        {
          key: 'a',
          object: 'court2',
          ...ada,
          startTime: '2026-11-20T10:00:00Z',
          endTime: '2026-11-20T11:00:00Z',
          status: 'CONFIRMED',
        },
        {
          key: 'b',
          object: 'court2',
          ...ada,
          startTime: '2026-11-20T11:00:00Z',
          endTime: '2026-11-20T12:00:00Z',
          status: 'PENDING',
        },
      ]),
    );
    expect(error.status).toBe(409);
    expect(error.code).toBe('slot_unavailable');
    expect(error.message).toContain('bookings[b]');
    const accommodations = await h.deps.database.db
      .selectFrom('accommodations')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .execute();
    expect(accommodations).toEqual([]);
  });

  it.each([
    ['an unknown object key', { object: 'court9' }, 'bookings[x].object'],
    ['an unknown status', { status: 'PAID' }, 'bookings[x].status'],
    ['an unknown field', { price: 10 }, 'bookings[x].price'],
    ['an invalid email', { guestEmail: 'nope' }, 'bookings[x].guestEmail'],
    ['a time without offset', { startTime: '2026-11-20T10:00:00' }, 'bookings[x].startTime'],
    ['an end before the start', { endTime: '2026-11-20T09:00:00Z' }, 'bookings[x].endTime'],
  ])('refuses %s, naming the place in the file', async (_name, overrides, field) => {
    const { tenantId } = await h.tenant();
    const error = await importFails(
      tenantId,
      catalog([
        {
          key: 'x',
          object: 'court1',
          ...ada,
          startTime: '2026-11-20T10:00:00Z',
          endTime: '2026-11-20T11:00:00Z',
          ...overrides,
        },
      ]),
    );
    expect(error.status).toBe(400);
    expect(error.fieldErrors.map((f) => f.field)).toContain(field);
  });
});
