// Input every route accepts, checked once where it enters (the JSON body parser, query strings and
// path parameters, GraphQL variables and literals) rather than field by field: PostgreSQL refuses
// text holding NUL (22021) or a lone UTF-16 surrogate (22P05, not representable in UTF-8), and a
// deeply nested document overflows recursive code long before it means anything.

import type { FieldError } from './errors.js';

/** Deepest nesting of arrays and objects a request may carry (Portier's own inputs need 4). */
export const MAX_INPUT_DEPTH = 32;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored as text, or undefined when it can. */
export function stringProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(value)) return 'must be well-formed Unicode (it contains a lone UTF-16 surrogate)';
  return undefined;
}

const tooDeep = (field: string): FieldError => ({ field, message: `is nested deeper than ${MAX_INPUT_DEPTH} levels` });

/** A key as it appears in a field path: shown safely even when it is itself the problem. */
function keyShown(key: string): string {
  return /^[\w-]{1,100}$/.test(key) ? key : JSON.stringify(key.slice(0, 100)).replace(/\\u0000/g, '\\0');
}

const join = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);

/**
 * The first problem in a parsed JSON value (strings, object keys, nesting), named by its path
 * (`door_states."A\0"`, `result.note`, `extra.0`), or undefined. Iterative, so no input overflows it.
 */
export function findInputProblem(value: unknown, field: string): FieldError | undefined {
  const stack: { value: unknown; field: string; depth: number }[] = [{ value, field, depth: 0 }];
  while (stack.length) {
    const next = stack.pop();
    if (!next) break;
    const { value: v, field: f, depth } = next;
    if (typeof v === 'string') {
      const problem = stringProblem(v);
      if (problem) return { field: f || 'body', message: problem };
    } else if (typeof v === 'object' && v !== null) {
      if (depth >= MAX_INPUT_DEPTH) return tooDeep(f || 'body');
      const entries: (readonly [string, unknown])[] = Array.isArray(v)
        ? v.map((item: unknown, i) => [String(i), item] as const)
        : Object.entries(v);
      // Pushed last to first, so the first entry is checked first (the error names the first bad field).
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const entry = entries[i];
        if (entry === undefined) continue;
        const [key, item] = entry;
        const problem = Array.isArray(v) ? undefined : stringProblem(key);
        if (problem) return { field: join(f, keyShown(key)), message: `has a key that ${problem}` };
        stack.push({ value: item, field: join(f, keyShown(key)), depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/** True when JSON text nests arrays and objects deeper than the limit (a linear scan, before parsing). */
export function jsonTooDeep(text: string, max = MAX_INPUT_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}

/** Timestamps and dates a request may name: years 1 to 9999 (what PostgreSQL and ISO 8601 both store as such). */
export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;
export const isStorableYear = (year: number): boolean => Number.isInteger(year) && year >= MIN_YEAR && year <= MAX_YEAR;
export const isStorableInstant = (date: Date): boolean =>
  !Number.isNaN(date.getTime()) && isStorableYear(date.getUTCFullYear());
