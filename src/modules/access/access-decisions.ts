import type { AccessLogRow } from '../../kernel/db/types.js';
import type { LiveMessage } from '../../kernel/live/index.js';
import type { WrittenAccessLogEntry } from './access-log-writer.js';

// Access decisions as live messages (accessDecided, docs/subscriptions.md): a committed access-log
// entry, as JSON, to every process; back to the row AccessLogEntry's resolvers read.

export function accessDecisionMessage(entry: WrittenAccessLogEntry): LiveMessage {
  const checkedAt = entry.checked_at instanceof Date ? entry.checked_at.toISOString() : entry.checked_at;
  return {
    topic: 'access',
    tenantId: entry.tenant_id,
    data: {
      id: entry.id,
      deviceId: entry.device_id,
      doorId: entry.door_id,
      bookingId: entry.booking_id ?? null,
      credentialType: entry.credential_type ?? null,
      allowed: entry.allowed,
      reason: entry.reason ?? null,
      checkedAt,
      mode: entry.mode ?? 'online',
      tokenId: entry.token_id ?? null,
    },
  };
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The row of a message made by accessDecisionMessage (tenant from the subscription, which only gets its own). */
export function accessLogRowOf(data: Record<string, unknown>, tenantId: string): AccessLogRow {
  return {
    id: text(data.id) ?? '',
    tenant_id: tenantId,
    device_id: text(data.deviceId) ?? '',
    door_id: text(data.doorId) ?? '',
    booking_id: text(data.bookingId),
    credential_type: text(data.credentialType) as AccessLogRow['credential_type'],
    allowed: data.allowed === true,
    reason: text(data.reason),
    checked_at: new Date(text(data.checkedAt) ?? 0),
    mode: data.mode === 'offline' ? 'offline' : 'online',
    token_id: text(data.tokenId),
    offline_key: null,
  };
}
