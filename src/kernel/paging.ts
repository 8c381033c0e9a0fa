import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { invalid, invalidField } from './errors.js';
import { MICROSECOND_INSTANT } from './db/keyset.js';

// Every listing's page size in one place: its default and its largest page, as schema/*.graphql
// documents them, and the one schema (and message) that checks a requested size.

export interface PageLimits {
  default: number;
  max: number;
}

export const PAGE_SIZES = {
  bookings: { default: 20, max: 100 },
  objects: { default: 20, max: 100 },
  accessLog: { default: 50, max: 500 },
  auditLog: { default: 50, max: 100 },
  deviceCommands: { default: 50, max: 200 },
  webhookDeliveries: { default: 20, max: 100 },
  bookingWebhookDeliveries: { default: 50, max: 100 },
  events: { default: 20, max: 100 },
} as const satisfies Record<string, PageLimits>;

export const pageSizeMessage = (limits: PageLimits) => `must be a whole number from 1 to ${limits.max}`;

/** A requested page size, for a command property: absent or null means the listing's default. */
export const PageSize = (limits: PageLimits) => {
  const message = pageSizeMessage(limits);
  return Type.Optional(Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: limits.max })], { message }));
};

/** Whether `value` is a page size the listing allows (absent and null: its default). */
export function isPageSize(limits: PageLimits, value: unknown): value is number | null | undefined {
  return Value.Check(
    Type.Union([Type.Undefined(), Type.Null(), Type.Integer({ minimum: 1, maximum: limits.max })]),
    value,
  );
}

/** The page size `value` asks for (named `field` in errors): the listing's default when absent. */
export function pageSizeOf(limits: PageLimits, value: unknown, field = 'first'): number {
  if (!isPageSize(limits, value)) throw invalidField(field, pageSizeMessage(limits));
  return value ?? limits.default;
}

/**
 * Every cursor connection (bookingsConnection, accessLogConnection, webhookDeliveriesConnection,
 * auditLog): `first` defaults to 20 (the audit log: 50) and is at most CONNECTION_MAX_PAGE_SIZE,
 * the one maximum docs/schema.md documents.
 */
export const CONNECTION_MAX_PAGE_SIZE = 100;
export const CONNECTION_PAGE: PageLimits = { default: 20, max: CONNECTION_MAX_PAGE_SIZE };

/**
 * An opaque cursor: base64url of `<kind>:<sort key parts joined by |>`. The kind names the
 * connection, so a cursor of another list is refused rather than misread.
 */
export function encodeCursor(kind: string, parts: readonly string[]): string {
  return Buffer.from(`${kind}:${parts.join('|')}`).toString('base64url');
}

/**
 * The sort key a cursor carries, checked part by part (`patterns`); anything else (garbage,
 * another connection's cursor, a tampered key) is a validation error naming `after`.
 */
export function decodeCursor(kind: string, cursor: string, patterns: readonly RegExp[]): string[] {
  const refused = () => invalidField('after', 'is not a cursor this connection returned');
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) throw refused();
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  // Not canonical base64url (a character appended, trailing bits changed): not one we wrote.
  if (Buffer.from(text).toString('base64url') !== cursor || !text.startsWith(`${kind}:`)) throw refused();
  const parts = text.slice(kind.length + 1).split('|');
  if (parts.length !== patterns.length || parts.some((part, i) => !patterns[i]?.test(part))) throw refused();
  return parts;
}

/** An ISO 8601 UTC timestamp as Date#toISOString writes it (a cursor's time part). */
export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID_PART = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

/** What a connection resolver returns. */
export interface Connection<T> {
  edges: Array<Edge<T>>;
  nodes: T[];
  pageInfo: PageInfo;
  /** Counted only when the selection asks for it; 0 otherwise (then nothing shows it). */
  totalCount: number;
}

/**
 * A connection from the rows of a keyset query that asked for one more row than `size` (which
 * tells whether another page follows). hasPreviousPage is true when the page continues after a
 * cursor: forward paging, as the Relay specification allows, does not look back further.
 */
export function connectionOf<T>(
  rows: T[],
  size: number,
  after: unknown,
  cursorOf: (row: T) => string,
  totalCount: number | null,
): Connection<T> {
  const nodes = rows.slice(0, size);
  const edges = nodes.map((node) => ({ cursor: cursorOf(node), node }));
  return {
    edges,
    nodes,
    pageInfo: {
      hasNextPage: rows.length > size,
      hasPreviousPage: after != null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: totalCount ?? 0,
  };
}

// Cursor paging on the REST lists (docs/api.md, "Cursor paging"): every list takes `after` (a
// cursor it returned) and `limit` beside its page numbers. A cursor is a position in the list's
// order (its sort key and id), never an offset, so rows inserted before it cannot shift the next
// page; it carries no tenant, and the list still filters by the caller's tenant.

/** The page of cursor paging on a list that otherwise answers every row (webhooks, devices, …). */
export const REST_CURSOR_PAGE: PageLimits = { default: 20, max: 100 };

/** A cursor page asked for: the position to continue after (null: from the start) and the size. */
export interface CursorPage<K> {
  after: K | null;
  limit: number;
}

/** The page-number parameters a list names (for the error of combining them with a cursor). */
export type PageNumberArgs = Record<string, unknown>;

/**
 * The cursor page `args` ask for, or null when they ask for none (neither `after` nor `limit`):
 * then the list answers its page numbers as before. `after` or `limit` together with a page-number
 * parameter (`page`, `pageSize`) is refused naming both; a `limit` outside 1..limits.max names
 * `limit`; the cursor is decoded by `decode`, which refuses anything it did not write, naming `after`.
 */
export function cursorPageOf<K>(
  args: { after?: unknown; limit?: unknown },
  pageArgs: PageNumberArgs,
  limits: PageLimits,
  decode: (cursor: string) => K,
): CursorPage<K> | null {
  const after = args.after ?? null;
  const limit = args.limit ?? null;
  if (after === null && limit === null) return null;
  const clashes: { field: string; message: string }[] = [];
  for (const [name, value] of Object.entries(pageArgs)) {
    if (value == null) continue;
    for (const mine of ['after', 'limit'] as const) {
      if (args[mine] != null) clashes.push({ field: mine, message: `cannot be combined with ${name}` });
    }
    clashes.push({ field: name, message: 'cannot be combined with after or limit (cursor paging)' });
  }
  if (clashes.length) throw invalid(clashes);
  if (after !== null && typeof after !== 'string') throw invalidField('after', 'is not a cursor this list returned');
  return { after: after === null ? null : decode(after), limit: pageSizeOf(limits, limit, 'limit') };
}

const LIST_CURSOR_MAX = 4096;

/**
 * A list's cursor: base64url of `<kind>:<parts>`, each part percent-encoded (so a name may hold
 * any character, `|` included) and joined by `|`. The kind names the list, so a cursor of another
 * list is refused rather than misread.
 */
export function encodeListCursor(kind: string, parts: readonly string[]): string {
  return Buffer.from(`${kind}:${parts.map(encodeURIComponent).join('|')}`).toString('base64url');
}

/**
 * The parts of a cursor encodeListCursor wrote for `kind`, each checked by its pattern; anything
 * else — garbage, another list's cursor, a tampered key — is a validation error naming `after`.
 */
export function decodeListCursor(kind: string, cursor: string, patterns: readonly RegExp[]): string[] {
  const refused = () => invalidField('after', 'is not a cursor this list returned');
  if (cursor.length > LIST_CURSOR_MAX || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw refused();
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  // Not canonical base64url (trailing bits, a stray character): not one of ours.
  if (Buffer.from(text).toString('base64url') !== cursor || !text.startsWith(`${kind}:`)) throw refused();
  const encoded = text.slice(kind.length + 1).split('|');
  if (encoded.length !== patterns.length) throw refused();
  const parts: string[] = [];
  for (const [i, part] of encoded.entries()) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      throw refused();
    }
    if (encodeURIComponent(decoded) !== part || !patterns[i]?.test(decoded)) throw refused();
    parts.push(decoded);
  }
  return parts;
}

/** A whole number as a cursor part (a position column). */
export const INTEGER_PART = /^-?\d{1,15}$/;
/** Any text of 1 to 1000 characters (a name). */
export const TEXT_PART = /^[\s\S]{1,1000}$/u;

/**
 * The page of a keyset query that read `limit + 1` rows: the first `limit`, and the cursor of the
 * last of them when another row follows (null on the last page).
 */
export function cursorPageRows<T>(rows: T[], limit: number, cursorOf: (row: T) => string) {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, next: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}

/** A list's cursor on (position, id) order (pricing rules, cancellation policies). */
export function positionCursor(kind: string) {
  return {
    of: (row: { position: number; id: string }) => encodeListCursor(kind, [String(row.position), row.id]),
    keyOf: (cursor: string) => {
      const [position = '', id = ''] = decodeListCursor(kind, cursor, [INTEGER_PART, UUID_PART]);
      return { position: Number(position), id };
    },
  };
}

/** A list's cursor on a timestamp to the microsecond (kernel/db/keyset.ts, microsecondKey) and id. */
export function instantCursor(kind: string) {
  return {
    of: (row: { sort_at: string; id: string }) => encodeListCursor(kind, [row.sort_at, row.id]),
    keyOf: (cursor: string) => {
      const [at = '', id = ''] = decodeListCursor(kind, cursor, [MICROSECOND_INSTANT, UUID_PART]);
      if (Number.isNaN(Date.parse(at))) throw invalidField('after', 'is not a cursor this list returned');
      return { at, id };
    },
  };
}
