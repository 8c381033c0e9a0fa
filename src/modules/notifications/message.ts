import QRCode from 'qrcode';
import type { NotificationData, NotificationKind } from '../../kernel/db/types.js';
import { bookingCalendar } from './calendar.js';
import { escapeHtml, headerSafe, localRange, money } from './notification.rules.js';

// What a guest receives: the mail (subject, text, HTML, the inline QR code, the calendar part)
// and the text message. The HTML loads nothing remote: the QR code is an inline part (cid:) and
// every guest- or venue-supplied text is escaped.

export interface GuestKey {
  qrToken: string;
  smsCode: string;
}

export interface MailInput {
  kind: NotificationKind;
  data: NotificationData;
  sequence: number;
  /** The credentials as they are now; absent for a cancellation. */
  key?: GuestKey;
  recipient: string;
  fromAddress: string;
  stamp: Date;
  domain: string;
}

export interface MailAttachment {
  filename: string;
  content: Buffer | string;
  contentType: string;
  cid?: string;
  contentDisposition?: 'inline' | 'attachment';
}

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
  /** The calendar part as nodemailer's `icalEvent` (text/calendar; method=…), when there is one. */
  icalEvent?: { method: 'REQUEST' | 'CANCEL'; filename: string; content: string };
}

export const QR_CID = 'door-qr@portier';

const HEADINGS: Record<NotificationKind, string> = {
  confirmed: 'Your booking is confirmed',
  rescheduled: 'Your booking has moved',
  cancelled: 'Your booking is cancelled',
  reminder: 'Reminder: your booking is coming up',
};

export async function composeMail(input: MailInput): Promise<ComposedMail> {
  const { data, kind, key } = input;
  const b = data.booking;
  const a = data.accommodation;
  const when = localRange(b.startTime, b.endTime, a.timeZone);
  const subject = headerSafe(`${HEADINGS[kind]}: ${b.objectName} at ${a.name}, ${when}`);
  const lines: [string, string][] = [
    ['Venue', `${a.name}, ${a.address}`],
    ['Booked', b.objectName],
    [kind === 'rescheduled' ? 'New time' : 'When', when],
    ['Price', money(b.totalPrice, b.currency)],
  ];
  if (kind === 'cancelled') lines.push(['Refund', money(b.refundAmount ?? 0, b.currency)]);
  if (key) lines.push(['Door code (SMS code)', key.smsCode]);

  const intro =
    kind === 'cancelled'
      ? 'Your booking was cancelled. The door code and QR code no longer open the door.'
      : kind === 'rescheduled'
        ? 'Your booking was moved. The earlier QR code no longer works: use the new one below.'
        : 'Show the QR code at the door, or type the door code on its keypad.';
  const text = [
    `Hello ${b.guestName},`,
    '',
    `${HEADINGS[kind]}.`,
    intro,
    '',
    ...lines.map(([label, value]) => `${label}: ${value}`),
    '',
    key
      ? 'The QR code is in the HTML version of this mail; the calendar entry is attached.'
      : 'The calendar entry is removed by the attached cancellation.',
    '',
    a.name,
  ].join('\n');

  const rows = lines
    .map(
      ([label, value]) =>
        `<tr><th align="left" style="padding:4px 12px 4px 0;color:#555;font-weight:normal;vertical-align:top">${escapeHtml(label)}</th><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  const qr = key
    ? `<p style="margin:24px 0 8px">Your key:</p><img src="cid:${QR_CID}" alt="QR code that opens the door" width="240" height="240" style="display:block;width:240px;height:240px;max-width:100%">`
    : '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:16px;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#111;background:#fff">
<div style="max-width:560px;margin:0 auto">
<h1 style="font-size:20px;margin:0 0 12px">${escapeHtml(HEADINGS[kind])}</h1>
<p style="margin:0 0 8px">Hello ${escapeHtml(b.guestName)},</p>
<p style="margin:0 0 16px">${escapeHtml(intro)}</p>
<table role="presentation" style="border-collapse:collapse;font-size:15px">${rows}</table>
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
  const icalEvent =
    kind === 'reminder'
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

/** The text message of a confirmation or reschedule: the code and the local time. */
export function composeSms(kind: NotificationKind, data: NotificationData, key: GuestKey): string {
  const when = localRange(data.booking.startTime, data.booking.endTime, data.accommodation.timeZone);
  const what = kind === 'rescheduled' ? 'Booking moved' : kind === 'reminder' ? 'Reminder' : 'Booking confirmed';
  return `${what}: ${data.booking.objectName} at ${data.accommodation.name}, ${when}. Door code: ${key.smsCode}`;
}
