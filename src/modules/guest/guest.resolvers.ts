import type { Resolvers } from '../../../generated/graphql.js';
import { tenantOf } from '../../kernel/auth/principal.js';
import { inTransaction } from '../../kernel/graphql-helpers.js';
import { auditRequest } from '../audit/index.js';
import { guestLinkOf, revokeGuestLink } from './guest.service.js';

export const guestResolvers: Resolvers = {
  Query: {
    guestLink: (_, a, ctx) => guestLinkOf(ctx.db, ctx.deps, tenantOf(ctx.principal, a.tenantId), a.bookingId),
  },
  Mutation: {
    revokeGuestLink: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      return inTransaction(ctx, async (trx) => {
        const revoked = await revokeGuestLink(trx, ctx.deps, tenantId, a.bookingId);
        // The entry names the booking and the new version, never a link (which would open the page).
        await auditRequest(
          ctx,
          trx,
          tenantId,
          'booking.guest_link_revoked',
          { type: 'booking', id: revoked.bookingId },
          { version: revoked.version },
        );
        return { bookingId: revoked.bookingId, manageUrl: revoked.manageUrl };
      });
    },
  },
};
