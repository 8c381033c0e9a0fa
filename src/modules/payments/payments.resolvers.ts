import type { Resolvers } from '../../../generated/graphql.js';
import { tenantOf } from '../../kernel/auth/principal.js';
import { inTransaction, nonNull } from '../../kernel/graphql-helpers.js';
import { actorOf, auditRequest } from '../audit/index.js';
import {
  parseAcknowledgePaymentIssue,
  parseMarkBookingPaid,
  parseRetryRefund,
  parseUpdateTenantSettings,
} from './payments.commands.js';
import {
  PAYMENT_ISSUE_CURSOR,
  acknowledgeIssue,
  openPaymentIssues,
  paymentIssuePage,
  retryFailedRefund,
} from './payment-issues.service.js';
import { REST_CURSOR_PAGE, cursorPageOf } from '../../kernel/paging.js';
import { lockBooking } from './payments.repository.js';
import { markBookingPaid, paymentHistory } from './payments.service.js';
import { settingsOf, updateSettings } from './settings.service.js';

export const paymentResolvers: Resolvers = {
  Query: {
    tenantSettings: (_, __, ctx) => settingsOf(ctx.db, tenantOf(ctx.principal)),
    paymentRecords: (_, a, ctx) => paymentHistory(ctx.db, tenantOf(ctx.principal), a.bookingId),
    paymentIssues: (_, a, ctx) => openPaymentIssues(ctx.db, tenantOf(ctx.principal, a.tenantId)),
    paymentIssueList: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const cursor = cursorPageOf(a, {}, REST_CURSOR_PAGE, PAYMENT_ISSUE_CURSOR.keyOf);
      if (!cursor) return { paymentIssues: await openPaymentIssues(ctx.db, tenantId), next: null };
      const { items, next } = await paymentIssuePage(ctx.db, tenantId, cursor);
      return { paymentIssues: items, next };
    },
  },
  Mutation: {
    updateTenantSettings: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal);
      const command = parseUpdateTenantSettings(a.input);
      const given = { pendingExpiryMinutes: Object.prototype.hasOwnProperty.call(a.input, 'pendingExpiryMinutes') };
      return inTransaction(ctx, async (trx) => {
        const { before, after } = await updateSettings(trx, tenantId, command, given, ctx.deps.now());
        await auditRequest(
          ctx,
          trx,
          tenantId,
          'tenant_settings.updated',
          { type: 'tenant', id: tenantId },
          { before, after },
        );
        return after;
      });
    },
    markBookingPaid: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal);
      const command = parseMarkBookingPaid(a);
      return inTransaction(ctx, async (trx) => {
        const actor = await actorOf(trx, ctx.principal);
        const booking = await markBookingPaid(trx, ctx.deps, tenantId, actor.label, command);
        await auditRequest(
          ctx,
          trx,
          tenantId,
          'booking.marked_paid',
          { type: 'booking', id: booking.id },
          { amount: command.amount, note: command.note },
        );
        return booking;
      });
    },
    retryRefund: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseRetryRefund(a);
      return inTransaction(ctx, async (trx) => {
        const intent = await retryFailedRefund(trx, tenantId, command.bookingId, ctx.deps.now());
        await auditRequest(
          ctx,
          trx,
          tenantId,
          'refund.retried',
          { type: 'booking', id: command.bookingId },
          { refundIntent: intent.id, amount: intent.amount, currency: intent.currency },
        );
        return nonNull(await lockBooking(trx, tenantId, command.bookingId), 'booking');
      });
    },
    acknowledgePaymentIssue: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseAcknowledgePaymentIssue(a);
      return inTransaction(ctx, async (trx) => {
        const actor = await actorOf(trx, ctx.principal);
        const { issue, changed } = await acknowledgeIssue(trx, tenantId, command.id, actor.label, ctx.deps.now());
        if (changed)
          await auditRequest(
            ctx,
            trx,
            tenantId,
            'payment_issue.acknowledged',
            { type: 'booking', id: issue.bookingId },
            {
              issue: issue.id,
              kind: issue.kind,
              amount: issue.amount,
              currency: issue.currency,
              reference: issue.reference,
            },
          );
        return issue;
      });
    },
  },
  Booking: {
    payment: (row) => ({
      status: row.payment_status,
      amountPaid: row.amount_paid,
      amountRefunded: row.amount_refunded,
      currency: row.currency,
      provider: row.payment_provider,
      paidAt: row.paid_at,
    }),
  },
  PaymentRecord: {
    actor: (row) => row.actor_label,
    createdAt: (row) => row.created_at,
  },
};
