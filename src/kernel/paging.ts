import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { invalidField } from './errors.js';

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
  if (!text.startsWith(`${kind}:`)) throw refused();
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
