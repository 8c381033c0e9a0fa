import type { PortierModule } from '../kernel/module.js';
import { auditModule } from '../modules/audit/index.js';
import { tenantsModule } from '../modules/tenants/index.js';
import { usersModule } from '../modules/users/index.js';
import { oauthModule } from '../modules/oauth/index.js';
import { catalogModule } from '../modules/catalog/index.js';
import { availabilityModule } from '../modules/availability/index.js';
import { pricingModule } from '../modules/pricing/index.js';
import { webhooksModule } from '../modules/webhooks/index.js';
import { accessModule } from '../modules/access/index.js';
import { notificationsModule } from '../modules/notifications/index.js';
import { bookingsModule } from '../modules/bookings/index.js';
import { devicesModule } from '../modules/devices/index.js';
import { paymentsModule } from '../modules/payments/index.js';
import { bookingPageModule } from '../modules/booking-page/index.js';
import { guestModule } from '../modules/guest/index.js';
import { credentialsModule } from '../modules/credentials/index.js';
import { reportsModule } from '../modules/reports/index.js';
import { seriesModule } from '../modules/series/index.js';
import { customersModule } from '../modules/customers/index.js';

/**
 * Every module of Portier, the one list (docs/architecture.md, "Adding a module"): GraphQL resolvers,
 * loaders, catalog import sections, routes and background jobs are assembled by looping over it, and
 * the module map in docs/architecture.md is written from it (`npm run arch:map`).
 */
export const MODULES: readonly PortierModule[] = [
  auditModule,
  tenantsModule,
  usersModule,
  oauthModule,
  catalogModule,
  availabilityModule,
  pricingModule,
  webhooksModule,
  accessModule,
  notificationsModule,
  bookingsModule,
  paymentsModule,
  devicesModule,
  bookingPageModule,
  guestModule,
  credentialsModule,
  reportsModule,
  seriesModule,
  customersModule,
];
