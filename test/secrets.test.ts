import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { harness, type Harness } from './harness.js';
import { randomBytes } from 'node:crypto';
import { buildDoor, buildVenue, slotInDays } from './builders.js';
import { ownApp, type OwnApp } from './own-app.js';

// No credential may reach the logs or the database: the test creates API keys, a device key and
// activation code, a webhook signing secret and a booking's payment link, QR token and SMS code,
// uses them every way a client might (header, query string, path, body, GraphQL variables), logs
// at the most verbose level, then scans the captured log stream and a dump of every row of every
// table (also other tests' rows: nothing shaped like a full key may be stored anywhere).

let h: Harness;
let app: OwnApp;
const PORTIER_SECRET = 'test-server-secret-0123456789abcdef';

/** Longer than any displayed key prefix (12 characters: svc_ + 8, or svc_dk_ + 5). */
const FULL_KEY = /svc_[A-Za-z0-9_-]{9,}/g;

beforeAll(async () => {
  h = await harness();
  app = await ownApp(h, { logLevel: 'trace', env: { portierSecret: PORTIER_SECRET } });
});
afterAll(async () => {
  await app?.close();
});

async function dumpDatabase(): Promise<string[]> {
  const db = h.deps.database.db;
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const rows: string[] = [];
  for (const { table_name } of tables.rows) {
    const result = await sql<{
      row: string;
    }>`select row_to_json(t)::text as row from ${sql.table(table_name)} t`.execute(db);
    rows.push(...result.rows.map((r) => `${table_name}: ${r.row}`));
  }
  return rows;
}

/** A created secret, and whether it is a key (whose first 12 characters may be stored for display). */
interface Secret {
  what: string;
  value: string;
  key?: boolean;
}

/** Occurrences of a secret; numeric codes only as a whole number, not inside a longer one. */
function found(text: string, value: string): boolean {
  if (!/^\d+$/.test(value)) return text.includes(value);
  return new RegExp(`(?<!\\d)${value}(?!\\d)`).test(text);
}

/**
 * A venue with a door, a device (activation code, device key), a webhook subscription (signing
 * secret) and a booking (payment link, QR token, SMS code), made and used through the app whose
 * log is captured, every way a client might send them.
 */
async function useDoorAndWebhookSecrets(tenantId: string, apiKey: string, objectId: string): Promise<Secret[]> {
  const door = await buildDoor(h, tenantId, [objectId]);
  const registered = await app.graphql(
    apiKey,
    'mutation($d: [ID!]!) { registerDevice(name: "Gate", doorIds: $d) { activationCode device { id } } }',
    { d: [door.id] },
  );
  expect(registered.body.errors).toBeUndefined();
  const activationCode: string = registered.body.data.registerDevice.activationCode;
  const activated = await app.request({
    method: 'POST',
    url: '/api/devices/activate',
    body: { activation_code: activationCode, serial: 'SN-1', firmware_version: '1.0.0' },
  });
  expect(activated.status).toBe(200);
  const { device_id: deviceId, device_key: deviceKey } = activated.body as { device_id: string; device_key: string };
  await app.request({
    method: 'POST',
    url: '/api/devices/activate',
    body: { activation_code: activationCode, serial: 'SN-1', firmware_version: '1.0.0' },
  });
  const telemetry = { cpu_percent: 1, memory_percent: 2, wifi_signal_dbm: -50, door_states: { [door.id]: 'locked' } };
  await app.request({ method: 'POST', url: `/api/devices/${deviceId}/heartbeat`, apiKey: deviceKey, body: telemetry });
  await app.request({ method: 'GET', url: `/api/devices/${deviceId}/config?key=${deviceKey}`, apiKey: deviceKey });
  await app.request({ method: 'GET', url: `/api/devices/${deviceKey}/config`, apiKey: `${deviceKey}x` });

  // The webhook lives in a tenant of its own with no bookings, so no dispatcher (of any test) ever sends to it.
  const hooks = await h.tenant('Webhook owner');
  const signingSecret = `whsec_${randomBytes(24).toString('base64')}`;
  const webhook = await app.request({
    method: 'POST',
    url: `/api/v1/tenants/${hooks.tenantId}/webhooks`,
    apiKey: hooks.apiKey,
    body: { url: 'https://receiver.example/hook', events: ['booking.created'], secret: signingSecret },
  });
  expect(webhook.status).toBe(201);

  const created = await app.request({
    method: 'POST',
    url: `/api/v1/tenants/${tenantId}/bookings`,
    apiKey,
    body: { objectId, guestName: 'Ada', guestEmail: 'ada@example.com', ...slotInDays(3) },
  });
  expect(created.status).toBe(201);
  const bookingId: string = created.body.booking.id;
  const paymentToken = String(created.body.booking.paymentUrl).split('/pay/')[1];
  await app.request({ method: 'GET', url: `/pay/${paymentToken}` });
  await app.request({
    method: 'PATCH',
    url: `/api/v1/tenants/${tenantId}/bookings/${bookingId}`,
    apiKey,
    body: { status: 'CONFIRMED' },
  });
  const credentials = await app.request({
    method: 'GET',
    url: `/api/v1/tenants/${tenantId}/bookings/${bookingId}/credentials`,
    apiKey,
  });
  expect(credentials.status).toBe(200);
  const qrToken: string = credentials.body.qrCode.token;
  const smsCode: string = credentials.body.sms.code;
  for (const token of [qrToken, smsCode]) {
    const res = await app.request({
      method: 'POST',
      url: `/api/devices/${deviceId}/access-check?token=${token}`,
      apiKey: deviceKey,
      body: { token, doorId: door.id },
    });
    expect(res.status).toBe(200);
  }

  return [
    { what: 'a device key', value: deviceKey, key: true },
    { what: 'an activation code', value: activationCode },
    { what: 'an activation code (as hashed)', value: activationCode.replace(/-/g, '') },
    { what: 'a webhook signing secret', value: signingSecret },
    { what: 'a webhook signing secret (its key part)', value: signingSecret.slice('whsec_'.length) },
    { what: 'a payment token', value: paymentToken },
    { what: 'a QR token', value: qrToken },
    { what: 'an SMS code', value: smsCode },
  ];
}

describe('credentials', () => {
  it('appear neither in the logs nor in a dump of the database', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    const created = await app.graphql(
      apiKey,
      'mutation { createApiKey(name: "integration", scopes: ["catalog:read"]) { apiKey } }',
    );
    expect(created.body.errors).toBeUndefined();
    const secondKey: string = created.body.data.createApiKey.apiKey;
    const secrets: Secret[] = [
      { what: 'an API key', value: apiKey, key: true },
      { what: 'an API key', value: secondKey, key: true },
      { what: 'PORTIER_SECRET', value: PORTIER_SECRET },
    ];

    const url = `/api/v1/tenants/${tenantId}/objects/${object.id}/booking-rules`;
    await app.request({ method: 'GET', url, apiKey: secondKey });
    await app.request({ method: 'GET', url, apiKey: `${secondKey}x` });
    await app.request({ method: 'GET', url: `${url}?apiKey=${secondKey}&token=${apiKey}` });
    await app.request({ method: 'GET', url: `/api/v1/${secondKey}` });
    await app.request({
      method: 'POST',
      url: '/api/v1/graphql',
      apiKey,
      body: { query: 'query($n: Int) { viewer { id } }', variables: { n: secondKey } },
    });
    await app.request({ method: 'POST', url: '/api/v1/graphql', apiKey, body: `{"query": "${secondKey}` });
    await app.request({
      method: 'GET',
      url: '/healthz',
      headers: { authorization: `Bearer ${secondKey}`, cookie: `session=${secondKey}` },
    });
    secrets.push(...(await useDoorAndWebhookSecrets(tenantId, apiKey, object.id)));

    expect(app.logs.length).toBeGreaterThan(10);
    const logs = app.logs.join('');
    const rows = await dumpDatabase();
    for (const table of ['api_keys', 'devices', 'webhooks', 'booking_credentials'])
      expect(
        rows.some((r) => r.startsWith(`${table}:`)),
        table,
      ).toBe(true);
    const dump = rows.join('\n');

    for (const [where, text] of [
      ['logs', logs],
      ['database', dump],
    ] as const) {
      for (const secret of secrets) {
        expect(found(text, secret.value), `${where} contain ${secret.what}`).toBe(false);
        // Not even the part a displayed prefix hides.
        if (secret.key)
          expect(text.includes(secret.value.slice(12)), `${where} contain the hidden part of ${secret.what}`).toBe(
            false,
          );
      }
      // Any key, also one made by another test: stored prefixes are 12 characters (svc_ + 8, svc_dk_ + 5).
      // A publishable key (svc_pk_…) is public by design (docs/booking-page.md): it is stored whole.
      expect(
        (text.match(FULL_KEY) ?? []).filter((key) => !key.startsWith('svc_pk_')),
        `${where} contain something shaped like a full key`,
      ).toEqual([]);
      expect(text).not.toMatch(/Bearer\s+\S/);
    }
  });
});
