import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import type { Resolvers } from '../../generated/graphql.js';
import { tenantResolvers } from '../modules/tenants/tenants.resolvers.js';
import { catalogResolvers } from '../modules/catalog/catalog.resolvers.js';
import { bookingResolvers } from '../modules/bookings/bookings.resolvers.js';
import { pricingResolvers } from '../modules/pricing/pricing.resolvers.js';
import { webhookResolvers } from '../modules/webhooks/webhooks.resolvers.js';
import { availabilityResolvers } from '../modules/availability/availability.resolvers.js';
import { deviceResolvers } from '../modules/devices/devices.resolvers.js';
import { accessResolvers } from '../modules/access/access.resolvers.js';
import { oauthResolvers } from '../modules/oauth/oauth.resolvers.js';
import { userResolvers } from '../modules/users/users.resolvers.js';

// Every module's resolvers; makeExecutableSchema merges the list.
export const resolvers: Resolvers[] = [
  { DateTime: DateTimeResolver, JSON: JSONResolver } as Resolvers,
  tenantResolvers,
  catalogResolvers,
  bookingResolvers,
  pricingResolvers,
  webhookResolvers,
  availabilityResolvers,
  deviceResolvers,
  accessResolvers,
  oauthResolvers,
  userResolvers,
];
