import { randomUUID } from 'node:crypto';
import type { Executor } from '../../kernel/db/index.js';
import type { CustomerRow } from '../../kernel/db/types.js';
import { conflict, DomainError, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import { mergeMetadata, metadataUnchanged } from '../../kernel/metadata.js';
import { connectionOf, type Connection } from '../../kernel/paging.js';
import { recordEvent } from '../webhooks/index.js';
import * as repo from './customers.repository.js';
import { customerCursor, type ListCustomersCommand, type UpdateCustomerCommand } from './customers.commands.js';
import { e164, mergedFields, normaliseEmail } from './customers.rules.js';

// The customers' rules (docs/customers.md): matching a booking's guest, listing, changing, merging.
// Erasure and the data export are in erase.service.ts.

const UNIQUE_VIOLATION = '23505';

/** A customer as its events carry it. */
export function customerEventData(
  c: Pick<
    CustomerRow,
    'id' | 'name' | 'email' | 'phone' | 'marketing_consent' | 'metadata' | 'created_at' | 'updated_at'
  >,
): Record<string, unknown> {
  return {
    customer: {
      id: c.id,
      name: c.name,
      email: c.email,
      phone: c.phone,
      marketingConsent: c.marketing_consent,
      metadata: c.metadata,
      createdAt: c.created_at.toISOString(),
      updatedAt: c.updated_at.toISOString(),
    },
  };
}

/** The guest of a booking being created, as the customer match reads it. */
export interface BookingGuest {
  name: string;
  email: string;
  phone: string | null;
}

/**
 * The customer of a booking's guest, made when there is none, in the booking's transaction: the
 * tenant's customer with the guest's email (trimmed, case-insensitive), else the oldest with the
 * guest's phone (E.164), else a new one. A matched customer without a phone is given the guest's.
 * Two concurrent bookings of a new guest make one customer (the unique index). One statement for a
 * known guest, two for a new one: the match, then the insert with its opt-in customer.created
 * event (written only when a subscription lists it, docs/webhooks.md "Opt-in events").
 */
export async function customerOfGuest(trx: Executor, tenantId: string, guest: BookingGuest, at: Date): Promise<string> {
  const email = normaliseEmail(guest.email);
  const phone = e164(guest.phone);
  const matched = await repo.customerOfEmailOrPhone(trx, tenantId, email, phone);
  if (matched) {
    if (phone && matched.phone === null) await repo.setCustomerPhone(trx, matched.id, phone, at);
    return matched.id;
  }
  const id = randomUUID();
  const row = { id, name: guest.name, email: guest.email.trim(), phone, created_at: at, updated_at: at };
  const event = customerEventData({ ...row, marketing_consent: false, metadata: {} });
  const inserted = await repo.insertCustomerUnlessEmailTaken(trx, { tenant_id: tenantId, ...row }, event);
  if (inserted) return id;
  // A concurrent booking of the same guest made the customer first: its row is committed now.
  const made = await repo.customerOfEmailOrPhone(trx, tenantId, email, null);
  if (!made) throw new Error('the customer whose email was taken vanished');
  return made.id;
}

export async function getCustomer(db: Executor, tenantId: string, id: string, lock = false): Promise<CustomerRow> {
  const row = isUuid(id) ? await repo.findCustomer(db, tenantId, id.toLowerCase(), lock) : undefined;
  if (!row) throw notFound('Customer', id);
  return row;
}

export async function listCustomers(
  db: Executor,
  tenantId: string,
  command: ListCustomersCommand,
  withTotal: boolean,
): Promise<Connection<CustomerRow>> {
  const filter = { search: command.search };
  const [rows, total] = await Promise.all([
    repo.listCustomers(db, tenantId, filter, command.first + 1, command.key),
    withTotal ? repo.countCustomers(db, tenantId, filter) : null,
  ]);
  return connectionOf(rows, command.first, command.after, (row) => customerCursor(row, !!command.search), total);
}

const erasedConflict = () => conflict('customer_erased', 'The customer was erased; an erased customer cannot change');

/** Applies an update; returns the customer before and after (the same row when nothing changed). */
export async function updateCustomer(
  trx: Executor,
  tenantId: string,
  command: UpdateCustomerCommand,
  at: Date,
): Promise<{ before: CustomerRow; after: CustomerRow; changed: string[] }> {
  const before = await getCustomer(trx, tenantId, command.id, true);
  if (before.erased_at) throw erasedConflict();
  const changes: repo.CustomerChanges = {};
  const changed: string[] = [];
  if (command.name !== undefined && command.name !== before.name) changes.name = command.name;
  if (command.email !== undefined && command.email !== before.email) changes.email = command.email;
  if (command.phone !== undefined && command.phone !== before.phone) changes.phone = command.phone;
  if (command.notes !== undefined && command.notes !== before.notes) changes.notes = command.notes;
  changed.push(...Object.keys(changes));
  if (command.metadata && !metadataUnchanged(before.metadata, command.metadata)) {
    changes.metadata = mergeMetadata(before.metadata, command.metadata);
    changed.push('metadata');
  }
  if (command.marketingConsent !== undefined && command.marketingConsent !== before.marketing_consent) {
    changes.marketing_consent = command.marketingConsent;
    changes.marketing_consent_at = command.marketingConsent ? at : null;
    changed.push('marketingConsent');
  }
  if (changed.length === 0) return { before, after: before, changed };
  try {
    const after = await repo.updateCustomer(trx, tenantId, before.id, changes, at);
    await recordEvent(trx, tenantId, 'customer.updated', { ...customerEventData(after), changed });
    return { before, after, changed };
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw emailTaken();
    throw error;
  }
}

const emailTaken = () =>
  new DomainError('CONFLICT', 'customer_email_taken', 'email: another customer of the tenant has this email address', {
    fieldErrors: [{ field: 'email', message: 'is another customer’s (merge the two instead)' }],
  });

/**
 * Merges `sourceIds` into `targetId` (see mergedFields for how fields combine): their bookings move
 * to the target and they are deleted; one customer.merged event. Rows are locked in id order.
 */
export async function mergeCustomers(
  trx: Executor,
  tenantId: string,
  targetId: string,
  sourceIds: readonly string[],
  at: Date,
): Promise<{ customer: CustomerRow; mergedIds: string[]; movedBookings: number }> {
  const rows = await repo.lockCustomers(trx, tenantId, [targetId, ...sourceIds]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const target = byId.get(targetId);
  if (!target) throw notFound('Customer', targetId);
  const missing = sourceIds.filter((id) => !byId.has(id));
  if (missing.length)
    throw new DomainError('NOT_FOUND', 'not_found', `sourceIds: customer ${missing.join(', ')} was not found`, {
      fieldErrors: [{ field: 'sourceIds', message: `not customers of the tenant: ${missing.join(', ')}` }],
    });
  const sources = sourceIds.map((id) => byId.get(id)).filter((r): r is CustomerRow => r !== undefined);
  if (target.erased_at || sources.some((s) => s.erased_at)) throw erasedConflict();
  const merged = mergedFields(target, sources);
  const movedBookings = await repo.moveBookings(trx, tenantId, sourceIds, targetId);
  // The sources go first: the email the target takes over is then free in the unique index.
  await repo.deleteCustomers(trx, tenantId, sourceIds);
  const customer = await repo.updateCustomer(trx, tenantId, targetId, merged, at);
  await recordEvent(trx, tenantId, 'customer.merged', {
    ...customerEventData(customer),
    mergedIds: [...sourceIds],
    movedBookings,
  });
  return { customer, mergedIds: [...sourceIds], movedBookings };
}
