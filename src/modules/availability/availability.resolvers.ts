import type { Resolvers } from '../../../generated/graphql.js';
import { tenantOf } from '../../kernel/auth/principal.js';
import { nonNull } from '../../kernel/graphql-helpers.js';
import { availabilityBetween, availabilityOn } from './availability.service.js';
import { parseAvailabilityQuery, parseAvailabilityRequest } from './availability.commands.js';

export const availabilityResolvers: Resolvers = {
  Query: {
    availability: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const query = parseAvailabilityQuery({ date: a.date, objectId: a.objectId, timeZone: a.timeZone });
      const { objects, callerTimeZone } = await availabilityOn(
        ctx.db,
        tenantId,
        ctx.deps.now(),
        query,
        ctx.deps.slotSchedules.get,
      );
      // One object asked for: availabilityOn answers NOT_FOUND rather than no object.
      const { objectName, timeZone, slots } = nonNull(objects[0], 'object');
      return { objectName, timeZone, slots, callerTimeZone };
    },
    objectAvailability: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const request = parseAvailabilityRequest(a);
      return request.kind === 'date'
        ? availabilityOn(ctx.db, tenantId, ctx.deps.now(), request, ctx.deps.slotSchedules.get)
        : availabilityBetween(ctx.db, tenantId, ctx.deps.now(), request, ctx.deps.slotSchedules.get);
    },
  },
  AvailabilityResult: {
    __resolveType: (value) => ('days' in value ? 'AvailabilityRange' : 'AvailabilityByObject'),
  },
};
