import { fill, intlTag, type Locale } from '../../kernel/i18n.js';
import { localRange } from '../bookings/index.js';
import type { PaymentView } from './payments.repository.js';
import type { PaymentPageState } from './payments.rules.js';
import { payTexts } from './pay.texts.js';

// The guest's pages behind the paymentUrl: HTML with no script, every value escaped, in the
// guest's language (payTexts; the route picks the locale as the manage page does).

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

const formats = new Map<string, Intl.NumberFormat>();
export function money(cents: number, currency: string, locale: Locale = 'en'): string {
  const key = `${locale}|${currency}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.NumberFormat(intlTag(locale), { style: 'currency', currency })));
  return format.format(cents / 100);
}

type TextKey = Parameters<typeof payTexts.t>[1];

/** A text of the pages, HTML-escaped, its placeholders filled with values that are already HTML. */
function html(locale: Locale, key: TextKey, params?: Readonly<Record<string, string>>): string {
  return fill(escape(payTexts.texts[locale][key]), params);
}

export function page(locale: Locale, title: string, body: string, options: { refreshSeconds?: number } = {}): string {
  const refresh = options.refreshSeconds ? `<meta http-equiv="refresh" content="${options.refreshSeconds}">` : '';
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">${refresh}<title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#222}dt{font-weight:600;margin-top:.75rem}dd{margin:0}.due{font-size:1.5rem}.note{padding:.75rem 1rem;border-radius:.5rem;background:#f1f5f9}.ok{background:#dcfce7}.manage{display:inline-block;padding:.6rem 1rem;border-radius:.5rem;background:#1d4ed8;color:#fff;font-weight:600;text-decoration:none}</style>
</head><body>${body}</body></html>`;
}

/** Cents still due: nothing once the booking is cancelled or completed, or what was paid covers it. */
export function amountDue(view: Pick<PaymentView, 'status' | 'total_price' | 'amount_paid'>): number {
  if (view.status === 'CANCELLED' || view.status === 'COMPLETED') return 0;
  return Math.max(0, view.total_price - view.amount_paid);
}

function details(view: PaymentView, locale: Locale): string {
  const due = amountDue(view);
  const m = (cents: number) => escape(money(cents, view.currency, locale));
  const t = (key: TextKey) => html(locale, key);
  const paid =
    view.amount_paid === 0
      ? ''
      : view.amount_refunded > 0
        ? ` (${html(locale, 'paid.amountsRefunded', { paid: m(view.amount_paid), refunded: m(view.amount_refunded) })})`
        : ` (${m(view.amount_paid)})`;
  return `<dl>
<dt>${t('label.object')}</dt><dd>${escape(view.object_name)}</dd>
<dt>${t('label.venue')}</dt><dd>${escape(view.accommodation_name)}, ${escape(view.accommodation_address)}</dd>
<dt>${t('label.time')}</dt><dd>${escape(localRange(view.start_time, view.end_time, view.time_zone, locale))}</dd>
<dt>${t('label.status')}</dt><dd data-status="${view.status}">${t(`status.${view.status}`)}</dd>
<dt>${t('label.payment')}</dt><dd data-payment-status="${view.payment_status}">${t(`payment.${view.payment_status}`)}${paid}</dd>
<dt>${t('label.amountDue')}</dt><dd class="due" data-amount-cents="${due}">${m(due)}</dd>
<dt>${t('label.reference')}</dt><dd data-reference>${escape(view.reference)}</dd>
</dl>`;
}

function note(view: PaymentView, state: PaymentPageState | 'venue', locale: Locale): string {
  const m = (cents: number) => escape(money(cents, view.currency, locale));
  switch (state) {
    case 'payable':
      return '';
    case 'cancelled':
      return view.amount_paid > 0
        ? html(locale, 'note.cancelledRefunded', { refunded: m(view.amount_refunded), paid: m(view.amount_paid) })
        : html(locale, 'note.cancelled');
    case 'completed':
      return html(locale, 'note.completed');
    case 'paid':
      return html(locale, 'note.paid');
    case 'free':
      return html(locale, 'note.free');
    case 'venue':
      return html(locale, 'note.venue', {
        amount: m(amountDue(view)),
        venue: escape(view.accommodation_name),
        address: escape(view.accommodation_address),
      });
  }
}

/** The page for a booking the paymentUrl does not send to the provider. */
export function paymentPageHtml(view: PaymentView, state: PaymentPageState | 'venue', locale: Locale = 'en'): string {
  const text = note(view, state, locale);
  return page(
    locale,
    payTexts.t(locale, 'page.title', { object: view.object_name }),
    `<h1>${html(locale, 'page.heading')}</h1>${text ? `<p class="note" data-page-state="${state}">${text}</p>` : ''}
${details(view, locale)}`,
  );
}

/**
 * Back from the provider before the payment is confirmed: a page that refreshes itself until it is
 * (then /pay/{token}/done sends the guest on to their own page of the booking, /b/{token}).
 */
export function successPageHtml(view: PaymentView, retryPath: string, locale: Locale = 'en'): string {
  const link = `<a href="${escape(retryPath)}">${html(locale, 'waiting.link')}</a>`;
  return page(
    locale,
    payTexts.t(locale, 'waiting.title'),
    `<h1>${html(locale, 'waiting.heading')}</h1><p class="note" data-page-state="waiting">${html(locale, 'waiting.text', { link })}</p>
${details(view, locale)}`,
    { refreshSeconds: 3 },
  );
}

export function cancelledCheckoutHtml(view: PaymentView, retryPath: string, locale: Locale = 'en'): string {
  const link = `<a href="${escape(retryPath)}">${html(locale, 'abandoned.link')}</a>`;
  return page(
    locale,
    payTexts.t(locale, 'abandoned.title'),
    `<h1>${html(locale, 'abandoned.title')}</h1><p class="note" data-page-state="abandoned">${html(locale, 'abandoned.text', { link })}</p>\n${details(view, locale)}`,
  );
}

export function notFoundHtml(locale: Locale): string {
  return page(
    locale,
    payTexts.t(locale, 'notFound.title'),
    `<h1>${html(locale, 'notFound.title')}</h1><p>${html(locale, 'notFound.text')}</p>`,
  );
}

export function unavailableHtml(locale: Locale): string {
  return page(
    locale,
    payTexts.t(locale, 'unavailable.title'),
    `<h1>${html(locale, 'unavailable.heading')}</h1><p>${html(locale, 'unavailable.text')}</p>`,
  );
}
