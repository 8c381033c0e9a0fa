import { Type, type StaticDecode } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { normalisePhone } from '../../kernel/phone.js';
import { Flag, Id, Nullable, OneOf, Whole, commandErrors, refuse } from '../../kernel/commands.js';
import { CreateBooking } from '../bookings/index.js';
import type { FieldError } from '../../kernel/errors.js';
import type { BookingPagePaymentMode } from '../../kernel/db/types.js';
import type { PublicBotCheck } from './public-limits.js';
import {
  COLOUR,
  LANGUAGES,
  MAX_ORIGINS,
  MAX_VAT_BASIS_POINTS,
  TEXT_KEYS,
  TEXT_MAX_CHARS,
  logoProblem,
  originProblem,
  slugProblem,
  venueTextProblem,
  type Language,
  type TextKey,
} from './booking-page.rules.js';

// The booking page's commands (docs/architecture.md, "Typed commands"): parsed where input enters
// (the resolvers, so the REST bridge too); the service checks only what needs the database.

export const PAYMENT_MODES = ['ONLINE_REQUIRED', 'ONLINE_OPTIONAL', 'AT_VENUE'] as const;
export const LOCALES = ['EN', 'DE'] as const;

const TextSet = Type.Object(
  Object.fromEntries(TEXT_KEYS.map((key) => [key, Type.Optional(Type.Union([Type.Null(), Type.String()]))])),
  { additionalProperties: false },
);

export const UpdateBookingPageSettings = Type.Object({
  enabled: Nullable(Flag()),
  slug: Nullable(Type.String({ message: 'must be a string' })),
  paymentMode: Nullable(OneOf(PAYMENT_MODES, { message: `must be one of ${PAYMENT_MODES.join(', ')}` })),
  allowedOrigins: Nullable(
    Type.Array(Type.String(), { maxItems: MAX_ORIGINS, message: `must be a list of at most ${MAX_ORIGINS} origins` }),
  ),
  logo: Nullable(Type.String({ message: 'must be a data: URL (PNG, JPEG or WebP) or null' })),
  accentColour: Nullable(Type.String({ message: 'must be a colour #rrggbb or null' })),
  defaultLocale: Nullable(OneOf(LOCALES, { message: `must be one of ${LOCALES.join(', ')}` })),
  texts: Nullable(
    Type.Object(
      { en: Nullable(TextSet), de: Nullable(TextSet) },
      { additionalProperties: false, message: `must be {en, de}, each with ${TEXT_KEYS.join(', ')}` },
    ),
  ),
  vatRateBasisPoints: Nullable(
    Whole(0, MAX_VAT_BASIS_POINTS, {
      message: `must be a whole number from 0 to ${MAX_VAT_BASIS_POINTS} (1900 = 19 %) or null`,
    }),
  ),
});
type Raw = StaticDecode<typeof UpdateBookingPageSettings>;

/** A text change: a string sets the key, null removes it. */
export type TextChanges = Partial<Record<Language, Partial<Record<TextKey, string | null>>>>;

/** The decoded settings change: a field left out (undefined) keeps its value; null clears a nullable one. */
export interface UpdateBookingPageSettings {
  enabled?: boolean;
  slug?: string;
  paymentMode?: BookingPagePaymentMode;
  allowedOrigins?: string[];
  logo?: string | null;
  accentColour?: string | null;
  defaultLocale?: Language;
  texts?: TextChanges;
  vatRateBasisPoints?: number | null;
}

const has = (input: object, key: string) => Object.prototype.hasOwnProperty.call(input, key);

export function parseUpdateBookingPageSettings(input: unknown): UpdateBookingPageSettings {
  const errors: FieldError[] = commandErrors(UpdateBookingPageSettings, input);
  if (errors.length) refuse(UpdateBookingPageSettings, errors);
  const raw = input as Raw;
  const out: UpdateBookingPageSettings = {};
  const given = (key: keyof Raw) => has(raw, key);
  // Not nullable: null is "keep", as a left-out field.
  if (raw.enabled != null) out.enabled = raw.enabled;
  if (raw.slug != null) {
    const problem = slugProblem(raw.slug);
    if (problem) errors.push({ field: 'slug', message: problem });
    out.slug = raw.slug;
  }
  if (raw.paymentMode != null) out.paymentMode = raw.paymentMode.toLowerCase() as BookingPagePaymentMode;
  if (raw.allowedOrigins != null) {
    raw.allowedOrigins.forEach((origin, i) => {
      const problem = originProblem(origin);
      if (problem) errors.push({ field: `allowedOrigins[${i}]`, message: problem });
    });
    out.allowedOrigins = [...new Set(raw.allowedOrigins)];
  }
  if (given('logo')) {
    const problem = raw.logo == null ? undefined : logoProblem(raw.logo);
    if (problem) errors.push({ field: 'logo', message: problem });
    out.logo = raw.logo ?? null;
  }
  if (given('accentColour')) {
    if (raw.accentColour != null && !COLOUR.test(raw.accentColour))
      errors.push({
        field: 'accentColour',
        message: `must be a colour #rrggbb, got ${JSON.stringify(raw.accentColour.slice(0, 20))}`,
      });
    out.accentColour = raw.accentColour?.toLowerCase() ?? null;
  }
  if (raw.defaultLocale != null) out.defaultLocale = raw.defaultLocale.toLowerCase() as Language;
  if (raw.texts != null) {
    const texts: TextChanges = {};
    for (const language of LANGUAGES) {
      const set = raw.texts[language] as Record<string, string | null | undefined> | null | undefined;
      if (set == null) continue;
      const changes: Partial<Record<TextKey, string | null>> = {};
      for (const key of TEXT_KEYS) {
        if (!has(set, key)) continue;
        const value = set[key]?.trim() ?? null;
        const problem = value == null ? undefined : venueTextProblem(value, TEXT_MAX_CHARS[key]);
        if (problem) errors.push({ field: `texts.${language}.${key}`, message: problem });
        changes[key] = value === '' ? null : value;
      }
      texts[language] = changes;
    }
    out.texts = texts;
  }
  if (given('vatRateBasisPoints')) out.vatRateBasisPoints = raw.vatRateBasisPoints ?? null;
  if (errors.length) refuse(UpdateBookingPageSettings, errors);
  return out;
}

export const PublishObjects = Type.Object({
  ids: Type.Array(Id({ message: 'must be object ids (uuid)' }), {
    minItems: 1,
    maxItems: 500,
    message: 'must list 1 to 500 object ids (uuid)',
  }),
  published: Flag(),
});
export type PublishObjects = StaticDecode<typeof PublishObjects>;
export function parsePublishObjects(input: unknown): PublishObjects {
  const errors = commandErrors(PublishObjects, input);
  if (errors.length) refuse(PublishObjects, errors);
  return input as PublishObjects;
}

/** A guest's booking through the publishable key (createPublicBooking). */
export const CreatePublicBooking = Type.Object({
  objectId: Id({ message: 'must be an object id (uuid)' }),
  startTime: CreateBooking.properties.startTime,
  endTime: CreateBooking.properties.endTime,
  guestName: CreateBooking.properties.guestName,
  guestEmail: CreateBooking.properties.guestEmail,
  guestPhone: Nullable(Type.String({ maxLength: 40, message: 'must be a phone number of at most 40 characters' })),
  guestPhoneCountry: Nullable(
    Type.String({ pattern: '^[A-Za-z]{2}$', message: 'must be a two-letter country code (ISO 3166-1), e.g. DE' }),
  ),
  acceptedCancellationPolicy: Nullable(Flag()),
  locale: CreateBooking.properties.locale,
  botCheck: Nullable(Type.Record(Type.String(), Type.Unknown(), { message: 'must be an object' })),
  challenge: Nullable(
    Type.String({ maxLength: 200, message: 'must be a challenge of publicBookingChallenge (pw1.…)' }),
  ),
  nonce: Nullable(Type.String({ maxLength: 40, message: 'must be a decimal number of at most 16 digits' })),
  honeypot: Nullable(Type.String({ maxLength: 200, message: 'must be empty (a field only bots fill in)' })),
});
type RawPublicBooking = StaticDecode<typeof CreatePublicBooking>;
export interface CreatePublicBooking extends Omit<
  RawPublicBooking,
  'guestPhone' | 'guestPhoneCountry' | 'botCheck' | 'challenge' | 'nonce' | 'honeypot'
> {
  /** E.164, or null when none was given. */
  guestPhone: string | null;
  /** What the bot check reads: the fields, else botCheck's keys of the same names (strings only). */
  botCheck: PublicBotCheck;
}

/** A field of the input, else botCheck's key of the same name when it is a string. */
function botField(raw: RawPublicBooking, key: 'challenge' | 'nonce' | 'honeypot'): string | null {
  const direct = raw[key];
  if (direct != null) return direct;
  const fromObject = raw.botCheck?.[key];
  return typeof fromObject === 'string' ? fromObject.slice(0, 200) : null;
}

export function parseCreatePublicBooking(input: unknown): CreatePublicBooking {
  const errors = commandErrors(CreatePublicBooking, input);
  if (errors.length) refuse(CreatePublicBooking, errors);
  // Checked above; Decode applies the transforms (the trimmed name, Dates).
  const decoded: RawPublicBooking = Value.Decode(CreatePublicBooking, input);
  const {
    guestPhone: rawPhone,
    guestPhoneCountry,
    botCheck: _b,
    challenge: _c,
    nonce: _n,
    honeypot: _h,
    ...rest
  } = decoded;
  const botCheck: PublicBotCheck = {
    challenge: botField(decoded, 'challenge'),
    nonce: botField(decoded, 'nonce'),
    honeypot: botField(decoded, 'honeypot'),
  };
  let guestPhone: string | null = null;
  const phone = normalisePhone(rawPhone ?? '', guestPhoneCountry);
  if (!phone.ok && phone.reason === 'unknown_country')
    errors.push({ field: 'guestPhoneCountry', message: phone.message });
  else if (rawPhone != null && rawPhone.trim() !== '') {
    if (phone.ok) guestPhone = phone.e164;
    else
      errors.push({
        field: 'guestPhone',
        message: phone.reason === 'needs_country_code' ? `${phone.message} (guestPhoneCountry)` : phone.message,
      });
  }
  if (!(rest.startTime < rest.endTime)) errors.push({ field: 'endTime', message: 'must be later than startTime' });
  if (errors.length) refuse(CreatePublicBooking, errors);
  return { ...rest, guestPhone, botCheck };
}
