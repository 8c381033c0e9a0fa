import type { Resolvers } from '../../../generated/graphql.js';
import { requireApiKey, tenantOf } from '../../kernel/auth/principal.js';
import { inTransaction } from '../../kernel/graphql-helpers.js';
import type { GraphQLContext } from '../../kernel/context.js';
import { auditRequest } from '../audit/index.js';
import { parsePricePreview } from '../bookings/index.js';
import { objectKeyOf, setObjectsPublished } from '../catalog/index.js';
import { REST_CURSOR_PAGE, cursorPageOf } from '../../kernel/paging.js';
import {
  bookingPageSettings,
  settingsChanges,
  updateBookingPageSettings,
  type BookingPageSettingsView,
} from './booking-page.service.js';
import {
  parseCreatePublicBooking,
  parsePublishObjects,
  parseUpdateBookingPageSettings,
} from './booking-page.commands.js';
import {
  createPublicBooking,
  publicAvailability,
  publicBookingChallenge,
  publicBookingPage,
  publicObjects,
  publicObjectPage,
  PUBLIC_OBJECT_CURSOR,
  publicPriceQuote,
} from './public.service.js';
import { parseAvailabilityQuery } from '../availability/index.js';
import { nonNull } from '../../kernel/graphql-helpers.js';

const upper = <T extends string>(value: T) => value.toUpperCase() as Uppercase<T>;
const pageUrl = (ctx: GraphQLContext, slug: string | null) =>
  slug === null ? null : `${ctx.deps.env.publicUrl}/book/${slug}`;
const textSet = (texts: Record<string, string>) => ({
  intro: texts.intro ?? null,
  cancellationPolicy: texts.cancellationPolicy ?? null,
  afterBooking: texts.afterBooking ?? null,
});
const textsOf = (settings: BookingPageSettingsView) => ({
  en: textSet(settings.texts.en),
  de: textSet(settings.texts.de),
});

export const bookingPageResolvers: Resolvers = {
  Query: {
    bookingPageSettings: (_, a, ctx) => bookingPageSettings(ctx.db, tenantOf(ctx.principal, a.tenantId)),
    publicBookingPage: (_, a, ctx) => publicBookingPage(ctx.db, tenantOf(ctx.principal, a.tenantId)),
    publicObjects: (_, a, ctx) => publicObjects(ctx.db, tenantOf(ctx.principal, a.tenantId)),
    publicObjectList: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const cursor = cursorPageOf(a, {}, REST_CURSOR_PAGE, (c) => objectKeyOf(c, PUBLIC_OBJECT_CURSOR));
      if (cursor) return publicObjectPage(ctx.db, tenantId, cursor);
      return { objects: await publicObjects(ctx.db, tenantId), next: null };
    },
    publicAvailability: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const query = parseAvailabilityQuery({ date: a.date, objectId: a.objectId, timeZone: a.timeZone });
      return publicAvailability(ctx.db, ctx.deps, tenantId, {
        date: query.date,
        objectId: nonNull(query.objectId ?? undefined, 'objectId'),
        timeZone: query.timeZone ?? null,
      });
    },
    publicBookingChallenge: (_, a, ctx) =>
      publicBookingChallenge(ctx.db, ctx.deps, tenantOf(ctx.principal, a.tenantId)),
    publicPriceQuote: (_, a, ctx) =>
      publicPriceQuote(ctx.db, ctx.deps, tenantOf(ctx.principal, a.tenantId), parsePricePreview(a)),
  },
  Mutation: {
    updateBookingPageSettings: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseUpdateBookingPageSettings(a.input);
      return inTransaction(ctx, async (trx) => {
        const { before, after } = await updateBookingPageSettings(trx, tenantId, command, {
          onlinePayment: await ctx.deps.providers.configured(trx, tenantId, 'stripe'),
          now: ctx.deps.now(),
        });
        await auditRequest(
          ctx,
          trx,
          tenantId,
          'booking_page.updated',
          { type: 'tenant', id: tenantId },
          settingsChanges(before, after),
        );
        return after;
      });
    },
    publishObjects: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parsePublishObjects({ ids: a.ids, published: a.published });
      return inTransaction(ctx, async (trx) => {
        const { objects, changed } = await setObjectsPublished(
          trx,
          tenantId,
          command.ids,
          command.published,
          ctx.deps.now(),
        );
        for (const object of changed)
          await auditRequest(
            ctx,
            trx,
            tenantId,
            command.published ? 'object.published' : 'object.unpublished',
            { type: 'object', id: object.id },
            { name: object.name },
          );
        return { objects };
      });
    },
    createPublicBooking: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const key = requireApiKey(ctx.principal);
      const command = parseCreatePublicBooking(a.input);
      // Before any work: every attempt counts against its address first; then the bot check (the
      // honeypot, the solved single-use challenge); only then the key's budget, so a burst from one
      // address, or unsolved attempts, spend nothing the venue's other guests need.
      await ctx.deps.publicBookingLimits.takeAddress(ctx.clientAddress ?? 'unknown');
      await ctx.deps.publicBookingGuard({
        tenantId,
        keyId: key.keyId,
        clientAddress: ctx.clientAddress,
        botCheck: command.botCheck,
        now: ctx.deps.now(),
      });
      await ctx.deps.publicBookingLimits.takeKey(key.keyId);
      const booking = await inTransaction(ctx, (trx) => createPublicBooking(trx, ctx.deps, tenantId, command));
      return { booking };
    },
  },
  BookingPageSettings: {
    url: (s, _, ctx) => pageUrl(ctx, s.slug),
    paymentMode: (s) => upper(s.paymentMode),
    onlinePaymentAvailable: (_, __, ctx) => ctx.deps.providers.configured(ctx.db, tenantOf(ctx.principal), 'stripe'),
    defaultLocale: (s) => upper(s.defaultLocale),
    texts: (s) => textsOf(s),
  },
  PublicBookingPage: {
    slug: (p) => p.settings.slug,
    url: (p, _, ctx) => pageUrl(ctx, p.settings.slug) ?? '',
    logo: (p) => p.settings.logo,
    accentColour: (p) => p.settings.accentColour,
    defaultLocale: (p) => upper(p.settings.defaultLocale),
    paymentMode: (p) => upper(p.settings.paymentMode),
    texts: (p) => textsOf(p.settings),
    vatRateBasisPoints: (p) => p.settings.vatRateBasisPoints,
  },
  PublicObject: {
    id: (p) => p.object.id,
    name: (p) => p.object.name,
    pricePerHour: (p) => p.object.price_per_hour,
    currency: () => 'EUR',
    timeZone: (p) => p.accommodation.time_zone,
    accommodationName: (p) => p.accommodation.name,
    address: (p) => p.accommodation.address,
    minDurationMinutes: (p) => p.object.min_duration_minutes,
    maxDurationMinutes: (p) => p.object.max_duration_minutes,
    slotIncrementMinutes: (p) => p.object.slot_increment_minutes,
  },
  PublicBooking: {
    id: (p) => p.booking.id,
    objectId: (p) => p.booking.object_id,
    objectName: (p) => p.objectName,
    startTime: (p) => p.booking.start_time,
    endTime: (p) => p.booking.end_time,
    status: (p) => p.booking.status,
    totalPrice: (p) => p.booking.total_price,
    currency: (p) => p.booking.currency,
    paymentUrl: (p) => p.paymentUrl,
    manageUrl: (p) => p.manageUrl,
  },
};
