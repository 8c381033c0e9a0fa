import QRCode from 'qrcode';
import type { NotificationData, NotificationKind } from '../../kernel/db/types.js';
import type { Locale } from '../../kernel/i18n.js';
import { bookingCalendar } from './calendar.js';
import type { GuestFacts } from './guest-facts.js';
import { messageTexts } from './messages.texts.js';
import { composeSeriesMail } from './series-message.js';
import {
  escapeHtml,
  headerSafe,
  localRange,
  localTime,
  money,
  smsName,
  smsRange,
  vatIncluded,
  vatRate,
} from './notification.rules.js';

// What a guest receives: the mail (subject, text, HTML, the inline QR code, the calendar part)
// and the text message, in the guest's language (messages.texts.ts). The HTML loads nothing remote:
// the QR code is an inline part (cid:) and every guest- or venue-supplied text is escaped. Its only
// links are the guest's manage link and, while something is due, the payment page; both are
// Portier's own (PUBLIC_URL), computed when the message is sent.

export type { GuestKey, MailInput, MailAttachment, ComposedMail } from './mail.types.js';
import type { ComposedMail, GuestKey, MailAttachment, MailInput } from './mail.types.js';

export const QR_CID = 'door-qr@portier';

/** The kinds that carry a calendar part: the booking's entry made, moved or removed. */
const CALENDAR_KINDS: ReadonlySet<NotificationKind> = new Set(['confirmed', 'rescheduled', 'cancelled']);

/** The label/value rows of a mail, in the guest's language. */
function factLines(input: MailInput, locale: Locale): [string, string][] {
  const { data, kind, key, facts } = input;
  const b = data.booking;
  const a = data.accommodation;
  const label = (name: Parameters<typeof messageTexts.t>[1]) => messageTexts.t(locale, name);
  const when = localRange(b.startTime, b.endTime, a.timeZone, locale);
  const lines: [string, string][] = [
    [label('label.reference'), facts.reference],
    [label('label.venue'), `${a.name}, ${a.address}`],
    [label('label.object'), b.objectName],
    [label(kind === 'rescheduled' ? 'label.newTime' : 'label.when'), when],
  ];
  if (kind === 'receipt') {
    const amount = data.payment?.amount ?? 0;
    lines.push([messageTexts.t(locale, 'label.amountPaid'), money(amount, b.currency, locale)]);
    if (facts.vatRateBasisPoints !== null)
      lines.push([
        messageTexts.t(locale, 'label.vat', { rate: vatRate(facts.vatRateBasisPoints, locale) }),
        money(vatIncluded(amount, facts.vatRateBasisPoints), b.currency, locale),
      ]);
    if (data.payment)
      lines.push([messageTexts.t(locale, 'label.paidAt'), localTime(data.payment.paidAt, a.timeZone, locale)]);
    return lines;
  }
  lines.push([label('label.price'), money(b.totalPrice, b.currency, locale)]);
  if (kind === 'payment_due')
    lines.push([label('label.amountDue'), money(b.amountDue ?? b.totalPrice, b.currency, locale)]);
  if (kind === 'cancelled') lines.push([label('label.refund'), money(b.refundAmount ?? 0, b.currency, locale)]);
  if (key) lines.push([label('label.doorCode'), key.smsCode]);
  return lines;
}

const BUTTON =
  'display:inline-block;padding:12px 18px;border-radius:8px;background:#1d4ed8;color:#fff;text-decoration:none;font-weight:600';
const SECONDARY =
  'display:inline-block;padding:11px 17px;border-radius:8px;border:1px solid #1d4ed8;color:#1d4ed8;text-decoration:none;font-weight:600';

export async function composeMail(input: MailInput): Promise<ComposedMail> {
  const { data, kind, key, facts } = input;
  if (kind === 'series_confirmed') return composeSeriesMail(input);
  const locale = facts.locale;
  const t: typeof messageTexts.t = (l, k, p) => messageTexts.t(l, k, p);
  const b = data.booking;
  const a = data.accommodation;
  const heading = t(locale, `heading.${kind}`);
  const when = localRange(b.startTime, b.endTime, a.timeZone, locale);
  const subject = headerSafe(
    kind === 'receipt'
      ? t(locale, 'subject.receipt', { reference: facts.reference, object: b.objectName, venue: a.name })
      : t(locale, 'subject', { heading, object: b.objectName, venue: a.name, when }),
  );
  const lines = factLines(input, locale);
  const intro = t(locale, `intro.${kind}`);
  const calendar = CALENDAR_KINDS.has(kind);
  // The payment page while something is due: the "pay here" message only (a confirmation is paid or paid at the venue).
  const pay =
    kind === 'payment_due'
      ? { url: facts.paymentUrl, amount: money(b.amountDue ?? b.totalPrice, b.currency, locale) }
      : null;
  const note = key
    ? t(locale, calendar ? 'note.key' : 'note.keyNoCalendar')
    : kind === 'cancelled'
      ? t(locale, 'note.cancel')
      : null;
  const text = [
    t(locale, 'hello', { name: b.guestName }),
    '',
    `${heading}.`,
    intro,
    '',
    ...lines.map(([label, value]) => `${label}: ${value}`),
    '',
    ...(pay ? [t(locale, 'action.payText', { url: pay.url }), ''] : []),
    t(locale, 'action.manageText', { url: facts.manageUrl }),
    '',
    ...(note ? [note, ''] : []),
    a.name,
  ].join('\n');

  const rows = lines
    .map(
      ([label, value]) =>
        `<tr><th align="left" style="padding:4px 12px 4px 0;color:#555;font-weight:normal;vertical-align:top">${escapeHtml(label)}</th><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  const qr = key
    ? `<p style="margin:24px 0 8px">${escapeHtml(t(locale, 'key.title'))}</p><img src="cid:${QR_CID}" alt="${escapeHtml(t(locale, 'key.alt'))}" width="240" height="240" style="display:block;width:240px;height:240px;max-width:100%">`
    : '';
  const payButton = pay
    ? `<p style="margin:24px 0 0"><a href="${escapeHtml(pay.url)}" style="${BUTTON}">${escapeHtml(t(locale, 'action.pay', { amount: pay.amount }))}</a></p>`
    : '';
  const manageButton = `<p style="margin:${pay ? '12px' : '24px'} 0 0"><a href="${escapeHtml(facts.manageUrl)}" style="${pay ? SECONDARY : BUTTON}">${escapeHtml(t(locale, 'action.manage'))}</a></p>`;
  const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:16px;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#111;background:#fff">
<div style="max-width:560px;margin:0 auto">
<h1 style="font-size:20px;margin:0 0 12px">${escapeHtml(heading)}</h1>
<p style="margin:0 0 8px">${escapeHtml(t(locale, 'hello', { name: b.guestName }))}</p>
<p style="margin:0 0 16px">${escapeHtml(intro)}</p>
<table role="presentation" style="border-collapse:collapse;font-size:15px">${rows}</table>
${payButton}${manageButton}
${qr}
<p style="margin:24px 0 0;color:#555;font-size:13px">${escapeHtml(a.name)} · ${escapeHtml(a.address)}</p>
</div></body></html>`;

  const attachments: MailAttachment[] = [];
  if (key) {
    const png = await QRCode.toBuffer(key.qrToken, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 6 });
    attachments.push({
      filename: 'door-qr.png',
      content: png,
      contentType: 'image/png',
      cid: QR_CID,
      contentDisposition: 'inline',
    });
  }
  const method = kind === 'cancelled' ? 'CANCEL' : 'REQUEST';
  const icalEvent = !calendar
    ? undefined
    : ({
        method,
        filename: kind === 'cancelled' ? 'cancel.ics' : 'invite.ics',
        content: bookingCalendar({
          data,
          method,
          sequence: input.sequence,
          organizerEmail: input.fromAddress,
          guestEmail: input.recipient,
          stamp: input.stamp,
          domain: input.domain,
        }),
      } as const);
  return { subject, text, html, attachments, icalEvent };
}

/** The longest object and venue names a text message carries (longer ones are shortened). */
const SMS_NAME_MAX = 32;

/**
 * The text message of a change: short, with one link — the payment page for a "pay here", the
 * manage link otherwise — and only GSM 7-bit characters of Portier's own (the guest's and venue's
 * names may bring others). Kept to two segments for names within SMS_NAME_MAX (sms.test).
 */
export function composeSms(kind: NotificationKind, data: NotificationData, facts: GuestFacts, key?: GuestKey): string {
  const locale = facts.locale;
  const b = data.booking;
  const params = {
    venue: smsName(data.accommodation.name, SMS_NAME_MAX),
    object: smsName(b.objectName, SMS_NAME_MAX),
    when: smsRange(b.startTime, b.endTime, data.accommodation.timeZone, locale),
    reference: facts.reference,
    code: key?.smsCode ?? '',
    amount: money(b.amountDue ?? b.totalPrice, b.currency, locale),
    url: kind === 'payment_due' ? facts.paymentUrl : facts.manageUrl,
  };
  switch (kind) {
    case 'confirmed':
    case 'rescheduled':
    case 'reminder':
    case 'cancelled':
    case 'payment_due':
      return messageTexts.t(locale, `sms.${kind}`, params);
    case 'receipt':
      throw new Error('a receipt is sent by mail only');
    case 'series_confirmed':
      throw new Error('a series confirmation is sent by mail only');
  }
}
