// Guest-facing texts in English and German (issue #41, docs/booking-page.md "Languages").
//
// Every guest-facing text lives in a catalog made by `defineTexts(name, en, de)`: the German
// catalog must name every English key (the compiler says so) and every catalog is registered, so a
// test walks all of them and fails on a missing or empty text or a placeholder one language lacks.
// A text's placeholders are `{name}`; `fill` replaces them and leaves escaping to the caller (HTML
// pages escape what they put in a page, mails and SMS are text).

export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export type Texts<K extends string = string> = Readonly<Record<K, string>>;

export interface Catalog<K extends string> {
  readonly name: string;
  readonly texts: Readonly<Record<Locale, Texts<K>>>;
  /** The text of `key` in `locale`, its placeholders filled from `params`. */
  t(locale: Locale, key: K, params?: Readonly<Record<string, string | number>>): string;
}

const registry = new Map<string, Catalog<string>>();

/** Every catalog defined so far (for the completeness test). */
export function catalogs(): readonly Catalog<string>[] {
  return [...registry.values()];
}

export function defineTexts<const E extends Record<string, string>>(
  name: string,
  en: E,
  de: { readonly [K in keyof E]: string },
): Catalog<Extract<keyof E, string>> {
  type K = Extract<keyof E, string>;
  if (registry.has(name)) throw new Error(`The text catalog '${name}' is defined twice`);
  const texts = { en: en as Texts<K>, de: de as Texts<K> };
  const catalog: Catalog<K> = {
    name,
    texts,
    t: (locale, key, params) => fill(texts[locale][key] ?? texts.en[key], params),
  };
  registry.set(name, catalog);
  return catalog;
}

const PLACEHOLDER = /\{([a-zA-Z][a-zA-Z0-9]*)\}/g;

/** `template` with each `{name}` replaced by `params[name]`; an unknown name stays as written. */
export function fill(template: string, params?: Readonly<Record<string, string | number>>): string {
  if (!params) return template;
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** The placeholder names of a text, sorted (the test compares them across languages). */
export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ''))].sort();
}

/**
 * The locale a guest asked for: an explicit choice (`?lang=de`, a stored preference) wins, then the
 * best of `Accept-Language` by q-value (RFC 9110 section 12.5.4; `de-AT` counts as `de`), then the
 * venue's default. Malformed parts of the header are skipped, never an error.
 */
export function negotiateLocale(
  acceptLanguage: string | undefined,
  options: { choice?: string | null; fallback?: Locale } = {},
): Locale {
  if (options.choice && isLocale(options.choice.toLowerCase())) return options.choice.toLowerCase() as Locale;
  const fallback = options.fallback ?? DEFAULT_LOCALE;
  if (!acceptLanguage) return fallback;
  let best: { locale: Locale; q: number } | null = null;
  for (const part of acceptLanguage.slice(0, 512).split(',')) {
    const [range = '', ...params] = part.trim().split(';');
    const primary = range.trim().toLowerCase().split('-')[0] ?? '';
    let q = 1;
    for (const param of params) {
      const [k, v] = param.trim().split('=');
      if (k?.trim().toLowerCase() === 'q') q = Number(v);
    }
    if (!Number.isFinite(q) || q <= 0 || q > 1) continue;
    const locale = primary === '*' ? fallback : isLocale(primary) ? primary : null;
    if (locale && (!best || q > best.q)) best = { locale, q };
  }
  return best?.locale ?? fallback;
}

const BCP47: Record<Locale, string> = { en: 'en-GB', de: 'de-DE' };

/** The Intl locale tag for formatting dates and money in `locale`. */
export function intlTag(locale: Locale): string {
  return BCP47[locale];
}
