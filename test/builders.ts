import {
  parseCreateAccommodation,
  parseCreateDoor,
  parseCreateObject,
} from '../src/modules/catalog/catalog.commands.js';
import { parseRegisterDevice } from '../src/modules/devices/devices.commands.js';
import { expect } from 'vitest';
import type { Harness } from './harness.js';
import { createAccommodation, createObject, createDoor } from '../src/modules/catalog/catalog.service.js';
import type { BookingRules } from '../src/modules/catalog/catalog.rules.js';
import type { DayHours } from '../src/kernel/db/types.js';
import { createPricingRule } from '../src/modules/pricing/pricing-rules.service.js';
import { createPolicy } from '../src/modules/pricing/cancellation-policies.service.js';
import { parseCreatePolicy } from '../src/modules/pricing/cancellation-policies.commands.js';
import { parsePricingRule, type PricingRuleInput } from '../src/modules/pricing/rule-input.js';
import { createWebhook } from '../src/modules/webhooks/webhooks.service.js';
import { createBooking } from '../src/modules/bookings/bookings.service.js';
import { parseCreateBooking } from '../src/modules/bookings/bookings.commands.js';
import { registerDevice } from '../src/modules/devices/devices.service.js';
import { solveChallenge } from '../src/modules/booking-page/pow.js';

export const EVERY_DAY_8_TO_22: Record<string, DayHours> = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    { open: '08:00', close: '22:00' },
  ]),
);

export interface VenueOptions {
  timeZone?: string;
  pricePerHour?: number;
  openingHours?: Record<string, DayHours>;
  bookingRules?: Partial<BookingRules>;
  objects?: number;
  /** The tenant to furnish (e.g. a sandbox and its test key); default: a new one. */
  tenant?: { tenantId: string; apiKey: string };
}

/** A tenant with an admin key, one accommodation and `objects` bookable objects. */
export async function buildVenue(h: Harness, options: VenueOptions = {}) {
  const { tenantId, apiKey } = options.tenant ?? (await h.tenant());
  const db = h.deps.database.db;
  const accommodation = await createAccommodation(
    db,
    tenantId,
    parseCreateAccommodation({
      name: 'Sportpark Test',
      address: 'Teststrasse 1, 10115 Berlin',
      timeZone: options.timeZone ?? 'Europe/Berlin',
    }),
  );
  const objects = [];
  for (let i = 1; i <= (options.objects ?? 1); i += 1) {
    objects.push(
      await createObject(
        db,
        tenantId,
        parseCreateObject({
          accommodationId: accommodation.id,
          name: `Court ${i}`,
          pricePerHour: options.pricePerHour ?? 2000,
          openingHours: options.openingHours ?? EVERY_DAY_8_TO_22,
          bookingRules: options.bookingRules,
        }),
      ),
    );
  }
  return { tenantId, apiKey, accommodation, objects, object: objects[0] };
}

export async function buildDoor(
  h: Harness,
  tenantId: string,
  objectIds: string[],
  overrides: { gpioPin?: number; unlockDurationSeconds?: number } = {},
) {
  return h.deps.database.db.transaction().execute((trx) =>
    createDoor(
      trx,
      tenantId,
      parseCreateDoor({
        name: 'Gate',
        gpioPin: overrides.gpioPin ?? 17,
        unlockDurationSeconds: overrides.unlockDurationSeconds ?? 5,
        objectIds,
      }),
    ),
  );
}

/** A pricing rule of the tenant, created through the service (input as in the flat REST body). */
export async function buildPricingRule(h: Harness, tenantId: string, input: PricingRuleInput) {
  return createPricingRule(h.deps.database.db, tenantId, parsePricingRule(input));
}

/** A cancellation policy of the tenant; `isDefault` makes it the default. */
export async function buildCancellationPolicy(
  h: Harness,
  tenantId: string,
  input: { name?: string; isDefault?: boolean; tiers: { hoursBeforeStart: number; refundPercent: number }[] },
) {
  return h.deps.database.db
    .transaction()
    .execute((trx) => createPolicy(trx, tenantId, parseCreatePolicy({ name: input.name ?? 'Standard', ...input })));
}

export const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** A subscription of the tenant (through the service, so private receivers need the harness's allow-private env). */
export async function buildWebhook(
  h: Harness,
  tenantId: string,
  options: { url: string; events?: string[]; secret?: string },
) {
  return createWebhook(h.deps.database.db, h.deps, tenantId, {
    url: options.url,
    events: options.events ?? ['booking.created', 'booking.confirmed', 'booking.cancelled', 'booking.completed'],
    secret: options.secret ?? WEBHOOK_SECRET,
  });
}

/** The start of a one-hour slot `days` from now at 10:00 UTC (inside EVERY_DAY_8_TO_22 in Berlin). */
export function slotInDays(days: number, hourUtc = 10): { startTime: string; endTime: string } {
  const start = new Date();
  start.setUTCDate(start.getUTCDate() + days);
  start.setUTCHours(hourUtc, 0, 0, 0);
  return { startTime: start.toISOString(), endTime: new Date(start.getTime() + 3600_000).toISOString() };
}

export interface BookingOptions {
  start: string;
  end: string;
  status?: 'PENDING' | 'CONFIRMED' | 'CANCELLED' | 'COMPLETED';
  guestName?: string;
  guestEmail?: string;
}

/**
 * A booking written straight through the service's import path: any status, any time (no hours or
 * rules, no event), but still under the no-overlap constraint.
 */
export async function buildBooking(h: Harness, tenantId: string, objectId: string, options: BookingOptions) {
  return h.deps.database.db.transaction().execute((trx) =>
    createBooking(
      trx,
      h.deps,
      tenantId,
      parseCreateBooking({
        objectId,
        guestName: options.guestName ?? 'Ada Lovelace',
        guestEmail: options.guestEmail ?? 'ada@example.com',
        startTime: options.start,
        endTime: options.end,
      }),
      { imported: { status: options.status ?? 'PENDING' } },
    ),
  );
}

export interface PendingBookingOptions {
  /** The app the booking is made through (an ownApp with a payment provider); default: the harness's. */
  via?: Pick<Harness, 'request'>;
  /** The venue's object price per hour in cents (default 2050: 2 h = €41.00). */
  pricePerHour?: number;
  /** Default 2026-11-21 09:00–11:00 UTC (the tests' clock stands at 2026-11-20). */
  start?: string;
  end?: string;
  guestPhone?: string;
  locale?: 'EN' | 'DE';
}

/**
 * A PENDING, unpaid booking made through the public REST API (POST /api/v1/tenants/{t}/bookings)
 * on a venue of its own, with its payment link: the booking, the venue and the link's path
 * (/pay/{token}).
 */
export async function buildPendingBooking(h: Harness, options: PendingBookingOptions = {}) {
  const v = await buildVenue(h, { pricePerHour: options.pricePerHour ?? 2050 });
  const res = await (options.via ?? h).request({
    method: 'POST',
    url: `/api/v1/tenants/${v.tenantId}/bookings`,
    apiKey: v.apiKey,
    body: {
      objectId: v.object.id,
      guestName: 'Ada Lovelace',
      guestEmail: 'ada@example.com',
      ...(options.guestPhone ? { guestPhone: options.guestPhone } : {}),
      startTime: options.start ?? '2026-11-21T09:00:00Z',
      endTime: options.end ?? '2026-11-21T11:00:00Z',
      ...(options.locale ? { locale: options.locale } : {}),
    },
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body.booking.status).toBe('PENDING');
  const booking = res.body.booking as { id: string; paymentUrl: string; reference: string; totalPrice: number };
  return { v, booking, path: new URL(booking.paymentUrl).pathname };
}

/** A registered (not yet activated) device of the tenant for these doors. */
export async function buildDevice(h: Harness, tenantId: string, doorIds: string[], name = 'Gate controller') {
  return h.deps.database.db
    .transaction()
    .execute((trx) => registerDevice(trx, h.deps, tenantId, parseRegisterDevice({ name, doorIds })));
}

/** A registered and activated device: its id and key. */
export async function buildActiveDevice(h: Harness, tenantId: string, doorIds: string[]) {
  const { activationCode } = await buildDevice(h, tenantId, doorIds);
  const res = await h.request({
    method: 'POST',
    url: '/api/devices/activate',
    body: { activation_code: activationCode, serial: 'SN-1', firmware_version: '1.0.0' },
  });
  if (res.status !== 200) throw new Error(`activation failed: ${res.text}`);
  return { deviceId: res.body.device_id as string, deviceKey: res.body.device_key as string };
}

export interface RestBookingOptions {
  tenantId: string;
  apiKey: string;
  objectId: string;
  startTime: string;
  endTime: string;
  /** Moves the new PENDING booking on (e.g. CONFIRMED). */
  status?: 'CONFIRMED' | 'CANCELLED';
}

/** A booking created (and optionally moved on) through REST, as an integrator would. */
export async function bookViaRest(h: Harness, o: RestBookingOptions): Promise<string> {
  const created = await h.request({
    method: 'POST',
    url: `/api/v1/tenants/${o.tenantId}/bookings`,
    apiKey: o.apiKey,
    body: {
      objectId: o.objectId,
      guestName: 'Ada',
      guestEmail: 'ada@example.com',
      startTime: o.startTime,
      endTime: o.endTime,
    },
  });
  if (created.status !== 201) throw new Error(`booking failed: ${created.text}`);
  const id = created.body.booking.id as string;
  if (o.status) await setBookingStatus(h, o, id, o.status);
  return id;
}

export async function setBookingStatus(
  h: Harness,
  o: { tenantId: string; apiKey: string },
  bookingId: string,
  status: string,
) {
  const res = await h.request({
    method: 'PATCH',
    url: `/api/v1/tenants/${o.tenantId}/bookings/${bookingId}`,
    apiKey: o.apiKey,
    body: { status },
  });
  if (res.status !== 200) throw new Error(`status change failed: ${res.text}`);
}

/**
 * A solved proof-of-work challenge for createPublicBooking (what the venue's script does): asked
 * of publicBookingChallenge with the publishable key, solved here. Spread into the input.
 */
export async function solvedChallenge(
  h: Pick<Harness, 'graphql'>,
  publishableKey: string,
): Promise<{ challenge: string; nonce: string }> {
  const res = await h.graphql(publishableKey, '{ publicBookingChallenge { challenge bits expiresAt } }');
  if (res.body.errors) throw new Error(`publicBookingChallenge failed: ${res.text}`);
  const { challenge, bits } = res.body.data.publicBookingChallenge as { challenge: string; bits: number };
  return { challenge, nonce: solveChallenge(challenge, bits) };
}
