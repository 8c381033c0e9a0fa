import type { Resolvers } from '../../../generated/graphql.js';
import { tenantOf } from '../../kernel/auth/principal.js';
import * as reports from './reports.service.js';

// Thin: the tenant first (a caller of another tenant learns nothing from validation), then the service.
export const reportResolvers: Resolvers = {
  Query: {
    occupancyReport: (_, a, ctx) => reports.occupancyReport(ctx.db, tenantOf(ctx.principal, a.tenantId), a),
    revenueReport: (_, a, ctx) => reports.revenueReport(ctx.db, tenantOf(ctx.principal, a.tenantId), a),
    paymentsReport: (_, a, ctx) => reports.paymentsReport(ctx.db, tenantOf(ctx.principal, a.tenantId), a),
    cashUpReport: (_, a, ctx) => reports.cashUpReport(ctx.db, tenantOf(ctx.principal, a.tenantId), a),
    noShowReport: (_, a, ctx) => reports.noShowReport(ctx.db, tenantOf(ctx.principal, a.tenantId), a, ctx.deps.now()),
  },
};
