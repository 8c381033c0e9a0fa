import type { Metadata } from './db/types.js';
import { invalid, type FieldError } from './errors.js';
import { stringProblem } from './input-guard.js';

// Metadata (docs/bookings.md, "Metadata"): the integrator's own string→string map on a booking or
// an object, with Stripe's limits. Checked where input enters (the modules' parse functions), so
// errors name the key (`metadata.orderRef`); merged by updates, where a null value deletes a key.

export const METADATA_LIMITS = { maxKeys: 50, maxKeyLength: 40, maxValueLength: 500 } as const;

/** Metadata as an update sends it: a null value deletes its key. */
export type MetadataPatch = Record<string, string | null>;

// eslint-disable-next-line no-control-regex -- control characters are what keys may not hold
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A key as a field path shows it: plain when it is a word, else JSON-quoted (and cut to 100 characters). */
const fieldOfKey = (field: string, key: string) =>
  `${field}.${/^[\w-]{1,100}$/.test(key) ? key : JSON.stringify(key.slice(0, 100))}`;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

const KEY_MESSAGE = `keys must be 1–${METADATA_LIMITS.maxKeyLength} characters without control characters`;

function keyProblem(key: string): string | undefined {
  if (key.length === 0 || key.length > METADATA_LIMITS.maxKeyLength || CONTROL.test(key)) return KEY_MESSAGE;
  return stringProblem(key);
}

/**
 * The problems of a metadata input named by field path (`metadata`, `metadata.<key>`), or none.
 * `nulls`: whether a null value is allowed (an update's deletion; a filter's values must be strings).
 */
export function metadataErrors(value: unknown, field: string, nulls: boolean): FieldError[] {
  if (!isPlainObject(value)) return [{ field, message: 'must be an object whose keys and values are strings' }];
  const keys = Object.keys(value);
  if (keys.length > METADATA_LIMITS.maxKeys)
    return [{ field, message: `must have at most ${METADATA_LIMITS.maxKeys} keys (got ${keys.length})` }];
  const errors: FieldError[] = [];
  const valueMessage = `must be a string of at most ${METADATA_LIMITS.maxValueLength} characters${nulls ? ' (or null to delete the key)' : ''}`;
  for (const key of keys) {
    const at = fieldOfKey(field, key);
    const problem = keyProblem(key);
    if (problem) {
      errors.push({ field: at, message: problem });
      continue;
    }
    const item = value[key];
    if (item === null && nulls) continue;
    if (typeof item !== 'string' || item.length > METADATA_LIMITS.maxValueLength) {
      errors.push({ field: at, message: valueMessage });
      continue;
    }
    const text = stringProblem(item);
    if (text) errors.push({ field: at, message: text });
  }
  return errors;
}

/** A metadata update (creation included), checked: string values, or null to delete the key. */
export function parseMetadataPatch(value: unknown, field = 'metadata'): MetadataPatch {
  const errors = metadataErrors(value, field, true);
  if (errors.length) throw invalid(errors);
  return value as MetadataPatch;
}

/** A metadata filter (exact key/value pairs, all of which must match), checked. */
export function parseMetadataFilter(value: unknown, field = 'metadata'): Metadata {
  const errors = metadataErrors(value, field, false);
  if (errors.length) throw invalid(errors);
  return value as Metadata;
}

/**
 * `current` with `patch` applied: keys with a string value set, keys with null removed, the rest
 * kept (in their order, new keys after them). Refused when the result would hold more than 50 keys.
 */
export function mergeMetadata(current: Metadata, patch: MetadataPatch, field = 'metadata'): Metadata {
  // A Map, then fromEntries: any key (even "__proto__") stays an own key.
  const entries = new Map(Object.entries(current));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) entries.delete(key);
    else entries.set(key, value);
  }
  const merged: Metadata = Object.fromEntries(entries);
  const count = entries.size;
  if (count > METADATA_LIMITS.maxKeys)
    throw invalid([
      { field, message: `would hold ${count} keys after the update; at most ${METADATA_LIMITS.maxKeys} are allowed` },
    ]);
  return merged;
}

/** Whether a patch changes nothing in `current`. */
export const metadataUnchanged = (current: Metadata, patch: MetadataPatch): boolean =>
  Object.entries(patch).every(([key, value]) =>
    value === null ? !Object.hasOwn(current, key) : Object.hasOwn(current, key) && current[key] === value,
  );
