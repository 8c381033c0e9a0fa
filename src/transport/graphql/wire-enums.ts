import { SCOPES, type Scope } from '../../kernel/auth/scopes.js';
import { EVENT_TYPES } from '../../modules/webhooks/index.js';

// The GraphQL enums of values whose wire form a GraphQL name cannot spell (docs/schema.md, "Wire
// strings as enums"): a scope holds a colon (`bookings:read`), an event type dots
// (`booking.created`). The enum value is the wire string in upper case with `_` for `:` and `.`
// (BOOKINGS_READ, DEVICE_COMMAND_EXECUTED); its internal value — what resolvers return and
// receive — is the wire string itself, so services, the database and REST keep the strings.

/** BOOKINGS_READ for bookings:read, BOOKING_NO_SHOW for booking.no_show. */
export const enumNameOf = (wire: string): string => wire.toUpperCase().replace(/[.:]/g, '_');

const valuesOf = <T extends string>(wires: readonly T[]): Record<string, T> =>
  Object.fromEntries(wires.map((wire) => [enumNameOf(wire), wire]));

/** ApiScope's values → the scope strings (src/kernel/auth/scopes.ts). */
export const API_SCOPE_VALUES: Record<string, Scope> = valuesOf(SCOPES);

/** WebhookEventType's values → the event types (src/modules/webhooks/outbox.ts). */
export const WEBHOOK_EVENT_TYPE_VALUES: Record<string, (typeof EVENT_TYPES)[number]> = valuesOf(EVENT_TYPES);
