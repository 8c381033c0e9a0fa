import type { Resolvers } from '../../../generated/graphql.js';
import { tenantOf } from '../../auth/principal.js';
import { inTransaction } from '../../graphql/helpers.js';
import * as access from './access.service.js';

export const accessResolvers: Resolvers = {
  Query: {
    bookingCredentials: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, (trx) => access.getCredentials(trx, ctx.deps, tenantId, a.bookingId));
    },
    accessLog: (_, a, ctx) => access.listAccessLog(ctx.db, ctx.deps, tenantOf(ctx.principal, a.tenantId), a),
  },
  AccessLogEntry: {
    deviceId: (row) => row.device_id,
    doorId: (row) => row.door_id,
    bookingId: (row) => row.booking_id,
    credentialType: (row) => row.credential_type,
    checkedAt: (row) => row.checked_at,
  },
};
