// The booking page settings' pure rules (docs/booking-page.md, "Settings"): what a slug, an
// origin, a logo, a colour and a venue's text may be. Each answers the message for a refused value
// (undefined: accepted); booking-page.commands.ts turns them into field errors.

/** The page's address /book/{slug}: lowercase letters, digits and inner hyphens, 1–48 characters (the table's check). */
export const SLUG = /^[a-z0-9]([a-z0-9-]{0,46}[a-z0-9])?$/;
export const SLUG_MESSAGE =
  'must be 1–48 lowercase letters, digits or hyphens, starting and ending with a letter or digit (e.g. sportpark-mitte)';

export function slugProblem(value: string): string | undefined {
  return SLUG.test(value) ? undefined : SLUG_MESSAGE;
}

/** Origins a venue may list (the widget's embedding pages). */
export const MAX_ORIGINS = 20;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An origin exactly as a browser sends it: scheme://host[:port], no path, query, fragment or user,
 * lowercase, without the scheme's default port; https, except http on localhost for testing.
 */
export function originProblem(value: string): string | undefined {
  const shape = `must be an origin such as https://www.example.com (scheme://host[:port], nothing after it), got ${JSON.stringify(value.slice(0, 100))}`;
  if (value.length > 200) return 'must be at most 200 characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return shape;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return shape;
  if (url.origin !== value) return shape;
  if (url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname))
    return `must use https (http is allowed only for localhost), got ${JSON.stringify(value)}`;
  return undefined;
}

/** The logo: a data: URL of a raster image, at most this long (the table's check). */
export const MAX_LOGO_CHARS = 200_000;
/** Accepted image types and the bytes their files start with. SVG is refused: it can carry script. */
const LOGO_TYPES: Record<string, (bytes: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};
const DATA_URL = /^data:([a-z/+.-]+);base64,([A-Za-z0-9+/]+={0,2})$/;

export function logoProblem(value: string): string | undefined {
  if (value.length > MAX_LOGO_CHARS)
    return `must be at most ${MAX_LOGO_CHARS} characters (a data: URL of about 145 KB of image), got ${value.length}`;
  const match = DATA_URL.exec(value);
  const type = match?.[1];
  const data = match?.[2];
  if (type === 'image/svg+xml') return 'must be a PNG, JPEG or WebP image: SVG is not accepted (it can carry script)';
  if (!type || data === undefined || data.length % 4 !== 0)
    return 'must be a data: URL of a PNG, JPEG or WebP image, base64-encoded (data:image/png;base64,…)';
  const check = LOGO_TYPES[type];
  if (!check) return `must be a PNG, JPEG or WebP image, got ${type}`;
  if (!check(Buffer.from(data, 'base64')))
    return `is not a ${type.slice(6).toUpperCase()} image (its bytes say otherwise)`;
  return undefined;
}

/** #rrggbb; stored lowercase. */
export const COLOUR = /^#[0-9a-fA-F]{6}$/;

/** The venue's own texts: a fixed set of keys per language, each at most this long. */
export const TEXT_KEYS = ['intro', 'cancellationPolicy', 'afterBooking'] as const;
export type TextKey = (typeof TEXT_KEYS)[number];
export const TEXT_MAX_CHARS: Record<TextKey, number> = { intro: 1000, cancellationPolicy: 4000, afterBooking: 1000 };
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

// Control characters other than tab and line breaks (NUL and lone surrogates are refused at the edge already).
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const CONTROL = /[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

/**
 * A venue's text: plain text (pages escape it), lines allowed, no control or bidi-override
 * characters; its length in UTF-16 code units, as a browser's maxLength counts it.
 */
export function venueTextProblem(value: string, max: number): string | undefined {
  if (value.length > max) return `must be at most ${max} characters`;
  if (CONTROL.test(value)) return 'must be plain text (no control or text-direction characters)';
  return undefined;
}

/** VAT in basis points: 0 to 10000 (0 % to 100 %). */
export const MAX_VAT_BASIS_POINTS = 10_000;
