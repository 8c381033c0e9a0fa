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
  accessLog: { default: 50, max: 500 },
  auditLog: { default: 50, max: 100 },
  deviceCommands: { default: 50, max: 200 },
  webhookDeliveries: { default: 20, max: 100 },
  bookingWebhookDeliveries: { default: 50, max: 100 },
} as const satisfies Record<string, PageLimits>;

export const pageSizeMessage = (limits: PageLimits) => `must be a whole number from 1 to ${limits.max}`;

/** A requested page size, for a command property: absent or null means the listing's default. */
export const PageSize = (limits: PageLimits) => {
  const message = pageSizeMessage(limits);
  return Type.Optional(Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: limits.max })], { message }));
};

/** Whether `value` is a page size the listing allows (absent and null: its default). */
export function isPageSize(limits: PageLimits, value: unknown): value is number | null | undefined {
  return Value.Check(Type.Union([Type.Undefined(), Type.Null(), Type.Integer({ minimum: 1, maximum: limits.max })]), value);
}

/** The page size `value` asks for (named `field` in errors): the listing's default when absent. */
export function pageSizeOf(limits: PageLimits, value: unknown, field = 'first'): number {
  if (!isPageSize(limits, value)) throw invalidField(field, pageSizeMessage(limits));
  return value ?? limits.default;
}
