import { invalidField } from '../../kernel/errors.js';
import { decodeCursor, encodeCursor, UUID_PART } from '../../kernel/paging.js';
import { EVENT_TYPES } from './outbox.js';

// Pure rules of the events feed (docs/events.md): the `types` filter and the cursor.

const KNOWN: readonly string[] = EVENT_TYPES;

/** The event types a `types` argument names: each item may hold several, comma-separated; blanks and repeats dropped. */
export function typesOf(items: readonly string[]): string[] {
  return [
    ...new Set(
      items
        .flatMap((item) => item.split(','))
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ];
}

/** Why a `types` argument is refused (not a list of strings, an unknown type named), or null. */
export function typesProblem(value: unknown): string | null {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    return `must be a list of event types: ${KNOWN.join(', ')}`;
  const unknown = typesOf(value as string[]).filter((name) => !KNOWN.includes(name));
  if (unknown.length)
    return `unknown event type${unknown.length > 1 ? 's' : ''} ${unknown
      .map((name) => JSON.stringify(name.slice(0, 100)))
      .join(', ')}; known: ${KNOWN.join(', ')}`;
  return null;
}

/** An event's place in the feed: the id of the transaction that wrote it, then its number within it. */
export interface FeedPosition {
  xactId: string;
  seq: string;
}

const CURSOR_KIND = 'event';
const XID8 = /^(0|[1-9]\d{0,19})$/;
const INT8 = /^(0|[1-9]\d{0,18})$/;
const XID8_MAX = 2n ** 64n - 1n;
const INT8_MAX = 2n ** 63n - 1n;

export const cursorOf = (position: FeedPosition): string => encodeCursor(CURSOR_KIND, [position.xactId, position.seq]);

/** Where `after` points: a position (a cursor the feed gave) or an event's id (looked up by the service). */
export type After = { position: FeedPosition } | { eventId: string };

/** What a bad `after` is told: garbage, another listing's cursor, an unknown or another tenant's event id. */
export const AFTER_MESSAGE = 'is neither a cursor the events feed returned nor the id of one of its events';

/** What `after` is; anything else is a validation error naming `after`. */
export function afterOf(after: string): After {
  if (UUID_PART.test(after.toLowerCase())) return { eventId: after.toLowerCase() };
  let parts: string[];
  try {
    parts = decodeCursor(CURSOR_KIND, after, [XID8, INT8]);
  } catch {
    throw invalidField('after', AFTER_MESSAGE);
  }
  const [xactId = '', seq = ''] = parts;
  // Within xid8 and int8, so the database never refuses the cast (a tampered cursor is a 400, not a 500).
  if (BigInt(xactId) > XID8_MAX || BigInt(seq) > INT8_MAX) throw invalidField('after', AFTER_MESSAGE);
  return { position: { xactId, seq } };
}
