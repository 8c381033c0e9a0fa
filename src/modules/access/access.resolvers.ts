import type { Resolvers } from '../../../generated/graphql.js';
import { tenantOf } from '../../auth/principal.js';
import { connectionSelection, inTransaction } from '../../graphql/helpers.js';
import * as access from './access.service.js';
import * as doorCredentials from './door-credentials.service.js';

export const accessResolvers: Resolvers = {
  Query: {
    bookingCredentials: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, (trx) => access.getCredentials(trx, ctx.deps, tenantId, a.bookingId));
    },
    accessLog: (_, a, ctx) => access.listAccessLog(ctx.db, ctx.deps, tenantOf(ctx.principal, a.tenantId), a),
    accessLogConnection: (_, a, ctx, info) => access.accessLogConnection(ctx.db, ctx.deps, tenantOf(ctx.principal, a.tenantId), a, connectionSelection(info).totalCount),
    doorSigningKeys: (_, a, ctx) => doorCredentials.listDoorSigningKeys(ctx.db, tenantOf(ctx.principal, a.tenantId)),
    doorOfflinePolicy: (_, a, ctx) => doorCredentials.getDoorOfflinePolicy(ctx.db, tenantOf(ctx.principal, a.tenantId)),
  },
  Mutation: {
    rotateDoorSigningKey: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, (trx) => doorCredentials.rotateDoorSigningKey(trx, ctx.deps, tenantId));
    },
    setDoorOfflinePolicy: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, (trx) => doorCredentials.setDoorOfflinePolicy(trx, ctx.deps, tenantId, a.maxOfflineSeconds));
    },
  },
  AccessLogEntry: {
    deviceId: (row) => row.device_id,
    doorId: (row) => row.door_id,
    bookingId: (row) => row.booking_id,
    credentialType: (row) => row.credential_type,
    checkedAt: (row) => row.checked_at,
    tokenId: (row) => row.token_id,
  },
};
