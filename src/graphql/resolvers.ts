import { JSONResolver } from 'graphql-scalars';
import { DateTimeScalar, EmailAddressScalar, LocalDateScalar, LocalTimeScalar, URLScalar } from './scalars.js';
import type { Resolvers } from '../../generated/graphql.js';
import { tenantResolvers } from '../modules/tenants/index.js';
import { catalogResolvers } from '../modules/catalog/index.js';
import { bookingResolvers } from '../modules/bookings/index.js';
import { pricingResolvers } from '../modules/pricing/index.js';
import { webhookResolvers } from '../modules/webhooks/index.js';
import { availabilityResolvers } from '../modules/availability/index.js';
import { deviceResolvers } from '../modules/devices/index.js';
import { accessResolvers } from '../modules/access/index.js';
import { userResolvers } from '../modules/users/index.js';
import { oauthResolvers } from '../modules/oauth/index.js';

// Every module's resolvers; makeExecutableSchema merges the list.
export const resolvers: Resolvers[] = [
  { DateTime: DateTimeScalar, LocalDate: LocalDateScalar, LocalTime: LocalTimeScalar, EmailAddress: EmailAddressScalar, URL: URLScalar, JSON: JSONResolver },
  tenantResolvers,
  catalogResolvers,
  bookingResolvers,
  pricingResolvers,
  webhookResolvers,
  availabilityResolvers,
  deviceResolvers,
  accessResolvers,
  userResolvers,
  oauthResolvers,
];
