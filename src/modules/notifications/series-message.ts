import type { ComposedMail, MailInput } from './mail.types.js';
import { messageTexts } from './messages.texts.js';
import { escapeHtml, headerSafe, localRange, money } from './notification.rules.js';

// The one mail of a series created confirmed (kind series_confirmed, issue #43; docs/bookings.md
// "Recurring bookings"): every booked date with its reference and manage link (each occurrence is
// a booking of its own, with its own key on its manage page), the skipped dates, the venue, the
// object, the total, and the series' recurring invite as the calendar part (method REQUEST). The
// invite was written when the series was created (data.series.invite); the links are the
// occurrences' current ones, read when the mail is sent.

const BUTTON =
  'display:inline-block;padding:12px 18px;border-radius:8px;background:#1d4ed8;color:#fff;text-decoration:none;font-weight:600';

export function composeSeriesMail(input: MailInput): ComposedMail {
  const { data, facts } = input;
  const series = data.series;
  if (!series) throw new Error('a series_confirmed notification carries no series');
  const locale = facts.locale;
  const t = (key: Parameters<typeof messageTexts.t>[1], params?: Record<string, string | number>) =>
    messageTexts.t(locale, key, params);
  const b = data.booking;
  const a = data.accommodation;
  const zone = a.timeZone;
  const heading = t('heading.series_confirmed');
  const first = series.booked[0];
  const subject = headerSafe(
    t('subject.series', {
      heading,
      object: b.objectName,
      venue: a.name,
      count: series.booked.length,
      first: first ? localRange(first.startTime, first.endTime, zone, locale) : '',
    }),
  );
  const booked = series.booked.map((o) => {
    const own = input.occurrences?.[o.bookingId];
    return {
      when: localRange(o.startTime, o.endTime, zone, locale),
      reference: own?.reference ?? (o.bookingId === b.id ? facts.reference : ''),
      url: own?.manageUrl ?? (o.bookingId === b.id ? facts.manageUrl : null),
    };
  });
  const skipped = series.skipped.map((o) => localRange(o.startTime, o.endTime, zone, locale));
  const lines: [string, string][] = [
    [t('label.venue'), `${a.name}, ${a.address}`],
    [t('label.object'), b.objectName],
    [t('label.dates'), String(series.booked.length)],
    [t('label.total'), money(series.totalPrice, b.currency, locale)],
  ];
  const text = [
    t('hello', { name: b.guestName }),
    '',
    `${heading}.`,
    t('intro.series_confirmed'),
    '',
    ...lines.map(([label, value]) => `${label}: ${value}`),
    '',
    `${t('series.booked')}:`,
    ...booked.map((o) => `- ${o.when}${o.reference ? ` (${o.reference})` : ''}${o.url ? `: ${o.url}` : ''}`),
    '',
    ...(skipped.length ? [`${t('series.skipped')}:`, ...skipped.map((s) => `- ${s}`), ''] : []),
    t('note.series'),
    '',
    a.name,
  ].join('\n');

  const rows = lines
    .map(
      ([label, value]) =>
        `<tr><th align="left" style="padding:4px 12px 4px 0;color:#555;font-weight:normal;vertical-align:top">${escapeHtml(label)}</th><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  const bookedHtml = booked
    .map(
      (o) =>
        `<li style="margin:4px 0">${escapeHtml(o.when)}${o.reference ? ` (${escapeHtml(o.reference)})` : ''}${o.url ? ` · <a href="${escapeHtml(o.url)}">${escapeHtml(t('action.manage'))}</a>` : ''}</li>`,
    )
    .join('');
  const skippedHtml = skipped.length
    ? `<h2 style="font-size:16px;margin:20px 0 8px">${escapeHtml(t('series.skipped'))}</h2><ul style="padding-left:20px;margin:0">${skipped.map((s) => `<li style="margin:4px 0">${escapeHtml(s)}</li>`).join('')}</ul>`
    : '';
  const firstUrl = booked[0]?.url ?? facts.manageUrl;
  const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:16px;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#111;background:#fff">
<div style="max-width:560px;margin:0 auto">
<h1 style="font-size:20px;margin:0 0 12px">${escapeHtml(heading)}</h1>
<p style="margin:0 0 8px">${escapeHtml(t('hello', { name: b.guestName }))}</p>
<p style="margin:0 0 16px">${escapeHtml(t('intro.series_confirmed'))}</p>
<table role="presentation" style="border-collapse:collapse;font-size:15px">${rows}</table>
<h2 style="font-size:16px;margin:20px 0 8px">${escapeHtml(t('series.booked'))}</h2>
<ul style="padding-left:20px;margin:0">${bookedHtml}</ul>
${skippedHtml}
<p style="margin:24px 0 0"><a href="${escapeHtml(firstUrl)}" style="${BUTTON}">${escapeHtml(t('action.manage'))}</a></p>
<p style="margin:16px 0 0;color:#555;font-size:13px">${escapeHtml(t('note.series'))}</p>
<p style="margin:24px 0 0;color:#555;font-size:13px">${escapeHtml(a.name)} · ${escapeHtml(a.address)}</p>
</div></body></html>`;
  return {
    subject,
    text,
    html,
    attachments: [],
    icalEvent: { method: 'REQUEST', filename: 'series.ics', content: series.invite },
  };
}
