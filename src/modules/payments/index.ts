import { defineModule } from '../../kernel/module.js';
import { paymentResolvers } from './payments.resolvers.js';
import { registerPaymentPages } from './pay.route.js';
import { registerStripeWebhook } from './stripe-webhook.route.js';
import type { PaymentProvider } from './stripe-provider.js';
import { RefundWorker } from './refund-outbox.js';
// The payments module's public face: the paymentUrl's pages, the provider's webhook, the money
// rules (paid, refunded, holds) and the tenant's payment settings (docs/payments.md).
export { paymentResolvers } from './payments.resolvers.js';
export { registerPaymentPages } from './pay.route.js';
export { registerStripeWebhook, STRIPE_WEBHOOK_PATH } from './stripe-webhook.route.js';
export { refundCancelledBooking, applyCheckoutSession, markBookingPaid, paymentOf } from './payments.service.js';
export { sweepExpiredHolds } from './checkout.service.js';
export { RefundWorker, MAX_REFUND_ATTEMPTS } from './refund-outbox.js';
export { openPaymentIssues, type PaymentIssue } from './payment-issues.service.js';
export { reconcilePayments, type ReconcileReport } from './reconcile.js';
export { settingsOf, DEFAULT_SETTINGS, type TenantSettings } from './settings.service.js';
export {
  createStripeProvider,
  type PaymentProvider,
  type CheckoutSession,
  type StripeSettings,
} from './stripe-provider.js';
export { parseMarkBookingPaid, parseUpdateTenantSettings } from './payments.commands.js';

declare module '../../kernel/deps.js' {
  interface Collaborators {
    /** Stripe Checkout behind the paymentUrl (STRIPE_SECRET_KEY; built in src/app/deps.ts); null: guests pay at the venue. */
    paymentProvider: PaymentProvider | null;
  }
}

/** The payments module (src/app/modules.ts lists it; docs/payments.md). */
export const paymentsModule = defineModule({
  name: 'payments',
  dependsOn: ['audit', 'bookings', 'catalog'],
  typeDefs: ['payments.graphql'],
  resolvers: paymentResolvers,
  jobs: [
    {
      name: 'refund worker',
      start: (deps) => {
        // The refund outbox beside the webhook dispatcher: refunds of the environment's Stripe
        // account, and of venues' own Stripe keys set in the dashboard (docs/payments.md).
        const worker = new RefundWorker(deps);
        worker.start();
        return { stop: () => worker.stop() };
      },
    },
  ],
  routes: async (fastify, deps) => {
    registerPaymentPages(fastify, deps);
    await registerStripeWebhook(fastify, deps);
  },
});
