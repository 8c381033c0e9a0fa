import { defineModule } from '../../kernel/module.js';
import { guestResolvers } from './guest.resolvers.js';
import { registerGuestRoutes } from './guest.routes.js';
// The guest module's public face: the guest's own page of a booking behind its manage link
// (PUBLIC_URL/b/{token}) and the staff's revocation of that link (docs/booking-page.md).
export { guestResolvers } from './guest.resolvers.js';
export { registerGuestRoutes, sendManageLinkNotFound, isManagePath, MANAGE_PATH } from './guest.routes.js';
export { guestTexts } from './guest.texts.js';
export { guestLinkOf, revokeGuestLink } from './guest.service.js';

/** The guest module (src/app/modules.ts lists it; docs/booking-page.md). */
export const guestModule = defineModule({
  name: 'guest',
  dependsOn: ['access', 'audit', 'availability', 'bookings', 'notifications', 'users'],
  typeDefs: ['guest.graphql'],
  resolvers: guestResolvers,
  routes: (fastify, deps) => {
    registerGuestRoutes(fastify, deps);
  },
});
