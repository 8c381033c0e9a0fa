import type { Resolvers } from '../../../generated/graphql.js';
import type { AccessLogRow } from '../../kernel/db/types.js';
import { liveStream } from '../../kernel/live/index.js';
import { accessLogRowOf } from './access-decisions.js';

// accessDecided (docs/subscriptions.md): the tenant's access decisions, published by every process
// once its access-log batch committed (src/app/deps.ts), optionally of one door.

export interface AccessDecisionValue {
  allowed: boolean;
  doorId: string;
  decidedAt: Date;
  entry: AccessLogRow;
}

export const accessSubscriptionResolvers: Resolvers = {
  Subscription: {
    accessDecided: {
      subscribe: (_, a, ctx) =>
        liveStream(
          ctx,
          'access',
          (data, tenantId): AccessDecisionValue | undefined => {
            const entry = accessLogRowOf(data, tenantId);
            if (a.doorId && entry.door_id !== a.doorId) return undefined;
            return { allowed: entry.allowed, doorId: entry.door_id, decidedAt: entry.checked_at, entry };
          },
          undefined,
          ['devices:read'],
        ),
      resolve: (value: AccessDecisionValue) => value,
    },
  },
};
