import type { Harness } from './harness.js';
import { createAccommodation, createObject, createDoor } from '../src/modules/catalog/catalog.service.js';
import type { BookingRules } from '../src/modules/catalog/catalog.rules.js';
import type { DayHours } from '../src/db/types.js';
import { createPricingRule } from '../src/modules/pricing/pricing-rules.service.js';
import { createPolicy } from '../src/modules/pricing/cancellation-policies.service.js';
import type { PricingRuleInput } from '../src/modules/pricing/rule-input.js';
import { createWebhook } from '../src/modules/webhooks/webhooks.service.js';
import { createBooking } from '../src/modules/bookings/bookings.service.js';

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

/** A pricing rule of the tenant, created through the service (input as in the flat REST body). */
export async function buildPricingRule(h: Harness, tenantId: string, input: PricingRuleInput) {
  return createPricingRule(h.deps.database.db, tenantId, input);
}

/** A cancellation policy of the tenant; `isDefault` makes it the default. */
export async function buildCancellationPolicy(h: Harness, tenantId: string, input: { name?: string; isDefault?: boolean; tiers: { hoursBeforeStart: number; refundPercent: number }[] }) {
  return h.deps.database.db.transaction().execute((trx) => createPolicy(trx, tenantId, { name: input.name ?? 'Standard', ...input }));
}

export const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** A subscription of the tenant (through the service, so private receivers need the harness's allow-private env). */
export async function buildWebhook(h: Harness, tenantId: string, options: { url: string; events?: string[]; secret?: string }) {
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
      {
        objectId,
        guestName: options.guestName ?? 'Ada Lovelace',
        guestEmail: options.guestEmail ?? 'ada@example.com',
        startTime: options.start,
        endTime: options.end,
      },
      { imported: { status: options.status ?? 'PENDING' } },
    ),
  );
}
