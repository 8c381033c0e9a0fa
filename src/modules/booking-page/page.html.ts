import { intlTag, type Locale } from '../../kernel/i18n.js';
import type { PageModel } from './page.model.js';
import { pageTexts } from './page.texts.js';
import { accentColours, durationLabel, includedVat, policyLines, type FreeStart } from './page.rules.js';

// The booking page as HTML: one form that works without a script (each step a submit button),
// the script (page.assets.ts) only fetches the slot list and the price in place. Every value the
// venue or the guest wrote is escaped here.

export const ASSET_PATH = '/book/assets';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

const moneyFormats = new Map<string, Intl.NumberFormat>();
export function money(locale: Locale, cents: number, currency = 'EUR'): string {
  const key = `${locale}|${currency}`;
  let format = moneyFormats.get(key);
  if (!format)
    moneyFormats.set(key, (format = new Intl.NumberFormat(intlTag(locale), { style: 'currency', currency })));
  return format.format(cents / 100);
}

const percent = (locale: Locale, value: number) =>
  new Intl.NumberFormat(intlTag(locale), { style: 'percent', maximumFractionDigits: 2 }).format(value / 100);

function longDate(locale: Locale, date: string): string {
  return new Intl.DateTimeFormat(intlTag(locale), { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );
}

/** The venue's own text for `key` in `locale` (booking_pages.texts), if it wrote one. */
function venueText(model: Pick<PageModel, 'page' | 'locale'>, key: string): string | undefined {
  const text = model.page.texts[model.locale]?.[key];
  return typeof text === 'string' && text.trim() ? text.trim() : undefined;
}

/** Paragraphs of a venue's plain text (blank lines separate them). */
const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((p) => `<p>${escape(p.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('');

export function pageUrl(slug: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) query.set(k, v);
  const q = query.toString();
  return `/book/${encodeURIComponent(slug)}${q ? `?${q}` : ''}`;
}

function errorOf(model: PageModel, field: string): string | undefined {
  return model.errors.find((e) => e.field === field)?.message;
}

/** aria attributes and the message element of a field in error. */
function fieldState(model: PageModel, field: string, hintId?: string): { attrs: string; message: string } {
  const error = errorOf(model, field);
  const ids = [hintId, error ? `${field}-error` : undefined].filter(Boolean).join(' ');
  return {
    attrs: `${ids ? ` aria-describedby="${ids}"` : ''}${error ? ' aria-invalid="true"' : ''}`,
    message: error ? `<p class="error" id="${field}-error">${escape(error)}</p>` : '',
  };
}

interface Shell {
  locale: Locale;
  title: string;
  nonce: string;
  accent: string | null;
  body: string;
  embed: boolean;
}

export function shell({ locale, title, nonce, accent, body, embed }: Shell): string {
  const colours = accentColours(accent);
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<link rel="stylesheet" href="${ASSET_PATH}/page.css">
<style nonce="${nonce}">:root{--accent:${colours.accent};--on-accent:${colours.onAccent};--link:${colours.link}}</style>
<script src="${ASSET_PATH}/page.js" defer></script>
</head><body class="${embed ? 'embed' : 'standalone'}">${body}</body></html>`;
}

function languageSwitch(model: PageModel, t: (key: 'page.language') => string): string {
  const base = { object: model.object?.id, date: model.date, embed: model.embed ? '1' : undefined };
  const link = (locale: Locale, label: string) =>
    locale === model.locale
      ? `<a href="${escape(pageUrl(model.page.slug, { ...base, lang: locale }))}" aria-current="true" lang="${locale}">${label}</a>`
      : `<a href="${escape(pageUrl(model.page.slug, { ...base, lang: locale }))}" lang="${locale}" hreflang="${locale}">${label}</a>`;
  return `<nav class="lang" aria-label="${escape(t('page.language'))}">${link('en', 'English')}${link('de', 'Deutsch')}</nav>`;
}

function objectCards(model: PageModel): string {
  const t = (key: Parameters<typeof pageTexts.t>[1], params?: Record<string, string>) =>
    pageTexts.t(model.locale, key, params);
  const cards = model.objects
    .map((o) => {
      const durations = [o.min_duration_minutes, o.max_duration_minutes];
      const duration =
        durations[0] === durations[1]
          ? durationLabel(o.min_duration_minutes)
          : t('object.durationRange', {
              min: durationLabel(o.min_duration_minutes),
              max: durationLabel(Math.min(o.max_duration_minutes, 24 * 60)),
            });
      const checked = o.id === model.object?.id ? ' checked' : '';
      return `<label class="card"><input type="radio" name="object" value="${escape(o.id)}"${checked} required>
<span class="card-body"><span class="card-title">${escape(o.name)}</span>
<span class="card-meta">${escape(o.accommodation_name)}</span>
<span class="card-meta">${escape(t('object.perHour', { price: money(model.locale, o.price_per_hour) }))} · ${escape(duration)}</span></span></label>`;
    })
    .join('\n');
  return `<fieldset class="step" id="object"><legend><h2>${escape(t('step.object'))}</h2></legend>
${fieldState(model, 'object').message}<div class="cards">${cards}</div></fieldset>`;
}

/** The duration picker's options (also answered to the script when the object changes). */
export function durationOptions(model: Pick<PageModel, 'durations' | 'duration'>): string {
  return model.durations
    .map((d) => `<option value="${d}"${d === model.duration ? ' selected' : ''}>${escape(durationLabel(d))}</option>`)
    .join('');
}

function dateStep(model: PageModel): string {
  const t = (key: Parameters<typeof pageTexts.t>[1], params?: Record<string, string>) =>
    pageTexts.t(model.locale, key, params);
  const bounds = model.dateBounds;
  const hint = bounds
    ? t('date.hint', { from: longDate(model.locale, bounds.min), to: longDate(model.locale, bounds.max) })
    : '';
  const date = fieldState(model, 'date', 'date-hint');
  const durationSelect = model.durations.length
    ? `<div class="field"><label for="duration">${escape(t('duration.label'))}</label>
<select id="duration" name="duration">${durationOptions(model)}</select></div>`
    : '';
  return `<fieldset class="step"><legend><h2>${escape(t('step.date'))}</h2></legend>
<div class="row"><div class="field"><label for="date">${escape(t('date.label'))}</label>
<input type="date" id="date" name="date" value="${escape(model.date ?? '')}"${bounds ? ` min="${bounds.min}" max="${bounds.max}"` : ''} required${date.attrs}>
</div>${durationSelect}</div>
<p class="hint" id="date-hint">${escape(hint)}</p>${date.message}
<button type="submit" name="step" value="slots" formnovalidate class="secondary no-js">${escape(t('slots.show'))}</button>
</fieldset>`;
}

/** The free times of the chosen day (also answered alone, for the script: GET /book/{slug}/slots). */
export function slotsSection(model: PageModel): string {
  const t = (key: Parameters<typeof pageTexts.t>[1], params?: Record<string, string>) =>
    pageTexts.t(model.locale, key, params);
  const zone = model.object?.time_zone ?? '';
  let inner: string;
  if (model.starts === null) inner = `<p class="empty">${escape(t('slots.pickFirst'))}</p>`;
  else if (model.starts.length === 0) inner = `<p class="empty" data-no-slots>${escape(t('slots.none'))}</p>`;
  else {
    const radios = model.starts
      .map((s: FreeStart) => {
        const value = s.start.toISOString();
        const checked = value === model.start?.start.toISOString() ? ' checked' : '';
        return `<label class="slot"><input type="radio" name="start" value="${value}" data-end="${s.end.toISOString()}"${checked} required><span><span class="time">${escape(s.startLabel)}–${escape(s.endLabel)}</span></span></label>`;
      })
      .join('');
    inner = `<div class="slots" role="group" aria-label="${escape(t('slots.legend'))}">${radios}</div>
<p class="hint">${escape(t('slots.zone', { zone }))}</p>
<p class="hint guest-zone" hidden data-venue-zone="${escape(zone)}" data-template="${escape(t('slots.guestZone', { zone: '{zone}' }))}" data-locale="${intlTag(model.locale)}"></p>
<button type="submit" name="step" value="quote" formnovalidate class="secondary no-js">${escape(t('quote.show'))}</button>`;
  }
  const state = fieldState(model, 'start');
  return `<fieldset class="step" id="start" aria-live="polite"><legend><h2>${escape(t('step.time'))}</h2></legend>${state.message}${inner}</fieldset>`;
}

/** The chosen start's price and its breakdown (also answered alone: GET /book/{slug}/quote). */
export function quoteSection(model: PageModel): string {
  const t = (key: Parameters<typeof pageTexts.t>[1], params?: Record<string, string>) =>
    pageTexts.t(model.locale, key, params);
  const quote = model.quote;
  if (!quote || !model.object || !model.start)
    return `<div id="quote" class="quote" aria-live="polite"><p class="hint">${escape(t('quote.pick'))}</p></div>`;
  const minutes = (model.start.end.getTime() - model.start.start.getTime()) / 60_000;
  const rows = [
    `<div class="line"><dt>${escape(t('quote.base', { duration: durationLabel(minutes), price: money(model.locale, model.object.price_per_hour) }))}</dt><dd>${escape(money(model.locale, quote.basePrice))}</dd></div>`,
    ...quote.adjustments.map(
      (a) =>
        `<div class="line"><dt>${escape(a.rule)}</dt><dd>${a.amount > 0 ? '+' : ''}${escape(money(model.locale, a.amount))}</dd></div>`,
    ),
    `<div class="line total"><dt>${escape(t('quote.total'))}</dt><dd data-total-cents="${quote.totalPrice}">${escape(money(model.locale, quote.totalPrice))}</dd></div>`,
  ];
  const vatRate = model.page.vat_rate_basis_points;
  const vat =
    vatRate != null && vatRate > 0
      ? `<p class="hint">${escape(t('quote.vat', { rate: percent(model.locale, vatRate / 100), amount: money(model.locale, includedVat(quote.totalPrice, vatRate)) }))}</p>`
      : '';
  return `<div id="quote" class="quote" aria-live="polite"><p class="when">${escape(`${longDate(model.locale, model.date ?? '')}, ${model.start.startLabel}–${model.start.endLabel}`)}</p><dl>${rows.join('')}</dl>${vat}</div>`;
}

function detailsStep(model: PageModel): string {
  const t = (key: Parameters<typeof pageTexts.t>[1]) => pageTexts.t(model.locale, key);
  const name = fieldState(model, 'name');
  const email = fieldState(model, 'email', 'email-hint');
  const phone = fieldState(model, 'phone', 'phone-hint');
  return `<fieldset class="step"><legend><h2>${escape(t('step.details'))}</h2></legend>
<div class="field"><label for="name">${escape(t('details.name'))}</label>
<input id="name" name="name" autocomplete="name" maxlength="200" value="${escape(model.guest.name)}" required${name.attrs}>${name.message}</div>
<div class="field"><label for="email">${escape(t('details.email'))}</label>
<input id="email" name="email" type="email" autocomplete="email" maxlength="254" value="${escape(model.guest.email)}" required${email.attrs}>
<p class="hint" id="email-hint">${escape(t('details.emailHint'))}</p>${email.message}</div>
<div class="field"><label for="phone">${escape(t('details.phone'))}</label>
<input id="phone" name="phone" type="tel" autocomplete="tel" maxlength="40" value="${escape(model.guest.phone)}" required${phone.attrs}>
<p class="hint" id="phone-hint">${escape(t('details.phoneHint'))}</p>${phone.message}</div>
<div class="hp"><label for="website">${escape(t('details.honeypot'))}</label><input id="website" name="website" tabindex="-1" autocomplete="off"></div>
</fieldset>`;
}

function policyStep(model: PageModel): string {
  const t = (key: Parameters<typeof pageTexts.t>[1], params?: Record<string, string>) =>
    pageTexts.t(model.locale, key, params);
  const own = venueText(model, 'cancellationPolicy');
  let rules: string;
  if (!model.policyTiers) rules = `<p>${escape(t('policy.none'))}</p>`;
  else {
    const tiers = policyLines(model.policyTiers);
    const items = tiers.map((tier) =>
      tier.hoursBeforeStart === 0
        ? t('policy.tierAny', { percent: percent(model.locale, tier.refundPercent) })
        : t('policy.tier', {
            hours: durationLabel(tier.hoursBeforeStart * 60),
            percent: percent(model.locale, tier.refundPercent),
          }),
    );
    if (!tiers.some((tier) => tier.hoursBeforeStart === 0)) items.push(t('policy.later'));
    rules = `<ul class="policy">${items.map((i) => `<li>${escape(i)}</li>`).join('')}</ul>`;
  }
  const accept = fieldState(model, 'accept');
  return `<fieldset class="step" id="policy"><legend><h2>${escape(t('step.policy'))}</h2></legend>
${own ? `<div class="venue-text">${paragraphs(own)}</div>` : ''}${rules}
<label class="check"><input type="checkbox" id="accept" name="accept" value="yes"${model.guest.accepted ? ' checked' : ''} required${accept.attrs}><span>${escape(t('policy.accept'))}</span></label>${accept.message}
</fieldset>`;
}

function paymentStep(model: PageModel): string {
  const t = (key: Parameters<typeof pageTexts.t>[1]) => pageTexts.t(model.locale, key);
  const mode = model.page.payment_mode;
  if (mode === 'online_required') return `<p class="hint pay-note">${escape(t('payment.onlineNote'))}</p>`;
  if (mode === 'at_venue') return `<p class="hint pay-note">${escape(t('payment.venueNote'))}</p>`;
  const pay = model.guest.pay || 'online';
  const state = fieldState(model, 'pay');
  return `<fieldset class="step" id="pay"><legend><h2>${escape(t('step.payment'))}</h2></legend>${state.message}
<label class="check"><input type="radio" name="pay" value="online"${pay === 'online' ? ' checked' : ''} required><span>${escape(t('payment.online'))}</span></label>
<label class="check"><input type="radio" name="pay" value="venue"${pay === 'venue' ? ' checked' : ''}><span>${escape(t('payment.venue'))}</span></label>
</fieldset>`;
}

function errorSummary(model: PageModel): string {
  if (!model.errors.length && !model.formError) return '';
  const t = (key: Parameters<typeof pageTexts.t>[1]) => pageTexts.t(model.locale, key);
  const items = model.errors.map((e) => `<li><a href="#${escape(e.field)}">${escape(e.message)}</a></li>`).join('');
  return `<div class="summary" id="errors" role="alert" tabindex="-1"><h2>${escape(model.formError ?? t('errors.title'))}</h2>${items ? `<ul>${items}</ul>` : ''}</div>`;
}

/** The whole page. */
export function bookingPageHtml(model: PageModel, nonce: string): string {
  const t = (key: Parameters<typeof pageTexts.t>[1], params?: Record<string, string>) =>
    pageTexts.t(model.locale, key, params);
  const venue = model.page.venue_name;
  const intro = venueText(model, 'intro');
  const online =
    model.page.payment_mode === 'online_required' ||
    (model.page.payment_mode === 'online_optional' && (model.guest.pay || 'online') === 'online');
  const action = pageUrl(model.page.slug, { lang: model.locale, embed: model.embed ? '1' : undefined });
  const logo = model.page.logo?.startsWith('data:image/')
    ? `<img class="logo" src="${escape(model.page.logo)}" alt="">`
    : '';
  const body = `<a class="skip" href="#booking">${escape(t('page.skip'))}</a>
<header class="top">${logo}<h1>${escape(venue)}</h1>${languageSwitch(model, t)}</header>
<main id="main">${intro ? `<div class="intro">${paragraphs(intro)}</div>` : ''}
<form id="booking" method="post" action="${escape(action)}" data-slug="${escape(model.page.slug)}" data-lang="${model.locale}" data-embed="${model.embed ? '1' : ''}" data-origins="${escape(model.page.allowed_origins.join(' '))}">
${errorSummary(model)}
${objectCards(model)}
${dateStep(model)}
${slotsSection(model)}
${quoteSection(model)}
${detailsStep(model)}
${policyStep(model)}
${paymentStep(model)}
<input type="hidden" name="lang" value="${model.locale}">
<input type="hidden" name="challenge" value="${escape(model.challenge)}">
<input type="hidden" name="nonce" value="">
<div class="submit"><button type="submit" name="step" value="book" class="primary"${model.embed ? ' formtarget="_top"' : ''} data-working="${escape(t('submit.working'))}"${model.page.payment_mode === 'online_optional' ? ` data-label-online="${escape(t('submit.bookAndPay'))}" data-label-venue="${escape(t('submit.book'))}"` : ''}>${escape(online ? t('submit.bookAndPay') : t('submit.book'))}</button>
<p class="hint" id="pow-status" aria-live="polite"></p></div>
</form></main>
<footer class="foot"><p>${escape(t('page.poweredBy'))}</p></footer>`;
  return shell({
    locale: model.locale,
    title: t('page.title', { venue }),
    nonce,
    accent: model.page.accent_colour,
    body,
    embed: model.embed,
  });
}

export function notFoundHtml(locale: Locale, nonce: string): string {
  const t = (key: Parameters<typeof pageTexts.t>[1]) => pageTexts.t(locale, key);
  return shell({
    locale,
    title: t('notFound.title'),
    nonce,
    accent: null,
    embed: false,
    body: `<main id="main" class="message"><h1>${escape(t('notFound.title'))}</h1><p>${escape(t('notFound.text'))}</p></main>`,
  });
}
