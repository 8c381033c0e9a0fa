import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import type { BookingPageTexts, BookingPagesTable } from '../../kernel/db/types.js';
import type { Selectable } from 'kysely';

// booking_pages, read and written by the settings (docs/booking-page.md, "Settings"). One row per
// tenant, made by the first save.

export type BookingPageRow = Selectable<BookingPagesTable>;

export async function findPage(db: Executor, tenantId: string, lock = false): Promise<BookingPageRow | undefined> {
  let query = db.selectFrom('booking_pages').selectAll().where('tenant_id', '=', tenantId);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The tenant whose page has this slug, if any. */
export async function tenantOfSlug(db: Executor, slug: string): Promise<string | undefined> {
  const row = await db.selectFrom('booking_pages').select('tenant_id').where('slug', '=', slug).executeTakeFirst();
  return row?.tenant_id;
}

export interface PageValues {
  enabled: boolean;
  slug: string;
  payment_mode: BookingPageRow['payment_mode'];
  allowed_origins: string[];
  logo: string | null;
  accent_colour: string | null;
  default_locale: 'en' | 'de';
  texts: BookingPageTexts;
  vat_rate_basis_points: number | null;
}

export async function upsertPage(
  db: Executor,
  tenantId: string,
  values: PageValues,
  now: Date,
): Promise<BookingPageRow> {
  const row = {
    ...values,
    allowed_origins: sql<string[]>`${sql.val(values.allowed_origins)}::text[]`,
    texts: JSON.stringify(values.texts),
    updated_at: now,
  };
  return db
    .insertInto('booking_pages')
    .values({ tenant_id: tenantId, ...row })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet(row))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Whether an enabled page of any tenant lists `origin` (the CORS preflight, before any key is known). */
export async function originListedAnywhere(db: Executor, origin: string): Promise<boolean> {
  const row = await db
    .selectFrom('booking_pages')
    .select('tenant_id')
    .where('enabled', '=', true)
    .where(sql<boolean>`${origin} = ANY(allowed_origins)`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
