import type { Resolvers } from '../../../generated/graphql.js';
import type { GraphQLContext } from '../../kernel/context.js';
import type { BookingRow, BookingSeriesRow } from '../../kernel/db/types.js';
import { tenantOf } from '../../kernel/auth/principal.js';
import { inTransaction, nonNull } from '../../kernel/graphql-helpers.js';
import { whenReady } from '../../kernel/db/batch.js';
import {
  CONNECTION_PAGE,
  ISO_INSTANT,
  UUID_PART,
  connectionOf,
  decodeCursor,
  encodeCursor,
  pageSizeOf,
} from '../../kernel/paging.js';
import { parseRescheduleBooking } from '../bookings/index.js';
import { accommodationOf } from '../catalog/index.js';
import { domainOf } from '../notifications/index.js';
import { parseCreateBookingSeries, parsePreviewBookingSeries } from './series.commands.js';
import * as repo from './series.repository.js';
import * as service from './series.service.js';
import { seriesInvite } from './series.invite.js';
import { expandRule, parseRule } from './series.rules.js';

const OCCURRENCE_CURSOR = 'series-occurrence';
const occurrenceCursor = (b: { start_time: Date; id: string }) =>
  encodeCursor(OCCURRENCE_CURSOR, [b.start_time.toISOString(), b.id]);

/** The guest's invite of a series, as it is now. */
async function inviteOf(ctx: GraphQLContext, series: BookingSeriesRow): Promise<string> {
  const object = nonNull(await ctx.loaders.objectById.load(series.object_id), 'object');
  const accommodation = await accommodationOf(ctx.db, series.tenant_id, object);
  const occurrences = await repo.occurrencesOf(ctx.db, series.tenant_id, series.id);
  const rule = parseRule(series.rule, series.time_zone);
  const ruleStarts = expandRule(rule, series.first_start, series.duration_minutes, series.time_zone).map(
    (o) => o.start,
  );
  const from = ctx.deps.env.mail?.from ?? `bookings@${new URL(ctx.deps.env.publicUrl).hostname}`;
  return seriesInvite(
    series,
    occurrences,
    ruleStarts,
    {
      objectName: object.name,
      accommodationName: accommodation.name,
      accommodationAddress: accommodation.address,
      organizerEmail: from,
      domain: domainOf(from),
    },
    ctx.deps.now(),
  );
}

export const seriesResolvers: Resolvers = {
  Query: {
    previewBookingSeries: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return service.previewBookingSeries(ctx.db, ctx.deps, tenantId, parsePreviewBookingSeries(a));
    },
    bookingSeries: (_, a, ctx) => service.getSeries(ctx.db, tenantOf(ctx.principal), a.id),
    bookingSeriesDetails: async (_, a, ctx) => ({
      series: await service.getSeries(ctx.db, tenantOf(ctx.principal, a.tenantId), a.id),
    }),
  },
  Mutation: {
    createBookingSeries: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const { tenantId: _tenant, ...input } = a;
      const command = parseCreateBookingSeries(input);
      return inTransaction(ctx, (trx) => service.createBookingSeries(trx, ctx.deps, tenantId, command));
    },
    cancelBookingSeries: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, (trx) =>
        service.cancelBookingSeries(trx, ctx.deps, tenantId, a.id, a.scope, a.fromBookingId),
      );
    },
    rescheduleBookingSeriesOccurrence: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseRescheduleBooking({ startTime: a.startTime, endTime: a.endTime });
      return inTransaction(ctx, (trx) =>
        service.rescheduleSeriesOccurrence(trx, ctx.deps, tenantId, a.id, a.bookingId, command),
      );
    },
  },
  BookingSeries: {
    objectId: (row) => row.object_id,
    object: (row, _, ctx) => whenReady(ctx.loaders.objectById.get(row.object_id), (o) => nonNull(o, 'object')),
    timeZone: (row) => row.time_zone,
    startTime: (row) => row.first_start,
    durationMinutes: (row) => row.duration_minutes,
    guestName: (row) => row.guest_name,
    guestEmail: (row) => row.guest_email,
    guestPhone: (row) => row.guest_phone,
    createdAt: (row) => row.created_at,
    updatedAt: (row) => row.updated_at,
    occurrences: async (row, a, ctx) => {
      const size = pageSizeOf(CONNECTION_PAGE, a.first);
      let key: { startTime: Date; id: string } | null = null;
      if (a.after != null) {
        const [start, id] = decodeCursor(OCCURRENCE_CURSOR, a.after, [ISO_INSTANT, UUID_PART]) as [string, string];
        key = { startTime: new Date(start), id };
      }
      const rows: BookingRow[] = await repo.occurrencePage(ctx.db, row.tenant_id, row.id, size, key);
      return connectionOf(
        rows,
        size,
        a.after,
        occurrenceCursor,
        await repo.countOccurrences(ctx.db, row.tenant_id, row.id),
      );
    },
    invite: (row, _, ctx) => inviteOf(ctx, row),
  },
  Booking: {
    seriesId: (row) => row.series_id,
    series: (row, _, ctx) => (row.series_id ? ctx.loaders.seriesById.load(row.series_id).then((s) => s ?? null) : null),
  },
};
