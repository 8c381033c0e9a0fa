import { createHash } from 'node:crypto';
import type { Locale } from '../../kernel/i18n.js';
import { bookingTexts } from '../bookings/index.js';
import type { FreeStart } from '../availability/index.js';
import type { GuestBooking, CancelPreview } from './guest.service.js';
import { guestTexts } from './guest.texts.js';
import {
  amountDue,
  durationMinutes,
  localDateIn,
  localDay,
  localRange,
  money,
  percentOf,
  vatIncluded,
  type CancelRefusal,
  type RescheduleRefusal,
} from './guest.rules.js';

// The guest's manage pages: server-rendered HTML, no script, nothing from another host, every
// value escaped. The one style sheet is inline and allowed by its hash in the page's CSP.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

const DEFAULT_ACCENT = '#1d4ed8';

function styleOf(accent: string): string {
  return `:root{--accent:${accent};--ink:#111827;--muted:#4b5563;--line:#e5e7eb;--soft:#f3f4f6}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#f9fafb}
header{display:flex;align-items:center;justify-content:space-between;gap:.75rem;padding:.75rem 1rem;background:#fff;border-bottom:1px solid var(--line)}
header .venue{display:flex;align-items:center;gap:.5rem;font-weight:600;min-width:0}header img{max-height:2rem;max-width:6rem}
header a{color:var(--accent);white-space:nowrap}
main{max-width:30rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;line-height:1.25;margin:.25rem 0 1rem}h2{font-size:1.15rem;margin:0 0 .5rem}
.card{background:#fff;border:1px solid var(--line);border-radius:.75rem;padding:1rem;margin:0 0 1rem}
dl{margin:0;display:grid;grid-template-columns:minmax(6rem,auto) 1fr;gap:.35rem .75rem}dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
.badge{display:inline-block;padding:.1rem .6rem;border-radius:999px;font-size:.875rem;font-weight:600;background:var(--soft)}
.badge.CONFIRMED{background:#dcfce7;color:#14532d}.badge.PENDING{background:#fef9c3;color:#713f12}.badge.CANCELLED{background:#fee2e2;color:#7f1d1d}
.note{padding:.75rem 1rem;border-radius:.5rem;background:var(--soft);margin:0 0 1rem}.note.ok{background:#dcfce7;color:#14532d}.note.warn{background:#fef3c7;color:#78350f}
.muted{color:var(--muted);font-size:.875rem}
.qr{display:block;width:15rem;height:15rem;max-width:100%;margin:.5rem auto;image-rendering:pixelated}
.code{display:block;text-align:center;font:600 1.75rem/1.2 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.15em;margin:.5rem 0}
.button{display:block;width:100%;text-align:center;padding:.8rem 1rem;margin:.5rem 0 0;border-radius:.5rem;border:2px solid var(--accent);background:#fff;color:var(--accent);font:inherit;font-weight:600;text-decoration:none;cursor:pointer}
.button.primary{background:var(--accent);color:#fff}.button.danger{border-color:#b91c1c;color:#b91c1c}.button.danger.primary{background:#b91c1c;color:#fff}
.links{display:flex;flex-wrap:wrap;gap:.5rem 1rem;margin:.75rem 0 0}.links a{color:var(--accent)}
label{display:block;font-weight:600;margin:0 0 .25rem}input[type=date]{font:inherit;padding:.6rem;border:1px solid #9ca3af;border-radius:.5rem;width:100%}
fieldset{border:0;margin:0;padding:0}legend{font-weight:600;margin:0 0 .5rem}
.slots{display:grid;grid-template-columns:repeat(auto-fill,minmax(6.5rem,1fr));gap:.5rem}
.slot{display:block;position:relative;font-weight:400;margin:0}.slot input{position:absolute;opacity:0}.slot span{display:block;text-align:center;padding:.6rem .25rem;border:1px solid #9ca3af;border-radius:.5rem;background:#fff}
.slot input:checked+span{border:2px solid var(--accent);background:var(--soft);font-weight:600}.slot input:focus-visible+span{outline:3px solid var(--accent);outline-offset:2px}
table{width:100%;border-collapse:collapse}th{font-weight:400}th,td{padding:.4rem 0;text-align:left;vertical-align:top}td.num{text-align:right;white-space:nowrap}tr.total th,tr.total td{border-top:1px solid var(--line);font-weight:700}
footer{max-width:30rem;margin:0 auto;padding:0 1rem 2rem;color:var(--muted);font-size:.875rem}`;
}

export interface Page {
  html: string;
  /** The page's Content-Security-Policy (its style sheet's hash). */
  csp: string;
}

export interface Frame {
  locale: Locale;
  /** The same page in the other language (path and query). */
  otherLanguageHref: string;
  venueName?: string;
  accent?: string | null;
  logo?: string | null;
}

function shell(frame: Frame, title: string, body: string, footer = ''): Page {
  const t = (key: Parameters<typeof guestTexts.t>[1]) => guestTexts.t(frame.locale, key);
  const style = styleOf(frame.accent ?? DEFAULT_ACCENT);
  const hash = createHash('sha256').update(style).digest('base64');
  const other: Locale = frame.locale === 'en' ? 'de' : 'en';
  const logo = frame.logo ? `<img src="${escape(frame.logo)}" alt="">` : '';
  const html = `<!doctype html>
<html lang="${frame.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer"><title>${escape(title)}</title>
<style>${style}</style></head><body>
<header><span class="venue">${logo}<span>${escape(frame.venueName ?? '')}</span></span><a href="${escape(frame.otherLanguageHref)}" hreflang="${other}" lang="${other}">${escape(t('page.otherLanguage'))}</a></header>
<main>${body}</main>${footer ? `<footer>${footer}</footer>` : ''}
</body></html>`;
  return {
    html,
    csp: `default-src 'none'; style-src 'sha256-${hash}'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  };
}

type GuestKey = Parameters<typeof guestTexts.t>[1];

function texts(locale: Locale) {
  return {
    t: (key: GuestKey, params?: Record<string, string | number>) => escape(guestTexts.t(locale, key, params)),
    b: (key: Parameters<typeof bookingTexts.t>[1]) => escape(bookingTexts.t(locale, key)),
  };
}

function frameOf(booking: GuestBooking, locale: Locale, otherLanguageHref: string): Frame {
  return {
    locale,
    otherLanguageHref,
    venueName: booking.accommodation_name,
    accent: booking.accent_colour,
    logo: booking.logo,
  };
}

/** The reference a guest quotes (PRT-…, docs/bookings.md "Reference"). */
const referenceOf = (booking: GuestBooking) => booking.reference;

function details(booking: GuestBooking, locale: Locale): string {
  const { t, b } = texts(locale);
  const m = (cents: number) => escape(money(cents, booking.currency, locale));
  const amounts = {
    paid: money(booking.amount_paid, booking.currency, locale),
    refunded: money(booking.amount_refunded, booking.currency, locale),
  };
  const payment =
    booking.amount_paid > 0
      ? ` (${booking.amount_refunded > 0 ? t('page.paidRefunded', amounts) : t('page.paid', amounts)})`
      : '';
  return `<dl>
<dt>${b('label.object')}</dt><dd>${escape(booking.object_name)}</dd>
<dt>${b('label.venue')}</dt><dd>${escape(booking.accommodation_name)}<br>${escape(booking.accommodation_address)}</dd>
<dt>${b('label.when')}</dt><dd data-start="${booking.start_time.toISOString()}">${escape(localRange(booking.start_time, booking.end_time, booking.time_zone, locale))}</dd>
<dt>${b('label.status')}</dt><dd><span class="badge ${booking.status}" data-status="${booking.status}">${b(`status.${booking.status}`)}</span></dd>
<dt>${b('label.payment')}</dt><dd data-payment-status="${booking.payment_status}">${b(`payment.${booking.payment_status}`)}${payment}</dd>
<dt>${b('label.price')}</dt><dd data-price-cents="${booking.total_price}">${m(booking.total_price)}</dd>
<dt>${b('label.reference')}</dt><dd><code>${escape(referenceOf(booking))}</code></dd>
</dl>
<p class="muted">${t('page.zoneNote', { zone: booking.time_zone })}</p>`;
}

export interface ViewInput {
  booking: GuestBooking;
  locale: Locale;
  base: string;
  otherLanguageHref: string;
  key: { qrSvg: string; smsCode: string } | null;
  pay: { kind: 'online'; url: string } | { kind: 'venue' } | null;
  canCancel: boolean;
  canReschedule: boolean;
  done?: { kind: 'cancelled'; moneyBack: number } | { kind: 'rescheduled' } | { kind: 'paid' };
}

const withLang = (path: string, locale: Locale) => `${path}${path.includes('?') ? '&' : '?'}lang=${locale}`;

/** The manage page: the booking, its door key when confirmed, and what the guest can do. */
export function viewPage(input: ViewInput): Page {
  const { booking, locale, base } = input;
  const { t, b } = texts(locale);
  const notes: string[] = [];
  if (input.done?.kind === 'cancelled') {
    notes.push(
      `<p class="note ok" role="status" data-done="cancelled">${
        input.done.moneyBack > 0
          ? t('done.cancelledRefund', { amount: money(input.done.moneyBack, booking.currency, locale) })
          : t('done.cancelled')
      }</p>`,
    );
  }
  if (input.done?.kind === 'paid')
    notes.push(
      `<p class="note ok" role="status" data-done="paid">${t(input.key ? 'done.paidConfirmed' : 'done.paid')}</p>`,
    );
  if (input.done?.kind === 'rescheduled')
    notes.push(`<p class="note ok" role="status" data-done="rescheduled">${t('done.rescheduled')}</p>`);
  if (booking.status === 'PENDING') notes.push(`<p class="note">${t('page.pending')}</p>`);

  const key = input.key
    ? `<section class="card" aria-labelledby="key-heading"><h2 id="key-heading">${t('key.heading')}</h2>
<p>${t('key.intro')}</p>
<img class="qr" data-qr src="data:image/svg+xml;base64,${Buffer.from(input.key.qrSvg).toString('base64')}" alt="${t('key.qrAlt')}" width="240" height="240">
<p class="muted">${b('label.doorCode')}</p><code class="code" data-sms-code>${escape(input.key.smsCode)}</code></section>`
    : booking.status === 'PENDING'
      ? `<section class="card" aria-labelledby="key-heading"><h2 id="key-heading">${t('key.heading')}</h2><p>${t('key.notYet')}</p></section>`
      : '';

  const due = amountDue(booking);
  const pay =
    input.pay?.kind === 'online'
      ? `<a class="button primary" data-pay href="${escape(input.pay.url)}">${t('pay.online', { amount: money(due, booking.currency, locale) })}</a>`
      : input.pay?.kind === 'venue'
        ? `<p class="note warn" data-pay-at-venue>${t('pay.atVenue', { amount: money(due, booking.currency, locale) })}</p>`
        : '';
  const actions = [
    pay,
    input.canReschedule
      ? `<a class="button" href="${escape(withLang(`${base}/reschedule`, locale))}">${t('action.reschedule')}</a>`
      : '',
    input.canCancel
      ? `<a class="button danger" href="${escape(withLang(`${base}/cancel`, locale))}">${t('action.cancel')}</a>`
      : '',
  ].join('');
  const links = `<p class="links"><a href="${escape(`${base}/calendar.ics`)}" download="booking.ics">${t('action.calendar')}</a><a href="${escape(withLang(`${base}/receipt`, locale))}">${t('action.receipt')}</a></p>`;

  return shell(
    frameOf(booking, locale, input.otherLanguageHref),
    `${guestTexts.t(locale, 'page.title')}: ${booking.object_name}`,
    `<h1>${t('page.title')}</h1>${notes.join('')}
<section class="card" aria-label="${t('page.title')}">${details(booking, locale)}</section>
${key}
<section class="card" aria-labelledby="actions-heading"><h2 id="actions-heading">${t('page.actions')}</h2>${actions}${links}</section>`,
  );
}

export interface CancelInput {
  booking: GuestBooking;
  locale: Locale;
  base: string;
  otherLanguageHref: string;
  preview: CancelPreview;
  formToken: string;
}

function refusalText(locale: Locale, refusal: CancelRefusal, preview: CancelPreview): string {
  const { t } = texts(locale);
  if (refusal === 'tooLate') return t('cancel.tooLate', { hours: preview.shortestNoticeHours ?? 0 });
  return t(`cancel.${refusal}`);
}

/** The confirm step of a cancellation: what it gives back first; or why the guest cannot cancel online. */
export function cancelPage(input: CancelInput): Page {
  const { booking, locale, base, preview } = input;
  const { t } = texts(locale);
  const back = `<a class="button" href="${escape(withLang(base, locale))}">${t('page.back')}</a>`;
  if (preview.refusal) {
    return shell(
      frameOf(booking, locale, input.otherLanguageHref),
      guestTexts.t(locale, 'cancel.heading'),
      `<h1>${t('cancel.heading')}</h1><p class="note warn" role="alert" data-refusal="${preview.refusal}">${refusalText(locale, preview.refusal, preview)}</p>
<section class="card">${details(booking, locale)}</section>${back}`,
    );
  }
  const money_ = money(preview.moneyBack, booking.currency, locale);
  const refund =
    preview.amountPaid <= 0
      ? t('cancel.nothingPaid')
      : preview.moneyBack > 0
        ? t('cancel.moneyBack', { amount: money_ })
        : t('cancel.nothingBack');
  const policy = preview.policyName ? t('cancel.policy', { policy: preview.policyName }) : t('cancel.noPolicy');
  return shell(
    frameOf(booking, locale, input.otherLanguageHref),
    guestTexts.t(locale, 'cancel.heading'),
    `<h1>${t('cancel.heading')}</h1>
<section class="card">${details(booking, locale)}</section>
<p class="note warn" data-money-back="${preview.moneyBack}"><strong>${refund}</strong><br>${policy}</p>
<form method="post" action="${escape(`${base}/cancel`)}">
<input type="hidden" name="csrf" value="${escape(input.formToken)}"><input type="hidden" name="lang" value="${locale}">
<button class="button danger primary" type="submit">${t('cancel.confirm')}</button></form>
<a class="button" href="${escape(withLang(base, locale))}">${t('cancel.keep')}</a>`,
  );
}

export interface RescheduleInput {
  booking: GuestBooking;
  locale: Locale;
  base: string;
  otherLanguageHref: string;
  date: string;
  starts: FreeStart[];
  message?: 'taken' | 'badDate' | 'badStart';
  refusal?: RescheduleRefusal;
}

/** Step one of a reschedule: a date, and the free times of the booking's object that day. */
export function reschedulePage(input: RescheduleInput): Page {
  const { booking, locale, base } = input;
  const { t } = texts(locale);
  const frame = frameOf(booking, locale, input.otherLanguageHref);
  const title = guestTexts.t(locale, 'reschedule.heading');
  const back = `<a class="button" href="${escape(withLang(base, locale))}">${t('page.back')}</a>`;
  if (input.refusal) {
    return shell(
      frame,
      title,
      `<h1>${t('reschedule.heading')}</h1><p class="note warn" role="alert" data-refusal="${input.refusal}">${t(`reschedule.${input.refusal}`)}</p>${back}`,
    );
  }
  const message = input.message
    ? `<p class="note warn" role="alert" data-message="${input.message}">${t(`reschedule.${input.message}`)}</p>`
    : '';
  const current = booking.start_time.getTime();
  const slots = input.starts.length
    ? `<form method="get" action="${escape(`${base}/reschedule`)}"><input type="hidden" name="lang" value="${locale}"><input type="hidden" name="date" value="${escape(input.date)}">
<fieldset><legend>${t('reschedule.free', { date: localDay(input.date, booking.time_zone, locale) })}</legend><div class="slots">${input.starts
        .map(
          (s, i) =>
            `<label class="slot"><input type="radio" name="start" value="${s.start.toISOString()}"${i === 0 ? ' required' : ''}${s.start.getTime() === current ? ' disabled' : ''}><span>${escape(s.startLabel)}–${escape(s.endLabel)}</span></label>`,
        )
        .join('')}</div></fieldset>
<button class="button primary" type="submit">${t('reschedule.continue')}</button></form>`
    : `<p class="note" data-no-slots>${t('reschedule.none')}</p>`;
  return shell(
    frame,
    title,
    `<h1>${t('reschedule.heading')}</h1>${message}
<section class="card"><p class="muted">${t('reschedule.current')}</p><p>${escape(localRange(booking.start_time, booking.end_time, booking.time_zone, locale))}</p>
<p class="muted">${t('reschedule.duration', { minutes: durationMinutes(booking) })} ${t('page.zoneNote', { zone: booking.time_zone })}</p></section>
<section class="card"><form method="get" action="${escape(`${base}/reschedule`)}"><input type="hidden" name="lang" value="${locale}">
<label for="date">${t('reschedule.date')}</label><input id="date" name="date" type="date" value="${escape(input.date)}" required>
<button class="button" type="submit">${t('reschedule.show')}</button></form></section>
<section class="card">${slots}</section>${back}`,
  );
}

export interface RescheduleConfirmInput {
  booking: GuestBooking;
  locale: Locale;
  base: string;
  otherLanguageHref: string;
  start: Date;
  end: Date;
  newPrice: number;
  formToken: string;
}

/** Step two: the new time and price, and the button that moves the booking. */
export function rescheduleConfirmPage(input: RescheduleConfirmInput): Page {
  const { booking, locale, base } = input;
  const { t, b } = texts(locale);
  const date = input.start.toISOString();
  return shell(
    frameOf(booking, locale, input.otherLanguageHref),
    guestTexts.t(locale, 'reschedule.confirmHeading'),
    `<h1>${t('reschedule.confirmHeading')}</h1>
<section class="card"><dl>
<dt>${t('reschedule.current')}</dt><dd>${escape(localRange(booking.start_time, booking.end_time, booking.time_zone, locale))}</dd>
<dt>${b('label.newTime')}</dt><dd data-new-start="${date}"><strong>${escape(localRange(input.start, input.end, booking.time_zone, locale))}</strong></dd>
<dt>${b('label.price')}</dt><dd data-new-price-cents="${input.newPrice}">${escape(money(input.newPrice, booking.currency, locale))}</dd>
</dl><p class="muted">${t('reschedule.priceNote')} ${t('page.zoneNote', { zone: booking.time_zone })}</p></section>
<form method="post" action="${escape(`${base}/reschedule`)}">
<input type="hidden" name="csrf" value="${escape(input.formToken)}"><input type="hidden" name="lang" value="${locale}"><input type="hidden" name="start" value="${date}">
<button class="button primary" type="submit">${t('reschedule.confirm')}</button></form>
<a class="button" href="${escape(withLang(`${base}/reschedule?date=${date.slice(0, 10)}`, locale))}">${t('reschedule.other')}</a>`,
  );
}

export interface ReceiptInput {
  booking: GuestBooking;
  locale: Locale;
  base: string;
  otherLanguageHref: string;
}

/** The receipt: what was paid and refunded, the VAT it contains when the venue sets a rate, the venue. */
export function receiptPage(input: ReceiptInput): Page {
  const { booking, locale, base } = input;
  const { t, b } = texts(locale);
  const m = (cents: number) => escape(money(cents, booking.currency, locale));
  const net = booking.amount_paid - booking.amount_refunded;
  const rate = booking.vat_rate_basis_points;
  const rows = [
    `<tr><th scope="row">${escape(booking.object_name)}<br><span class="muted">${escape(localRange(booking.start_time, booking.end_time, booking.time_zone, locale))}</span></th><td class="num">${m(booking.total_price)}</td></tr>`,
    `<tr><th scope="row">${t('receipt.paid')}</th><td class="num" data-paid-cents="${booking.amount_paid}">${m(booking.amount_paid)}</td></tr>`,
    booking.amount_refunded > 0
      ? `<tr><th scope="row">${t('receipt.refunded')}</th><td class="num" data-refunded-cents="${booking.amount_refunded}">−${m(booking.amount_refunded)}</td></tr>`
      : '',
    `<tr class="total"><th scope="row">${t('receipt.total')}</th><td class="num" data-net-cents="${net}">${m(net)}</td></tr>`,
    rate != null && net > 0
      ? `<tr><th scope="row">${t('receipt.vat', { rate: percentOf(rate, locale) })}</th><td class="num" data-vat-cents="${vatIncluded(net, rate)}">${m(vatIncluded(net, rate))}</td></tr>`
      : '',
  ].join('');
  const paidAt = booking.paid_at
    ? `<dt>${t('receipt.paidAt')}</dt><dd>${escape(localDay(localDateIn(booking.paid_at, booking.time_zone), booking.time_zone, locale))}</dd>`
    : '';
  return shell(
    frameOf(booking, locale, input.otherLanguageHref),
    guestTexts.t(locale, 'receipt.heading'),
    `<h1>${t('receipt.heading')}</h1>
<section class="card"><dl><dt>${b('label.reference')}</dt><dd><code>${escape(referenceOf(booking))}</code></dd>
<dt>${b('label.guestName')}</dt><dd>${escape(booking.guest_name)}</dd>${paidAt}
<dt>${b('label.payment')}</dt><dd data-payment-status="${booking.payment_status}">${b(`payment.${booking.payment_status}`)}</dd></dl></section>
<section class="card">${booking.amount_paid > 0 ? '' : `<p class="note">${t('receipt.nothing')}</p>`}<table><caption class="muted">${t('receipt.heading')}</caption><tbody>${rows}</tbody></table></section>
<section class="card"><p class="muted">${t('receipt.issuedBy')}</p><p>${escape(booking.accommodation_name)}<br>${escape(booking.accommodation_address)}</p></section>
<a class="button" href="${escape(withLang(base, locale))}">${t('page.back')}</a>`,
  );
}

/** A link that opens nothing: the same page whatever was wrong with it (no oracle about which bookings exist). */
export function notFoundPage(locale: Locale, otherLanguageHref: string): Page {
  const { t } = texts(locale);
  return shell(
    { locale, otherLanguageHref },
    guestTexts.t(locale, 'notFound.title'),
    `<h1>${t('notFound.title')}</h1><p>${t('notFound.body')}</p>`,
  );
}

/** A form whose origin or token did not check out. */
export function formRefusedPage(booking: GuestBooking, locale: Locale, base: string, otherLanguageHref: string): Page {
  const { t } = texts(locale);
  return shell(
    frameOf(booking, locale, otherLanguageHref),
    guestTexts.t(locale, 'form.title'),
    `<h1>${t('form.title')}</h1><p class="note warn" role="alert">${t('form.body')}</p><a class="button" href="${escape(withLang(base, locale))}">${t('page.back')}</a>`,
  );
}
