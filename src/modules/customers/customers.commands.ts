import { Type } from '@sinclair/typebox';
import { Flag, Id, Nullable, Text, parseCommand } from '../../kernel/commands.js';
import { invalidField } from '../../kernel/errors.js';
import { parseMetadataPatch, type MetadataPatch } from '../../kernel/metadata.js';
import { CONNECTION_PAGE, PageSize, UUID_PART, decodeCursor, encodeCursor, ISO_INSTANT } from '../../kernel/paging.js';
import { isEmail } from '../../kernel/validation.js';
import type { CustomerKey } from './customers.repository.js';
import { NOTES_MAX, e164, searchPattern, type SearchPattern } from './customers.rules.js';

// The customers module's commands (docs/architecture.md, "Typed commands").

const CUSTOMER_ID = { message: 'must be a customer id (uuid)' };

export const CustomerId = Type.Object({ id: Id(CUSTOMER_ID) });
export const parseCustomerId = (input: unknown): { id: string } => parseCommand(CustomerId, input);

export const CustomerIds = Type.Object({
  ids: Type.Array(Id(CUSTOMER_ID), { minItems: 1, maxItems: 100, message: 'must list 1–100 customer ids (uuid)' }),
});
export const parseCustomerIds = (input: unknown): { ids: string[] } => {
  const { ids } = parseCommand(CustomerIds, input);
  return { ids: [...new Set(ids.map((id) => id.toLowerCase()))] };
};

const CREATED_CURSOR = 'customers';
const NAME_CURSOR = 'customers-by-name';
const BASE64URL = /^[A-Za-z0-9_-]{0,400}$/;

/** A customer's cursor in the listing it came from. */
export function customerCursor(row: { id: string; name: string; created_at: Date }, searching: boolean): string {
  return searching
    ? encodeCursor(NAME_CURSOR, [Buffer.from(row.name.toLowerCase()).toString('base64url'), row.id])
    : encodeCursor(CREATED_CURSOR, [row.created_at.toISOString(), row.id]);
}

export const ListCustomers = Type.Object({
  search: Nullable(Type.String({ minLength: 1, maxLength: 200 }), {
    message: 'must be a text of 1–200 characters',
  }),
  first: PageSize(CONNECTION_PAGE),
  after: Nullable(Type.String({ maxLength: 600 }), { message: 'is not a cursor this connection returned' }),
});
export interface ListCustomersCommand {
  first: number;
  after: string | null;
  search?: SearchPattern;
  key?: CustomerKey;
}

export function parseListCustomers(input: unknown): ListCustomersCommand {
  const command = parseCommand(ListCustomers, input);
  const search = command.search?.trim() ? searchPattern(command.search) : undefined;
  const first = command.first ?? CONNECTION_PAGE.default;
  const after = command.after ?? null;
  if (after === null) return { first, after, search };
  if (search) {
    const [name = '', id = ''] = decodeCursor(NAME_CURSOR, after, [BASE64URL, UUID_PART]);
    return { first, after, search, key: { by: 'name', name: Buffer.from(name, 'base64url').toString('utf8'), id } };
  }
  const [at = '', id = ''] = decodeCursor(CREATED_CURSOR, after, [ISO_INSTANT, UUID_PART]);
  return { first, after, key: { by: 'created', createdAt: new Date(at), id } };
}

const BOOKINGS_CURSOR = 'customer-bookings';
export const customerBookingCursor = (b: { start_time: Date; id: string }) =>
  encodeCursor(BOOKINGS_CURSOR, [b.start_time.toISOString(), b.id]);

export const CustomerBookings = Type.Object({
  first: PageSize(CONNECTION_PAGE),
  after: Nullable(Type.String({ maxLength: 600 }), { message: 'is not a cursor this connection returned' }),
});
export function parseCustomerBookings(input: unknown) {
  const command = parseCommand(CustomerBookings, input);
  const after = command.after ?? null;
  const key = after
    ? (([at = '', id = '']) => ({ startTime: new Date(at), id }))(
        decodeCursor(BOOKINGS_CURSOR, after, [ISO_INSTANT, UUID_PART]),
      )
    : undefined;
  return { first: command.first ?? CONNECTION_PAGE.default, after, key };
}

export const UpdateCustomer = Type.Object({
  id: Id(CUSTOMER_ID),
  name: Nullable(Text({ minLength: 1, message: 'must be a name of 1–200 characters' })),
  email: Nullable(Type.String({ maxLength: 254 }), { message: 'must be a valid email address' }),
  phone: Nullable(Type.String({ maxLength: 40 }), {
    message: 'must be a phone number with its country code, e.g. +49 30 1234567',
  }),
  notes: Nullable(Type.String({ maxLength: NOTES_MAX }), {
    message: `must be a text of at most ${NOTES_MAX} characters`,
  }),
  metadata: Type.Optional(Type.Unknown()),
  marketingConsent: Nullable(Flag()),
});

export interface UpdateCustomerCommand {
  id: string;
  name?: string;
  /** null: remove. */
  email?: string | null;
  phone?: string | null;
  notes?: string;
  metadata?: MetadataPatch;
  marketingConsent?: boolean;
}

const given = (input: unknown, key: string) =>
  typeof input === 'object' && input !== null && Object.prototype.hasOwnProperty.call(input, key);

export function parseUpdateCustomer(input: Record<string, unknown>): UpdateCustomerCommand {
  const command = parseCommand(UpdateCustomer, input);
  const out: UpdateCustomerCommand = { id: command.id };
  if (command.name != null) out.name = command.name;
  if (command.notes != null) out.notes = command.notes.trim();
  if (command.marketingConsent != null) out.marketingConsent = command.marketingConsent;
  if (given(input, 'email')) {
    const email = command.email?.trim() ?? null;
    if (email !== null && !isEmail(email)) throw invalidField('email', 'must be a valid email address');
    out.email = email || null;
  }
  if (given(input, 'phone')) {
    const raw = command.phone?.trim() ?? '';
    const phone = raw ? e164(raw) : null;
    if (raw && !phone) throw invalidField('phone', 'must be a phone number with its country code, e.g. +49 30 1234567');
    out.phone = phone;
  }
  if (command.metadata != null) out.metadata = parseMetadataPatch(command.metadata);
  return out;
}

export const MergeCustomers = Type.Object({
  targetId: Id({ message: 'must be a customer id (uuid)' }),
  sourceIds: Type.Array(Id(CUSTOMER_ID), {
    minItems: 1,
    maxItems: 50,
    message: 'must list 1–50 customer ids (uuid)',
  }),
});
export function parseMergeCustomers(input: unknown): { targetId: string; sourceIds: string[] } {
  const command = parseCommand(MergeCustomers, input);
  const sourceIds = [...new Set(command.sourceIds.map((id) => id.toLowerCase()))];
  const targetId = command.targetId.toLowerCase();
  if (sourceIds.includes(targetId)) throw invalidField('sourceIds', 'must not list targetId');
  return { targetId, sourceIds };
}
