import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import type { Resolvers } from '../../generated/graphql.js';
import { tenantResolvers } from '../modules/tenants/tenants.resolvers.js';
import { catalogResolvers } from '../modules/catalog/catalog.resolvers.js';
import { bookingResolvers } from '../modules/bookings/bookings.resolvers.js';
import { deviceResolvers } from '../modules/devices/devices.resolvers.js';
import { accessResolvers } from '../modules/access/access.resolvers.js';

// Every module's resolvers; makeExecutableSchema merges the list.
export const resolvers: Resolvers[] = [
  { DateTime: DateTimeResolver, JSON: JSONResolver } as Resolvers,
  tenantResolvers,
  catalogResolvers,
  bookingResolvers,
  deviceResolvers,
  accessResolvers,
];
