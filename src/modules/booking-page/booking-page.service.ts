import type { Executor } from '../../kernel/db/index.js';
import type { BookingPageTexts } from '../../kernel/db/types.js';
import { DomainError } from '../../kernel/errors.js';
import * as repo from './booking-page.repository.js';
import type { BookingPageRow, PageValues } from './booking-page.repository.js';
import type { UpdateBookingPageSettings } from './booking-page.commands.js';
import { LANGUAGES, TEXT_KEYS, type Language } from './booking-page.rules.js';
import type { BookingPageSettingsView } from './views.js';

// The venue's booking page settings (docs/booking-page.md, "Settings"): read and saved with no
// restart. A tenant that never saved them has no row: the defaults below, with no slug, page off.

export type { BookingPageSettingsView } from './views.js';

const emptyTexts = (): Record<Language, Record<string, string>> => ({ en: {}, de: {} });

/** The stored texts, keeping only the known languages and keys (a hand-edited row cannot add others). */
function textsOf(stored: BookingPageTexts | null | undefined): Record<Language, Record<string, string>> {
  const texts = emptyTexts();
  for (const language of LANGUAGES) {
    const set = stored?.[language] ?? {};
    for (const key of TEXT_KEYS) {
      const value = set[key];
      if (typeof value === 'string' && value !== '') texts[language][key] = value;
    }
  }
  return texts;
}

export function settingsOfRow(row: BookingPageRow | undefined): BookingPageSettingsView {
  if (!row)
    return {
      saved: false,
      enabled: false,
      slug: null,
      paymentMode: 'at_venue',
      allowedOrigins: [],
      logo: null,
      accentColour: null,
      defaultLocale: 'en',
      texts: emptyTexts(),
      vatRateBasisPoints: null,
      updatedAt: null,
    };
  return {
    saved: true,
    enabled: row.enabled,
    slug: row.slug,
    paymentMode: row.payment_mode,
    allowedOrigins: [...row.allowed_origins],
    logo: row.logo,
    accentColour: row.accent_colour,
    defaultLocale: row.default_locale,
    texts: textsOf(row.texts),
    vatRateBasisPoints: row.vat_rate_basis_points,
    updatedAt: row.updated_at,
  };
}

export async function bookingPageSettings(db: Executor, tenantId: string): Promise<BookingPageSettingsView> {
  return settingsOfRow(await repo.findPage(db, tenantId));
}

const UNIQUE_VIOLATION = '23505';
const slugTaken = (slug: string) =>
  new DomainError('CONFLICT', 'slug_taken', `slug: ${slug} is already the address of another booking page`, {
    fieldErrors: [{ field: 'slug', message: 'is already taken by another booking page' }],
  });

/**
 * Saves the fields given (parseUpdateBookingPageSettings); a field left out keeps its value. The
 * first save must name a slug. Online payment is refused while the server has no payment provider
 * (`onlinePayment`). Returns the settings before and after, for the audit entry. `trx`: the
 * caller's transaction.
 */
export async function updateBookingPageSettings(
  trx: Executor,
  tenantId: string,
  command: UpdateBookingPageSettings,
  options: { onlinePayment: boolean; now: Date },
): Promise<{ before: BookingPageSettingsView; after: BookingPageSettingsView }> {
  const current = await repo.findPage(trx, tenantId, true);
  const before = settingsOfRow(current);
  const slug = command.slug ?? before.slug;
  if (slug === null)
    throw new DomainError(
      'BAD_USER_INPUT',
      'validation_failed',
      'slug: is required the first time the booking page is saved',
      {
        fieldErrors: [{ field: 'slug', message: 'is required the first time the booking page is saved' }],
      },
    );
  const paymentMode = command.paymentMode ?? before.paymentMode;
  // Only a change to an online mode is refused: a page saved while the provider was configured keeps working.
  if (command.paymentMode !== undefined && paymentMode !== 'at_venue' && !options.onlinePayment)
    throw new DomainError(
      'BAD_USER_INPUT',
      'payment_provider_missing',
      `paymentMode: ${paymentMode.toUpperCase()} needs online payment, which this server has not configured (STRIPE_SECRET_KEY); choose AT_VENUE`,
      {
        fieldErrors: [
          { field: 'paymentMode', message: 'needs a payment provider (none is configured); choose AT_VENUE' },
        ],
      },
    );
  if (slug !== before.slug) {
    const owner = await repo.tenantOfSlug(trx, slug);
    if (owner !== undefined && owner !== tenantId) throw slugTaken(slug);
  }
  // Each language's texts with the changes applied: a string sets a key, null removes it.
  const texts = Object.fromEntries(
    LANGUAGES.map((language) => [
      language,
      Object.fromEntries(
        Object.entries({ ...before.texts[language], ...command.texts?.[language] }).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      ),
    ]),
  );
  const values: PageValues = {
    enabled: command.enabled ?? before.enabled,
    slug,
    payment_mode: paymentMode,
    allowed_origins: command.allowedOrigins ?? before.allowedOrigins,
    logo: command.logo !== undefined ? command.logo : before.logo,
    accent_colour: command.accentColour !== undefined ? command.accentColour : before.accentColour,
    default_locale: command.defaultLocale ?? before.defaultLocale,
    texts,
    vat_rate_basis_points:
      command.vatRateBasisPoints !== undefined ? command.vatRateBasisPoints : before.vatRateBasisPoints,
  };
  let row: BookingPageRow;
  try {
    row = await repo.upsertPage(trx, tenantId, values, options.now);
  } catch (error) {
    // Another venue took the slug between the check and the write.
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw slugTaken(slug);
    throw error;
  }
  return { before, after: settingsOfRow(row) };
}

/** What the audit entry of a save records: the fields that changed, the logo as its length only. */
export function settingsChanges(
  before: BookingPageSettingsView,
  after: BookingPageSettingsView,
): Record<string, unknown> {
  const changed: Record<string, { from: unknown; to: unknown }> = {};
  const shown = (key: keyof BookingPageSettingsView, value: unknown) =>
    key === 'logo' && typeof value === 'string' ? `data: URL, ${value.length} characters` : value;
  for (const key of Object.keys(after) as (keyof BookingPageSettingsView)[]) {
    if (key === 'updatedAt' || key === 'saved') continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      changed[key] = { from: shown(key, before[key]), to: shown(key, after[key]) };
  }
  return { changed };
}

/** The page of a tenant as the public fields see it: refused (404) while there is none or it is off. */
export async function enabledPage(db: Executor, tenantId: string): Promise<BookingPageSettingsView & { slug: string }> {
  const settings = settingsOfRow(await repo.findPage(db, tenantId));
  if (!settings.enabled || settings.slug === null)
    throw new DomainError('NOT_FOUND', 'booking_page_disabled', 'This venue’s booking page is not switched on');
  return { ...settings, slug: settings.slug };
}
