import { describe, expect, it } from 'vitest';
import { accessDecisionMessage, accessLogRowOf } from './access-decisions.js';

describe('access decisions as live messages', () => {
  it('survive the JSON round trip as the access-log row', () => {
    const entry = {
      id: '5b1f2f0e-4c55-4a57-9d2b-0f5f4b1b1a11',
      tenant_id: 'tenant',
      device_id: 'device',
      door_id: 'door',
      booking_id: null,
      credential_type: 'qr' as const,
      allowed: false,
      reason: 'invalid_token',
      checked_at: new Date('2026-11-28T10:00:00.000Z'),
      token_id: null,
    };
    const message = accessDecisionMessage(entry);
    expect(message).toMatchObject({ topic: 'access', tenantId: 'tenant' });
    const wire = JSON.parse(JSON.stringify(message.data)) as Record<string, unknown>;
    expect(accessLogRowOf(wire, 'tenant')).toEqual({ ...entry, mode: 'online', offline_key: null });
  });
});
