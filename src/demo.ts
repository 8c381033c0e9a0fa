import { parseCreateAccommodation, parseCreateObject } from './modules/catalog/index.js';
import type { AppDeps } from './deps.js';
import { createTenant } from './modules/tenants/index.js';
import { createAccommodation, createObject } from './modules/catalog/index.js';
import { SYSTEM_ACTOR, recordAudit } from './modules/audit/index.js';
import { createUser } from './modules/users/index.js';
import { randomToken } from './crypto.js';

/** The demo tenant's admin user (the password is generated at the first start). */
export const DEMO_ADMIN_EMAIL = 'admin@demo.portier.example';

const everyDay = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, { open: '08:00', close: '22:00' }]));

export interface Demo {
  tenantId: string;
  apiKey: string;
  objectIds: string[];
  /** The dashboard's demo admin; the password is shown once and stored only as an Argon2id hash. */
  admin: { email: string; password: string };
}

/**
 * A first start on an empty embedded database creates a demo tenant with one accommodation, two
 * courts and an admin user, so a newcomer can sign in to the dashboard and call the API at once.
 * Returns the key and password (shown once) or null.
 */
export async function seedDemoIfEmpty(deps: AppDeps): Promise<Demo | null> {
  if (deps.database.kind !== 'pglite') return null;
  return deps.database.db.transaction().execute(async (trx) => {
    const any = await trx.selectFrom('tenants').select('id').limit(1).executeTakeFirst();
    if (any) return null;
    const { tenant, apiKey } = await createTenant(trx, 'Demo Sports Club');
    const park = await createAccommodation(
      trx,
      tenant.id,
      parseCreateAccommodation({ name: 'Sportpark Demo', address: 'Hauptstrasse 1, 10115 Berlin', timeZone: 'Europe/Berlin' }),
    );
    const objectIds: string[] = [];
    for (const name of ['Court 1', 'Court 2']) {
      const object = await createObject(trx, tenant.id, parseCreateObject({ accommodationId: park.id, name, pricePerHour: 2000, openingHours: everyDay }));
      objectIds.push(object.id);
    }
    const password = randomToken(12);
    const admin = await createUser(trx, { tenantId: tenant.id, email: DEMO_ADMIN_EMAIL, password, role: 'admin' });
    await recordAudit(trx, {
      tenantId: tenant.id,
      actor: SYSTEM_ACTOR,
      action: 'user.created',
      target: { type: 'user', id: admin.id },
      details: { email: admin.email, role: 'admin', demo: true },
      at: deps.now(),
    });
    return { tenantId: tenant.id, apiKey, objectIds, admin: { email: admin.email, password } };
  });
}
