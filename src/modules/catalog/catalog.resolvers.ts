import { auditRequest as audit } from '../audit/index.js';
import type { Resolvers } from '../../../generated/graphql.js';
import { tenantOf, livemodeOf } from '../../kernel/auth/principal.js';
import { inTransaction, nonNull } from '../../kernel/graphql-helpers.js';
import { whenReady } from '../../kernel/db/batch.js';
import { PAGE_SIZES, cursorPageOf } from '../../kernel/paging.js';
import type { GraphQLContext } from '../../kernel/context.js';
import type { ObjectRow } from '../../kernel/db/types.js';
import * as repo from './catalog.repository.js';
import * as catalog from './catalog.service.js';
import {
  parseCreateAccommodation,
  parseCreateDoor,
  parseCreateObject,
  parseListObjects,
  parseObjectFilters,
  parseSpecialDate,
  parseUpdateAccommodation,
  parseUpdateDoor,
  parseUpdateObject,
} from './catalog.commands.js';

/** The IANA zone of an object's accommodation, through the request's loader (batched, and known once loaded). */
const timeZoneOf = (ctx: GraphQLContext, row: ObjectRow) =>
  whenReady(ctx.loaders.accommodationById.get(row.accommodation_id), (a) => nonNull(a, 'accommodation').time_zone);

export const catalogResolvers: Resolvers = {
  Query: {
    accommodations: (_, a, ctx) => catalog.listAccommodations(ctx.db, tenantOf(ctx.principal, a.tenantId)),
    accommodation: (_, a, ctx) => catalog.getAccommodation(ctx.db, tenantOf(ctx.principal), a.id),
    bookableObjects: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return catalog.listObjects(ctx.db, tenantId, parseObjectFilters(a));
    },
    objectPage: (_, { after, limit, ...a }, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseListObjects(a);
      const pageArgs = { page: a.page, pageSize: a.pageSize };
      const cursor = cursorPageOf({ after, limit }, pageArgs, PAGE_SIZES.objects, (c) => catalog.objectKeyOf(c));
      return catalog.objectPage(ctx.db, tenantId, command, cursor);
    },
    bookableObject: (_, a, ctx) => catalog.getObject(ctx.db, tenantOf(ctx.principal), a.id),
    objectDetails: async (_, a, ctx) => ({
      object: await catalog.getObject(ctx.db, tenantOf(ctx.principal, a.tenantId), a.objectId),
    }),
    openingHours: (_, a, ctx) => catalog.getOpeningHours(ctx.db, tenantOf(ctx.principal, a.tenantId), a.objectId),
    bookingRules: (_, a, ctx) => catalog.getBookingRules(ctx.db, tenantOf(ctx.principal, a.tenantId), a.objectId),
    doors: (_, a, ctx) => catalog.listDoors(ctx.db, tenantOf(ctx.principal, a.tenantId)),
    door: (_, a, ctx) => catalog.getDoor(ctx.db, tenantOf(ctx.principal), a.id),
  },
  Mutation: {
    createAccommodation: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseCreateAccommodation(a);
      return inTransaction(ctx, async (trx) => {
        const row = await catalog.createAccommodation(trx, tenantId, command);
        await audit(ctx, trx, tenantId, 'accommodation.created', { type: 'accommodation', id: row.id }, { ...command });
        return row;
      });
    },
    updateAccommodation: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseUpdateAccommodation(a);
      return inTransaction(ctx, async (trx) => {
        const row = await catalog.updateAccommodation(trx, tenantId, a.id, command);
        await audit(ctx, trx, tenantId, 'accommodation.updated', { type: 'accommodation', id: row.id }, { ...command });
        return row;
      });
    },
    deleteAccommodation: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, async (trx) => {
        const deleted = await catalog.deleteAccommodation(trx, tenantId, a.id);
        await audit(ctx, trx, tenantId, 'accommodation.deleted', { type: 'accommodation', id: a.id });
        return deleted;
      });
    },
    createObject: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseCreateObject(a);
      return inTransaction(ctx, async (trx) => {
        const row = await catalog.createObject(trx, tenantId, command);
        await audit(ctx, trx, tenantId, 'object.created', { type: 'object', id: row.id }, { ...command });
        return row;
      });
    },
    updateObject: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseUpdateObject(a);
      return inTransaction(ctx, async (trx) => {
        const row = await catalog.updateObject(trx, tenantId, a.id, command);
        await audit(ctx, trx, tenantId, 'object.updated', { type: 'object', id: row.id }, { ...command });
        return row;
      });
    },
    deleteObject: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, async (trx) => {
        const deleted = await catalog.deleteObject(trx, tenantId, a.id);
        await audit(ctx, trx, tenantId, 'object.deleted', { type: 'object', id: a.id });
        return deleted;
      });
    },
    setOpeningHours: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, async (trx) => {
        const view = await catalog.setOpeningHours(trx, tenantId, a.objectId, a.schedule);
        await audit(
          ctx,
          trx,
          tenantId,
          'object.opening_hours_changed',
          { type: 'object', id: a.objectId },
          {
            schedule: view.schedule,
          },
        );
        return view;
      });
    },
    setSpecialDate: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseSpecialDate(a);
      return inTransaction(ctx, async (trx) => {
        const view = await catalog.setSpecialDate(trx, tenantId, a.objectId, command);
        await audit(ctx, trx, tenantId, 'object.special_date_set', { type: 'object', id: a.objectId }, { ...command });
        return view;
      });
    },
    removeSpecialDate: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, async (trx) => {
        const view = await catalog.removeSpecialDate(trx, tenantId, a.objectId, a.date);
        await audit(
          ctx,
          trx,
          tenantId,
          'object.special_date_removed',
          { type: 'object', id: a.objectId },
          {
            date: a.date,
          },
        );
        return view;
      });
    },
    setBookingRules: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, async (trx) => {
        const view = await catalog.setBookingRules(trx, tenantId, a.objectId, a.rules);
        await audit(
          ctx,
          trx,
          tenantId,
          'object.booking_rules_changed',
          { type: 'object', id: a.objectId },
          {
            rules: a.rules,
          },
        );
        return view;
      });
    },
    createDoor: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseCreateDoor(a);
      return inTransaction(ctx, async (trx) => {
        const door = await catalog.createDoor(trx, tenantId, command);
        await audit(ctx, trx, tenantId, 'door.created', { type: 'door', id: door.id }, { ...command });
        return door;
      });
    },
    updateDoor: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseUpdateDoor(a);
      return inTransaction(ctx, async (trx) => {
        const door = await catalog.updateDoor(trx, tenantId, a.id, command);
        await audit(ctx, trx, tenantId, 'door.updated', { type: 'door', id: a.id }, { ...command });
        return door;
      });
    },
    deleteDoor: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, async (trx) => {
        const deleted = await catalog.deleteDoor(trx, tenantId, a.id);
        await audit(ctx, trx, tenantId, 'door.deleted', { type: 'door', id: a.id });
        return deleted;
      });
    },
  },
  Accommodation: {
    timeZone: (row) => row.time_zone,
    createdAt: (row) => row.created_at,
    objects: (row, _, ctx) => ctx.loaders.objectsByAccommodation.load(row.id),
  },
  BookableObject: {
    livemode: (_, __, ctx) => livemodeOf(ctx.principal),
    pricePerHour: (row) => row.price_per_hour,
    accommodationId: (row) => row.accommodation_id,
    accommodation: (row, _, ctx) =>
      whenReady(ctx.loaders.accommodationById.get(row.accommodation_id), (a) => nonNull(a, 'accommodation')),
    timeZone: (row, _, ctx) => timeZoneOf(ctx, row),
    openingHours: async (row, _, ctx) =>
      catalog.openingHoursView(row, await ctx.loaders.specialDatesByObject.load(row.id), await timeZoneOf(ctx, row)),
    bookingRules: (row, _, ctx) => whenReady(timeZoneOf(ctx, row), (timeZone) => ({ ...repo.rulesOf(row), timeZone })),
    createdAt: (row) => row.created_at,
    metadata: (row) => row.metadata,
    updatedAt: (row) => row.updated_at,
  },
  Door: {
    gpioPin: (row) => row.gpio_pin,
    unlockDurationSeconds: (row) => row.unlock_duration_seconds,
    objectIds: async (row, _, ctx) => (await ctx.loaders.objectIdsByDoor.load(row.id)).map((r) => r.object_id),
    createdAt: (row) => row.created_at,
  },
};
