import type { AppDeps } from '../../kernel/deps.js';
import type { Executor } from '../../kernel/db/index.js';
import type { CancellationTier } from '../../kernel/db/types.js';
import type { FieldError } from '../../kernel/errors.js';
import { DomainError } from '../../kernel/errors.js';
import { negotiateLocale, type Locale } from '../../kernel/i18n.js';
import {
  availabilityOn,
  latestStart,
  localDateOf,
  type ScheduleSource,
  type ScheduledSlot,
} from '../availability/index.js';
import { listPolicies, type Quote } from '../pricing/index.js';
import { previewPrice } from '../bookings/index.js';
import * as repo from './page.repository.js';
import { durationsOf, freeStarts, type FreeStart } from './page.rules.js';

// What the booking page shows, read for one request: the page and its published objects, the
// chosen object's date bounds, the free starts of the chosen day, the price of the chosen start.

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface Choice {
  objectId?: string;
  date?: string;
  duration?: number;
  start?: string;
}

export interface GuestInput {
  name: string;
  email: string;
  phone: string;
  accepted: boolean;
  pay: 'online' | 'venue' | '';
}

export const NO_GUEST: GuestInput = { name: '', email: '', phone: '', accepted: false, pay: '' };

export interface PageModel {
  locale: Locale;
  page: repo.PageRow;
  embed: boolean;
  objects: repo.PublishedObject[];
  object: repo.PublishedObject | undefined;
  dateBounds: { min: string; max: string } | undefined;
  date: string | undefined;
  durations: number[];
  duration: number | undefined;
  /** null: no object or day chosen yet. */
  starts: FreeStart[] | null;
  start: FreeStart | undefined;
  quote: Quote | null;
  policyTiers: CancellationTier[] | null;
  guest: GuestInput;
  errors: FieldError[];
  /** A message about the whole form (a refused or taken booking). */
  formError?: string;
  challenge: string;
}

/** The enabled page with this slug; undefined for a missing or disabled one (both 404). */
export async function openPage(db: Executor, slug: string): Promise<repo.PageRow | undefined> {
  if (!/^[a-z0-9-]{1,48}$/.test(slug)) return undefined;
  const page = await repo.findPageBySlug(db, slug);
  return page?.enabled ? page : undefined;
}

export function localeFor(
  page: Pick<repo.PageRow, 'default_locale'> | undefined,
  acceptLanguage: string | undefined,
  choice: unknown,
): Locale {
  return negotiateLocale(acceptLanguage, {
    choice: typeof choice === 'string' ? choice : null,
    fallback: page?.default_locale ?? 'en',
  });
}

export function dateBoundsOf(object: repo.PublishedObject, now: Date): { min: string; max: string } {
  const zone = object.time_zone;
  return {
    min: localDateOf(new Date(now.getTime() + object.min_advance_minutes * 60_000), zone),
    max: localDateOf(latestStart(now, zone, object.max_advance_days), zone),
  };
}

/** The free starts of `object` on `date` for `duration` minutes: one availability statement. */
export async function startsOn(
  db: Executor,
  deps: AppDeps,
  tenantId: string,
  object: repo.PublishedObject,
  date: string,
  duration: number,
): Promise<FreeStart[]> {
  // availabilityOn answers the slots in the order of the day's grid; the grid (with its instants)
  // is the one it asked the slot cache for.
  let grid: readonly ScheduledSlot[] = [];
  const capture: ScheduleSource = (...args) => (grid = deps.slotSchedules.get(...args));
  const day = await availabilityOn(
    db,
    tenantId,
    deps.now(),
    { date, objectId: object.id, accommodationId: null },
    capture,
  );
  return freeStarts(grid, day.objects[0]?.slots ?? [], duration);
}

export interface ModelRequest {
  locale: Locale;
  embed: boolean;
  choice: Choice;
  guest?: GuestInput;
  errors?: FieldError[];
  formError?: string;
}

/** Everything the page shows for `request`; a choice that no longer fits (an unpublished object, a day out of range) is dropped. */
export async function buildModel(deps: AppDeps, page: repo.PageRow, request: ModelRequest): Promise<PageModel> {
  const db = deps.database.db;
  const now = deps.now();
  const [objects, policies] = await Promise.all([
    repo.publishedObjects(db, page.tenant_id),
    listPolicies(db, page.tenant_id),
  ]);
  const object = objects.find((o) => o.id === request.choice.objectId) ?? (objects.length ? objects[0] : undefined);
  const dateBounds = object ? dateBoundsOf(object, now) : undefined;
  let date = request.choice.date;
  if (!dateBounds || !date || !LOCAL_DATE.test(date) || date < dateBounds.min || date > dateBounds.max)
    date = dateBounds?.min;
  const durations = object ? durationsOf(object) : [];
  const duration = durations.find((d) => d === request.choice.duration) ?? durations[0];
  const starts = object && date && duration ? await startsOn(db, deps, page.tenant_id, object, date, duration) : null;
  const start = starts?.find((s) => s.start.toISOString() === request.choice.start);
  let quote: Quote | null = null;
  if (object && start) {
    try {
      quote = await previewPrice(
        db,
        page.tenant_id,
        { objectId: object.id, startTime: start.start, endTime: start.end },
        now,
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  const policy = policies.find((p) => p.is_default);
  return {
    locale: request.locale,
    page,
    embed: request.embed,
    objects,
    object,
    dateBounds,
    date,
    durations,
    duration,
    starts,
    start,
    quote,
    policyTiers: policy ? policy.tiers : null,
    guest: request.guest ?? NO_GUEST,
    errors: request.errors ?? [],
    formError: request.formError,
    challenge: deps.bookingGuard.challenge(page.tenant_id, now).token,
  };
}
