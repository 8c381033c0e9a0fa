import { defineModule } from '../../kernel/module.js';
import { reportResolvers } from './reports.resolvers.js';
import { registerReportsCsv } from './reports.route.js';
// The reports module's public face (docs/reports.md): occupancy, revenue, payments, the cash-up and
// the no-show rate, as GraphQL queries, REST routes (SOFA) and CSV downloads. It reads the tables of
// bookings, catalog and payments with its own aggregate SQL and imports none of those modules.
export { reportResolvers } from './reports.resolvers.js';
export { registerReportsCsv, REPORTS_CSV_PATH } from './reports.route.js';
export * from './reports.service.js';

/** The reports module (src/app/modules.ts lists it; docs/reports.md). */
export const reportsModule = defineModule({
  name: 'reports',
  dependsOn: [],
  typeDefs: ['reports.graphql'],
  resolvers: reportResolvers,
  routes: (fastify, deps) => {
    registerReportsCsv(fastify, deps);
  },
});
