import type { Harness } from './harness.js';
import { createAccommodation, createObject, createDoor } from '../src/modules/catalog/catalog.service.js';
import type { BookingRules } from '../src/modules/catalog/catalog.rules.js';
import type { DayHours } from '../src/db/types.js';
import { registerDevice } from '../src/modules/devices/devices.service.js';

export const EVERY_DAY_8_TO_22: Record<string, DayHours> = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, { open: '08:00', close: '22:00' }]),
);

export interface VenueOptions {
  timeZone?: string;
  pricePerHour?: number;
  openingHours?: Record<string, DayHours>;
  bookingRules?: Partial<BookingRules>;
  objects?: number;
}

/** A tenant with an admin key, one accommodation and `objects` bookable objects. */
export async function buildVenue(h: Harness, options: VenueOptions = {}) {
  const { tenantId, apiKey } = await h.tenant();
  const db = h.deps.database.db;
  const accommodation = await createAccommodation(db, tenantId, {
    name: 'Sportpark Test',
    address: 'Teststrasse 1, 10115 Berlin',
    timeZone: options.timeZone ?? 'Europe/Berlin',
  });
  const objects = [];
  for (let i = 1; i <= (options.objects ?? 1); i += 1) {
    objects.push(
      await createObject(db, tenantId, {
        accommodationId: accommodation.id,
        name: `Court ${i}`,
        pricePerHour: options.pricePerHour ?? 2000,
        openingHours: options.openingHours ?? EVERY_DAY_8_TO_22,
        bookingRules: options.bookingRules,
      }),
    );
  }
  return { tenantId, apiKey, accommodation, objects, object: objects[0] };
}

export async function buildDoor(h: Harness, tenantId: string, objectIds: string[], overrides: { gpioPin?: number; unlockDurationSeconds?: number } = {}) {
  return h.deps.database.db.transaction().execute((trx) =>
    createDoor(trx, tenantId, { name: 'Gate', gpioPin: overrides.gpioPin ?? 17, unlockDurationSeconds: overrides.unlockDurationSeconds ?? 5, objectIds }),
  );
}

/** A registered (not yet activated) device of the tenant for these doors. */
export async function buildDevice(h: Harness, tenantId: string, doorIds: string[], name = 'Gate controller') {
  return h.deps.database.db.transaction().execute((trx) => registerDevice(trx, h.deps, tenantId, { name, doorIds }));
}

/** A registered and activated device: its id and key. */
export async function buildActiveDevice(h: Harness, tenantId: string, doorIds: string[]) {
  const { activationCode } = await buildDevice(h, tenantId, doorIds);
  const res = await h.request({ method: 'POST', url: '/api/devices/activate', body: { activation_code: activationCode, serial: 'SN-1', firmware_version: '1.0.0' } });
  if (res.status !== 200) throw new Error(`activation failed: ${res.text}`);
  return { deviceId: res.body.device_id as string, deviceKey: res.body.device_key as string };
}

export interface BookingOptions {
  tenantId: string;
  apiKey: string;
  objectId: string;
  startTime: string;
  endTime: string;
  /** Moves the new PENDING booking on (e.g. CONFIRMED). */
  status?: 'CONFIRMED' | 'CANCELLED';
}

/** A booking created (and optionally moved on) through REST, as an integrator would. */
export async function buildBooking(h: Harness, o: BookingOptions): Promise<string> {
  const created = await h.request({
    method: 'POST',
    url: `/api/v1/tenants/${o.tenantId}/bookings`,
    apiKey: o.apiKey,
    body: { objectId: o.objectId, guestName: 'Ada', guestEmail: 'ada@example.com', startTime: o.startTime, endTime: o.endTime },
  });
  if (created.status !== 201) throw new Error(`booking failed: ${created.text}`);
  const id = created.body.booking.id as string;
  if (o.status) await setBookingStatus(h, o, id, o.status);
  return id;
}

export async function setBookingStatus(h: Harness, o: { tenantId: string; apiKey: string }, bookingId: string, status: string) {
  const res = await h.request({ method: 'PATCH', url: `/api/v1/tenants/${o.tenantId}/bookings/${bookingId}`, apiKey: o.apiKey, body: { status } });
  if (res.status !== 200) throw new Error(`status change failed: ${res.text}`);
}
