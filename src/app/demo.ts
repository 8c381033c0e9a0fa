import { parseCreateAccommodation, parseCreateDoor, parseCreateObject } from '../modules/catalog/index.js';
import type { AppDeps } from '../kernel/deps.js';
import { createTenant } from '../modules/tenants/index.js';
import { createAccommodation, createDoor, createObject } from '../modules/catalog/index.js';
import type { Executor } from '../kernel/db/index.js';
import { SYSTEM_ACTOR, recordAudit } from '../modules/audit/index.js';
import { createUser, parseCreateUser } from '../modules/users/index.js';
import { randomToken } from '../kernel/crypto.js';

/** The demo tenant's admin user (the password is generated at the first start). */
export const DEMO_ADMIN_EMAIL = 'admin@demo.portier.example';
/** The demo tenant's public booking page: /book/sportpark-demo (docs/booking-page.md). */
export const DEMO_BOOKING_PAGE_SLUG = 'sportpark-demo';

const everyDay = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    { open: '08:00', close: '22:00' },
  ]),
);

export interface Demo {
  tenantId: string;
  apiKey: string;
  objectIds: string[];
  /** One door per court (GPIO 17, 27), driven by no device until one is registered and activated for it. */
  doorIds: string[];
  /** The dashboard's demo admin; the password is shown once and stored only as an Argon2id hash. */
  admin: { email: string; password: string };
  /** The slug of its enabled booking page (both courts published, guests pay at the venue). */
  bookingPageSlug: string;
}

/**
 * A first start on an empty embedded database creates a demo tenant with one accommodation, two
 * courts with a door each, a published booking page and an admin user, so a newcomer can sign in to the dashboard, call
 * the API and try the door client at once. Returns the key and password (shown once) or null.
 */
export async function seedDemoIfEmpty(deps: AppDeps): Promise<Demo | null> {
  if (deps.database.kind !== 'pglite') return null;
  return deps.database.db.transaction().execute(async (trx) => {
    const any = await trx.selectFrom('tenants').select('id').limit(1).executeTakeFirst();
    if (any) return null;
    return seedDemo(trx, deps.now());
  });
}

/** The demo tenant itself, in the caller's transaction (seedDemoIfEmpty decides whether to make it). */
export async function seedDemo(trx: Executor, now: Date): Promise<Demo> {
  const { tenant, apiKey } = await createTenant(trx, 'Demo Sports Club');
  const park = await createAccommodation(
    trx,
    tenant.id,
    parseCreateAccommodation({
      name: 'Sportpark Demo',
      address: 'Hauptstrasse 1, 10115 Berlin',
      timeZone: 'Europe/Berlin',
    }),
  );
  const objectIds: string[] = [];
  const doorIds: string[] = [];
  for (const [name, gpioPin] of [
    ['Court 1', 17],
    ['Court 2', 27],
  ] as const) {
    const object = await createObject(
      trx,
      tenant.id,
      parseCreateObject({ accommodationId: park.id, name, pricePerHour: 2000, openingHours: everyDay }),
    );
    objectIds.push(object.id);
    const door = await createDoor(
      trx,
      tenant.id,
      parseCreateDoor({ name: `${name} door`, gpioPin, objectIds: [object.id] }),
    );
    doorIds.push(door.id);
  }
  // Its public booking page, enabled with both courts published: guests book and pay at the venue.
  await trx
    .insertInto('booking_pages')
    .values({
      tenant_id: tenant.id,
      enabled: true,
      slug: DEMO_BOOKING_PAGE_SLUG,
      payment_mode: 'at_venue',
      updated_at: now,
    })
    .execute();
  await trx.updateTable('objects').set({ published: true }).where('tenant_id', '=', tenant.id).execute();
  const password = randomToken(12);
  const admin = await createUser(trx, {
    tenantId: tenant.id,
    ...parseCreateUser({ email: DEMO_ADMIN_EMAIL, password, role: 'admin' }),
  });
  await recordAudit(trx, {
    tenantId: tenant.id,
    actor: SYSTEM_ACTOR,
    action: 'user.created',
    target: { type: 'user', id: admin.id },
    details: { email: admin.email, role: 'admin', demo: true },
    at: now,
  });
  return {
    tenantId: tenant.id,
    apiKey,
    objectIds,
    doorIds,
    admin: { email: admin.email, password },
    bookingPageSlug: DEMO_BOOKING_PAGE_SLUG,
  };
}
