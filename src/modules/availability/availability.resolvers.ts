import type { Resolvers } from '../../../generated/graphql.js';
import { tenantOf } from '../../auth/principal.js';
import { availabilityOn } from './availability.service.js';

export const availabilityResolvers: Resolvers = {
  Query: {
    availability: async (_, a, ctx) => {
      const { objects } = await availabilityOn(ctx.db, tenantOf(ctx.principal, a.tenantId), ctx.deps.now(), { date: a.date, objectId: a.objectId }, ctx.deps.slotSchedules.get);
      const [object] = objects;
      return { objectName: object.objectName, slots: object.slots };
    },
    objectAvailability: (_, a, ctx) => availabilityOn(ctx.db, tenantOf(ctx.principal, a.tenantId), ctx.deps.now(), a, ctx.deps.slotSchedules.get),
  },
};
