import type { AppDeps } from './deps.js';
import { createTenant } from './modules/tenants/index.js';
import { createAccommodation, createObject } from './modules/catalog/index.js';

const everyDay = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, { open: '08:00', close: '22:00' }]));

/**
 * A first start on an empty embedded database creates a demo tenant with one accommodation and
 * two courts, so a newcomer can call the API at once. Returns the key (shown once) or null.
 */
export async function seedDemoIfEmpty(deps: AppDeps): Promise<{ tenantId: string; apiKey: string; objectIds: string[] } | null> {
  if (deps.database.kind !== 'pglite') return null;
  return deps.database.db.transaction().execute(async (trx) => {
    const any = await trx.selectFrom('tenants').select('id').limit(1).executeTakeFirst();
    if (any) return null;
    const { tenant, apiKey } = await createTenant(trx, 'Demo Sports Club');
    const park = await createAccommodation(trx, tenant.id, { name: 'Sportpark Demo', address: 'Hauptstrasse 1, 10115 Berlin', timeZone: 'Europe/Berlin' });
    const objectIds: string[] = [];
    for (const name of ['Court 1', 'Court 2']) {
      const object = await createObject(trx, tenant.id, { accommodationId: park.id, name, pricePerHour: 2000, openingHours: everyDay });
      objectIds.push(object.id);
    }
    return { tenantId: tenant.id, apiKey, objectIds };
  });
}
