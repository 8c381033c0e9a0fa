import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// The guest's side (issue #41, docs/booking-page.md):
// - booking_pages: a venue's public booking page and widget, one row per tenant, made when the
//   venue first saves its settings (no row: no page). The slug is the page's address
//   (/book/{slug}), unique across tenants; payment_mode says how guests pay; allowed_origins are
//   the origins the widget may be embedded in; texts are the venue's own guest-facing texts per
//   language ({"en": {...}, "de": {...}}); vat_rate_basis_points prints a VAT line on receipts.
// - objects.published: an object shows on the booking page only when the venue publishes it.
// - bookings.guest_link_version: the manage link (/b/{token}) carries an HMAC of the booking id
//   and this number; raising it revokes every link given out so far.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('booking_pages')
    .addColumn('tenant_id', 'uuid', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('slug', 'text', (c) =>
      c
        .notNull()
        .unique()
        .check(sql`slug ~ '^[a-z0-9]([a-z0-9-]{0,46}[a-z0-9])?$'`),
    )
    .addColumn('payment_mode', 'text', (c) =>
      c
        .notNull()
        .defaultTo('at_venue')
        .check(sql`payment_mode IN ('online_required', 'online_optional', 'at_venue')`),
    )
    .addColumn('allowed_origins', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('logo', 'text', (c) => c.check(sql`length(logo) <= 200000`))
    .addColumn('accent_colour', 'text', (c) => c.check(sql`accent_colour ~ '^#[0-9a-f]{6}$'`))
    .addColumn('default_locale', 'text', (c) =>
      c
        .notNull()
        .defaultTo('en')
        .check(sql`default_locale IN ('en', 'de')`),
    )
    .addColumn('texts', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('vat_rate_basis_points', 'integer', (c) => c.check(sql`vat_rate_basis_points BETWEEN 0 AND 10000`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .alterTable('objects')
    .addColumn('published', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable('bookings')
    .addColumn('guest_link_version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bookings').dropColumn('guest_link_version').execute();
  await db.schema.alterTable('objects').dropColumn('published').execute();
  await db.schema.dropTable('booking_pages').execute();
}
