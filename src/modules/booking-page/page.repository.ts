import type { Executor } from '../../kernel/db/index.js';

// The booking page's reads: the page by its slug (with the tenant's name), the tenant's published
// objects and the default cancellation policy's tiers. The venue settings' own reads and writes are
// in booking-page.repository.ts.

export async function findPageBySlug(db: Executor, slug: string) {
  return db
    .selectFrom('booking_pages as p')
    .innerJoin('tenants as t', 't.id', 'p.tenant_id')
    .select([
      'p.tenant_id',
      'p.enabled',
      'p.slug',
      'p.payment_mode',
      'p.allowed_origins',
      'p.logo',
      'p.accent_colour',
      'p.default_locale',
      'p.texts',
      'p.vat_rate_basis_points',
      't.name as venue_name',
    ])
    .where('p.slug', '=', slug)
    .executeTakeFirst();
}
export type PageRow = NonNullable<Awaited<ReturnType<typeof findPageBySlug>>>;

/** The tenant's published objects with their accommodation, in the order the page lists them. */
export async function publishedObjects(db: Executor, tenantId: string) {
  return db
    .selectFrom('objects as o')
    .innerJoin('accommodations as a', (j) =>
      j.onRef('a.tenant_id', '=', 'o.tenant_id').onRef('a.id', '=', 'o.accommodation_id'),
    )
    .select([
      'o.id',
      'o.name',
      'o.price_per_hour',
      'o.min_duration_minutes',
      'o.max_duration_minutes',
      'o.slot_increment_minutes',
      'o.min_advance_minutes',
      'o.max_advance_days',
      'a.name as accommodation_name',
      'a.address as accommodation_address',
      'a.time_zone',
    ])
    .where('o.tenant_id', '=', tenantId)
    .where('o.published', '=', true)
    .orderBy('a.name')
    .orderBy('o.name')
    .orderBy('o.id')
    .execute();
}
export type PublishedObject = Awaited<ReturnType<typeof publishedObjects>>[number];
