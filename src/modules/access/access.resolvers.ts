import type { Resolvers } from '../../../generated/graphql.js';
import { tenantOf } from '../../kernel/auth/principal.js';
import { connectionSelection, inTransaction } from '../../kernel/graphql-helpers.js';
import * as access from './access.service.js';
import { parseAccessLogConnection, parseListAccessLog, parseSetDoorOfflinePolicy } from './access.commands.js';
import * as doorCredentials from './door-credentials.service.js';
import { auditRequest as audit } from '../audit/index.js';

export const accessResolvers: Resolvers = {
  Query: {
    bookingCredentials: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, (trx) => access.getCredentials(trx, ctx.deps, tenantId, a.bookingId));
    },
    accessLog: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return access.listAccessLog(ctx.db, ctx.deps, tenantId, parseListAccessLog(a));
    },
    accessLogConnection: (_, a, ctx, info) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return access.accessLogConnection(
        ctx.db,
        ctx.deps,
        tenantId,
        parseAccessLogConnection(a),
        connectionSelection(info).totalCount,
      );
    },
    doorSigningKeys: (_, a, ctx) => doorCredentials.listDoorSigningKeys(ctx.db, tenantOf(ctx.principal, a.tenantId)),
    doorOfflinePolicy: (_, a, ctx) => doorCredentials.getDoorOfflinePolicy(ctx.db, tenantOf(ctx.principal, a.tenantId)),
  },
  Mutation: {
    rotateDoorSigningKey: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, async (trx) => {
        const rotated = await doorCredentials.rotateDoorSigningKey(trx, ctx.deps, tenantId);
        await audit(ctx, trx, tenantId, 'door.signing_key_rotated', { type: 'tenant', id: tenantId });
        return rotated;
      });
    },
    setDoorOfflinePolicy: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseSetDoorOfflinePolicy(a);
      return inTransaction(ctx, async (trx) => {
        const previous = await doorCredentials.getDoorOfflinePolicy(trx, tenantId);
        const policy = await doorCredentials.setDoorOfflinePolicy(trx, ctx.deps, tenantId, command.maxOfflineSeconds);
        await audit(
          ctx,
          trx,
          tenantId,
          'door.offline_policy_changed',
          { type: 'tenant', id: tenantId },
          { from: previous, to: policy },
        );
        return policy;
      });
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
