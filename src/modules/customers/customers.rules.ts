import { e164 } from '../../kernel/phone.js';
import type { Metadata } from '../../kernel/db/types.js';

// Pure rules of customers (docs/customers.md): how a guest's email and phone are compared, how a
// search text reads, how merged fields combine, and what an erased customer and booking keep.

/** An email as customers compare it: trimmed and lower-cased (the unique index says the same). */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** A phone as a customer keeps it: E.164, or null (the one normaliser, src/kernel/phone.ts). */
export { e164 };

/** What a search text matches: a lower-cased prefix of name or email, and (when it has digits) of the phone's digits. */
export interface SearchPattern {
  /** LIKE pattern for lower(name) and lower(email). */
  text: string;
  /** LIKE pattern for phone ('+4930%'), or null when the search holds no phone digits. */
  phone: string | null;
}

/** Escapes LIKE's wildcards (\ % _) so a search is a plain prefix. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function searchPattern(search: string): SearchPattern {
  const text = `${likeEscaped(search.trim().toLowerCase())}%`;
  const compact = search.trim().replace(/[\s().\-/]/g, '');
  const phoneDigits = compact.replace(/^(\+|00)/, '');
  const phone = /^[0-9]{2,15}$/.test(phoneDigits) ? `+${phoneDigits}%` : null;
  return { text, phone };
}

/** The fields of a customer that merging combines. */
export interface MergeableFields {
  name: string;
  email: string | null;
  phone: string | null;
  notes: string;
  metadata: Metadata;
  marketing_consent: boolean;
  marketing_consent_at: Date | null;
  created_at: Date;
}

export const NOTES_MAX = 5000;

/**
 * The target's fields after merging `sources` into it: the target's own values win; an email or
 * phone it lacks comes from the first source that has one; notes are joined (target first, cut to
 * NOTES_MAX); metadata keys the target lacks are added; consent holds when the target's holds (its
 * time kept), else the earliest source consent; the customer counts as made when the oldest was.
 */
export function mergedFields(target: MergeableFields, sources: readonly MergeableFields[]): MergeableFields {
  const firstOf = <K extends 'email' | 'phone'>(key: K) =>
    target[key] ?? sources.find((s) => s[key] !== null)?.[key] ?? null;
  const notes = [target.notes, ...sources.map((s) => s.notes)]
    .map((n) => n.trim())
    .filter((n) => n.length > 0)
    .filter((n, i, all) => all.indexOf(n) === i)
    .join('\n\n')
    .slice(0, NOTES_MAX);
  const metadata: Metadata = {};
  for (const source of [...sources].reverse()) Object.assign(metadata, source.metadata);
  Object.assign(metadata, target.metadata);
  const consenting = sources
    .filter((s) => s.marketing_consent)
    .map((s) => s.marketing_consent_at)
    .filter((at): at is Date => at !== null)
    .sort((a, b) => a.getTime() - b.getTime());
  const consent = target.marketing_consent || sources.some((s) => s.marketing_consent);
  const consentAt = target.marketing_consent ? target.marketing_consent_at : (consenting[0] ?? null);
  const created = [target.created_at, ...sources.map((s) => s.created_at)].sort((a, b) => a.getTime() - b.getTime())[0];
  return {
    name: target.name,
    email: firstOf('email'),
    phone: firstOf('phone'),
    notes,
    metadata,
    marketing_consent: consent,
    marketing_consent_at: consent ? consentAt : null,
    created_at: created ?? target.created_at,
  };
}

/** What an erased customer and its bookings show instead of the guest's name and email. */
export const ERASED_NAME = 'Erased customer';
export const ERASED_GUEST_NAME = 'Erased guest';
/** RFC 2606's .invalid: a booking's guest email must stay an address, and this one reaches nobody. */
export const ERASED_EMAIL = 'erased@erased.invalid';
/** What erased values become inside stored texts (events, deliveries, notifications, audit details). */
export const ERASED_MARK = '[erased]';

/**
 * The texts to remove from stored copies: each personal value (name, email, phone) as given and in
 * the forms it may have been stored in (lower-cased email, E.164 phone, JSON-escaped), longest
 * first so a shorter one never cuts a longer one apart; values under 3 characters are left out
 * (too short to be personal, and they would cut unrelated words).
 */
export function erasableTexts(values: ReadonlyArray<string | null | undefined>): string[] {
  const out = new Set<string>();
  for (const value of values) {
    if (value == null) continue;
    const trimmed = value.trim();
    const forms = [trimmed, trimmed.toLowerCase(), e164(trimmed) ?? ''];
    for (const form of forms) {
      if (form.length < 3) continue;
      out.add(form);
      out.add(JSON.stringify(form).slice(1, -1));
    }
  }
  return [...out].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}
