import type { Kysely } from 'kysely';
import type { DB } from '../../src/kernel/db/types.js';
import type { Dataset } from '../dataset.js';
import type { Scenario } from '../run.js';

// The public booking page (docs/booking-page.md) at 100 guests a second: its first answer (the
// page with the first object's free times of the first bookable day) and its availability for a
// chosen object and day (what the page's script fetches), each with no credential.

export const BOOKING_PAGE_SLUG = 'bench-venue';
const PUBLISHED = 10;
const RATE = 100;

/** An enabled booking page for the dataset's tenant with its first objects published. */
export const publishedOf = (d: Dataset): string[] => d.objectIds.slice(0, PUBLISHED);

export async function seedBookingPage(db: Kysely<DB>, d: Dataset): Promise<void> {
  await db
    .insertInto('booking_pages')
    .values({ tenant_id: d.tenantId, enabled: true, slug: BOOKING_PAGE_SLUG, payment_mode: 'online_required' })
    .execute();
  await db.updateTable('objects').set({ published: true }).where('id', 'in', publishedOf(d)).execute();
}

export function bookingPageScenarios(d: Dataset): Scenario[] {
  const published = publishedOf(d);
  return [
    {
      name: 'booking page first answer @100/s',
      mode: 'fixed',
      rate: RATE,
      source: () => ({
        method: 'GET',
        path: `/book/${BOOKING_PAGE_SLUG}`,
        headers: { 'accept-language': 'de-DE,de;q=0.9' },
      }),
    },
    {
      name: 'booking page availability (object, day) @100/s',
      mode: 'fixed',
      rate: RATE,
      source: (i) => ({
        method: 'GET',
        path: `/book/${BOOKING_PAGE_SLUG}/choice?object=${published[i % published.length]}&date=${d.busyDate}&duration=60`,
        headers: { accept: 'application/json' },
      }),
    },
  ];
}
