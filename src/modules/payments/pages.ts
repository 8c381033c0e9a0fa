import { localRange } from '../bookings/index.js';
import type { PaymentView } from './payments.repository.js';
import type { PaymentPageState } from './payments.rules.js';

// The guest's pages behind the paymentUrl: HTML with no script, every value escaped.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

const formats = new Map<string, Intl.NumberFormat>();
export function money(cents: number, currency: string): string {
  let format = formats.get(currency);
  if (!format) formats.set(currency, (format = new Intl.NumberFormat('en-GB', { style: 'currency', currency })));
  return format.format(cents / 100);
}

export function page(title: string, body: string, options: { refreshSeconds?: number } = {}): string {
  const refresh = options.refreshSeconds ? `<meta http-equiv="refresh" content="${options.refreshSeconds}">` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">${refresh}<title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#222}dt{font-weight:600;margin-top:.75rem}dd{margin:0}.due{font-size:1.5rem}.note{padding:.75rem 1rem;border-radius:.5rem;background:#f1f5f9}.ok{background:#dcfce7}</style>
</head><body>${body}</body></html>`;
}

const STATUS_TEXT: Record<PaymentView['status'], string> = {
  PENDING: 'Pending: awaiting payment and confirmation',
  CONFIRMED: 'Confirmed',
  CANCELLED: 'Cancelled',
  COMPLETED: 'Completed',
};

const PAYMENT_TEXT: Record<PaymentView['payment_status'], string> = {
  UNPAID: 'Not paid',
  PAID: 'Paid',
  PARTIALLY_REFUNDED: 'Paid, partly refunded',
  REFUNDED: 'Refunded',
};

/** Cents still due: nothing once the booking is cancelled or completed, or what was paid covers it. */
export function amountDue(view: Pick<PaymentView, 'status' | 'total_price' | 'amount_paid'>): number {
  if (view.status === 'CANCELLED' || view.status === 'COMPLETED') return 0;
  return Math.max(0, view.total_price - view.amount_paid);
}

function details(view: PaymentView): string {
  const due = amountDue(view);
  return `<dl>
<dt>Object</dt><dd>${escape(view.object_name)}</dd>
<dt>Venue</dt><dd>${escape(view.accommodation_name)}, ${escape(view.accommodation_address)}</dd>
<dt>Time</dt><dd>${escape(localRange(view.start_time, view.end_time, view.time_zone))}</dd>
<dt>Status</dt><dd data-status="${view.status}">${escape(STATUS_TEXT[view.status])}</dd>
<dt>Payment</dt><dd data-payment-status="${view.payment_status}">${escape(PAYMENT_TEXT[view.payment_status])}${
    view.amount_paid > 0
      ? ` (${escape(money(view.amount_paid, view.currency))}${view.amount_refunded > 0 ? `, ${escape(money(view.amount_refunded, view.currency))} refunded` : ''})`
      : ''
  }</dd>
<dt>Amount due</dt><dd class="due" data-amount-cents="${due}">${escape(money(due, view.currency))}</dd>
<dt>Reference</dt><dd>${escape(view.id)}</dd>
</dl>`;
}

const NOTES: Record<PaymentPageState | 'venue', (view: PaymentView) => string> = {
  payable: () => '',
  cancelled: (v) =>
    v.amount_paid > 0
      ? `This booking was cancelled; no payment is taken. ${escape(money(v.amount_refunded, v.currency))} of the ${escape(money(v.amount_paid, v.currency))} paid was refunded.`
      : 'This booking was cancelled. Nothing was paid and nothing is due.',
  completed: () => 'This booking is completed; no payment is taken here.',
  paid: () => 'This booking is already paid. Thank you!',
  free: () => 'Nothing is due for this booking.',
  venue: (v) =>
    `Please pay ${escape(money(amountDue(v), v.currency))} at the venue: ${escape(v.accommodation_name)}, ${escape(v.accommodation_address)}. Give the reference below when you pay; staff mark the booking paid.`,
};

/** The page for a booking the paymentUrl does not send to the provider. */
export function paymentPageHtml(view: PaymentView, state: PaymentPageState | 'venue'): string {
  const note = NOTES[state](view);
  return page(
    `Payment for ${view.object_name}`,
    `<h1>Your booking</h1>${note ? `<p class="note" data-page-state="${state}">${note}</p>` : ''}
${details(view)}`,
  );
}

/** Back from the provider: the booking as it is now (confirmed once the payment arrived). */
export function successPageHtml(view: PaymentView, retryPath: string): string {
  if (view.payment_status === 'UNPAID') {
    return page(
      'Confirming your payment',
      `<h1>Confirming your payment…</h1><p class="note" data-page-state="waiting">We are waiting for the payment provider to confirm your payment. This page refreshes by itself. If you did not finish paying, <a href="${escape(retryPath)}">pay now</a>.</p>
${details(view)}`,
      { refreshSeconds: 3 },
    );
  }
  const confirmed = view.status === 'CONFIRMED';
  return page(
    'Payment received',
    `<h1>Thank you, your payment was received</h1><p class="note ok" data-page-state="paid">${
      confirmed
        ? 'Your booking is confirmed.'
        : view.status === 'CANCELLED'
          ? 'This booking was cancelled meanwhile, so the payment is refunded in full.'
          : 'Your booking awaits confirmation by the venue.'
    }</p>
${details(view)}`,
  );
}

export function cancelledCheckoutHtml(view: PaymentView, retryPath: string): string {
  return page(
    'Payment not completed',
    `<h1>Payment not completed</h1><p class="note" data-page-state="abandoned">Nothing was charged. <a href="${escape(retryPath)}">Try again</a>.</p>\n${details(view)}`,
  );
}

export const NOT_FOUND_HTML = page(
  'Payment link not found',
  '<h1>Payment link not found</h1><p>This payment link is not valid. Please check the link you received.</p>',
);

export const UNAVAILABLE_HTML = page(
  'Payment unavailable',
  '<h1>Payment is unavailable right now</h1><p>The payment provider could not be reached. Nothing was charged. Please try again in a few minutes.</p>',
);
