import type { Executor } from '../../kernel/db/index.js';
import type { AppDeps } from '../../kernel/deps.js';
import type { ObjectRow } from '../../kernel/db/types.js';
import { DomainError, invalid, notFound } from '../../kernel/errors.js';
import * as catalog from '../catalog/index.js';
import { cursorPageRows, type CursorPage } from '../../kernel/paging.js';
import { availabilityOn } from '../availability/index.js';
import { createBookingOfObject, manageUrl, paymentUrlOf, previewPrice, type PricePreview } from '../bookings/index.js';
import { getTenant } from '../tenants/index.js';
import { enabledPage, type BookingPageSettingsView } from './booking-page.service.js';
import type { CreatePublicBooking } from './booking-page.commands.js';
import type { PublicBookingPageView, PublicBookingView, PublicObjectView } from './views.js';

export type { PublicBookingPageView, PublicBookingView, PublicObjectView } from './views.js';

// What a publishable key (svc_pk_…) may read and do (docs/booking-page.md, "Publishable key"):
// the public parts of the tenant's booking page, its published objects, their slots and prices,
// and PENDING bookings of them. Every call starts from the enabled page; an object that is not
// published is as unknown as another tenant's (404).

export async function publicBookingPage(db: Executor, tenantId: string): Promise<PublicBookingPageView> {
  const settings = await enabledPage(db, tenantId);
  const tenant = await getTenant(db, tenantId);
  return { tenantId, name: tenant.name, settings };
}

export async function publicObjects(db: Executor, tenantId: string): Promise<PublicObjectView[]> {
  await enabledPage(db, tenantId);
  return withAccommodations(
    db,
    tenantId,
    (await catalog.listObjects(db, tenantId)).filter((o) => o.published),
  );
}

export const PUBLIC_OBJECT_CURSOR = 'public-object';

/** The published objects after a cursor (cursor paging of the REST list), by name then id. */
export async function publicObjectPage(
  db: Executor,
  tenantId: string,
  cursor: CursorPage<catalog.ObjectKey>,
): Promise<{ objects: PublicObjectView[]; next: string | null }> {
  await enabledPage(db, tenantId);
  const rows = await catalog.publishedObjectsPage(db, tenantId, { after: cursor.after, limit: cursor.limit + 1 });
  const { items, next } = cursorPageRows(rows, cursor.limit, (o) => catalog.objectCursor(o, PUBLIC_OBJECT_CURSOR));
  return { objects: await withAccommodations(db, tenantId, items), next };
}

async function withAccommodations(db: Executor, tenantId: string, objects: ObjectRow[]): Promise<PublicObjectView[]> {
  if (objects.length === 0) return [];
  const accommodations = new Map((await catalog.listAccommodations(db, tenantId)).map((a) => [a.id, a]));
  return objects.flatMap((object) => {
    const accommodation = accommodations.get(object.accommodation_id);
    return accommodation ? [{ object, accommodation }] : [];
  });
}

/** One of the tenant's published objects; any other id (unpublished, another tenant's, none) is 404. */
export async function publishedObject(db: Executor, tenantId: string, objectId: string): Promise<ObjectRow> {
  const object = await catalog.getObject(db, tenantId, objectId).catch((error: unknown) => {
    if (error instanceof DomainError && error.kind === 'NOT_FOUND') return undefined;
    throw error;
  });
  if (!object?.published) throw notFound('Object', objectId);
  return object;
}

export async function publicAvailability(
  db: Executor,
  deps: AppDeps,
  tenantId: string,
  query: { date: string; objectId: string; timeZone?: string | null },
) {
  await enabledPage(db, tenantId);
  await publishedObject(db, tenantId, query.objectId);
  const { objects, callerTimeZone } = await availabilityOn(
    db,
    tenantId,
    deps.now(),
    { date: query.date, objectId: query.objectId, accommodationId: null, timeZone: query.timeZone ?? null },
    deps.slotSchedules.get,
  );
  const [found] = objects;
  if (!found) throw notFound('Object', query.objectId);
  return { objectName: found.objectName, timeZone: found.timeZone, slots: found.slots, callerTimeZone };
}

export async function publicPriceQuote(db: Executor, deps: AppDeps, tenantId: string, command: PricePreview) {
  await enabledPage(db, tenantId);
  await publishedObject(db, tenantId, command.objectId);
  return previewPrice(db, tenantId, command, deps.now());
}

/** A proof-of-work challenge for one createPublicBooking: the booking page's (same difficulty, single-use). */
export async function publicBookingChallenge(db: Executor, deps: AppDeps, tenantId: string) {
  await enabledPage(db, tenantId);
  const { token, bits, expiresAt } = deps.bookingGuard.challenge(tenantId, deps.now());
  return { challenge: token, bits, expiresAt };
}

/**
 * A guest's booking through the publishable key: always PENDING, of a published object of the
 * key's tenant, through the same service (rules, price, events, credentials) as any booking.
 * `trx`: the caller's transaction; limits and the bot check ran before it.
 */
export async function createPublicBooking(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  command: CreatePublicBooking,
): Promise<PublicBookingView> {
  const page = await enabledPage(trx, tenantId);
  if (hasCancellationText(page) && command.acceptedCancellationPolicy !== true)
    throw invalid(
      [
        {
          field: 'acceptedCancellationPolicy',
          message: 'must be true: the guest accepts the venue’s cancellation policy',
        },
      ],
      'cancellation_policy_not_accepted',
    );
  await publishedObject(trx, tenantId, command.objectId);
  const { booking, object } = await createBookingOfObject(trx, deps, tenantId, {
    objectId: command.objectId,
    guestName: command.guestName,
    guestEmail: command.guestEmail,
    guestPhone: command.guestPhone,
    startTime: command.startTime,
    endTime: command.endTime,
    locale: command.locale ?? null,
  });
  return {
    booking,
    objectName: object.name,
    paymentUrl:
      page.paymentMode === 'at_venue' || !(await deps.providers.configured(trx, tenantId, 'stripe'))
        ? null
        : paymentUrlOf(deps, booking),
    manageUrl: manageUrl(deps.env.publicUrl, deps.secret, booking.id, booking.guest_link_version),
  };
}

const hasCancellationText = (page: BookingPageSettingsView) =>
  Boolean(page.texts.en.cancellationPolicy ?? page.texts.de.cancellationPolicy);
