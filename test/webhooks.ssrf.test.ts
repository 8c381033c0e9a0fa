import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { WEBHOOK_SECRET } from './builders.js';
import { Receiver } from './receiver.js';
import { buildApp, type App } from '../src/transport/http/app.js';
import { composeDeps, type AppDeps } from '../src/app/deps.js';
import { WebhookDispatcher, dispatcherOptionsOf } from '../src/modules/webhooks/dispatcher.js';
import { createWebhook } from '../src/modules/webhooks/webhooks.service.js';
import { recordEvent } from '../src/modules/webhooks/outbox.js';
import type { Resolver } from '../src/modules/webhooks/address-guard.js';

// The SSRF guard with WEBHOOK_ALLOW_PRIVATE_NETWORKS=false (the harness allows private networks,
// so these tests build their own app and dispatcher): refused at creation, and at every delivery
// on the address actually connected to.

let h: Harness;
let strict: AppDeps;
let app: App;
const receiver = new Receiver();
const tenants: string[] = [];

beforeAll(async () => {
  h = await harness();
  strict = composeDeps({ ...h.deps, env: { ...h.deps.env, webhookAllowPrivateNetworks: false } });
  app = await buildApp(strict);
  await app.fastify.ready();
  await receiver.start();
});
afterAll(async () => {
  await app.fastify.close();
  await receiver.stop();
});
afterEach(async () => {
  if (tenants.length)
    await h.deps.database.db.deleteFrom('webhooks').where('tenant_id', 'in', tenants.splice(0)).execute();
});

async function tenant() {
  const t = await h.tenant();
  tenants.push(t.tenantId);
  return t;
}

async function post(apiKey: string, url: string, body: unknown) {
  const res = await app.fastify.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() };
}

/** DNS as the tests want it: public.test is public, rebind.test is loopback, the rest does not exist. */
const fakeDns =
  (table: Record<string, string>): Resolver =>
  async (host) => {
    const address = table[host];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };

describe('receivers on private networks are refused at creation', () => {
  it.each([
    ['http://127.0.0.1/hook', 'loopback'],
    ['http://localhost/hook', 'loopback'],
    ['http://LOCALHOST./hook', 'loopback'],
    ['http://[::1]/hook', 'loopback'],
    ['http://0.0.0.0/hook', 'unspecified'],
    ['http://10.0.0.1/hook', 'private'],
    ['http://10.255.255.255/hook', 'private'],
    ['http://172.16.0.1/hook', 'private'],
    ['http://172.31.255.254/hook', 'private'],
    ['http://192.168.1.1/hook', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://100.64.0.1/hook', 'carrier-grade NAT'],
    ['http://[fd00::1]/hook', 'unique-local'],
    ['http://[fe80::1]/hook', 'link-local'],
    ['http://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['http://[::ffff:a9fe:a9fe]/hook', 'link-local'],
    ['http://2130706433/hook', 'loopback'],
    ['http://0x7f000001/hook', 'loopback'],
    ['http://017700000001/hook', 'loopback'],
    ['http://127.1/hook', 'loopback'],
    ['http://224.0.0.1/hook', 'multicast'],
    ['http://[ff02::1]/hook', 'multicast'],
    ['https://127.0.0.1:8443/hook', 'loopback'],
  ])('%s (%s)', async (url, kind) => {
    const { tenantId, apiKey } = await tenant();
    const res = await post(apiKey, `/api/v1/tenants/${tenantId}/webhooks`, {
      url,
      events: ['booking.created'],
      secret: WEBHOOK_SECRET,
    });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 400, code: 'url_not_allowed', errors: [{ field: 'url' }] });
    expect(res.body.errors[0].message).toContain(kind);
    expect(res.body.detail).toContain('webhook receivers must be public internet addresses');
  });

  it('accepts a public address', async () => {
    const { tenantId, apiKey } = await tenant();
    const res = await post(apiKey, `/api/v1/tenants/${tenantId}/webhooks`, {
      url: 'https://93.184.216.34/hook',
      events: ['booking.created'],
      secret: WEBHOOK_SECRET,
    });
    expect(res.status).toBe(201);
  });

  it('refuses a name that resolves to a private address', async () => {
    const { tenantId } = await tenant();
    const input = { url: 'https://rebind.test/hook', events: ['booking.created'], secret: WEBHOOK_SECRET };
    await expect(
      createWebhook(h.deps.database.db, strict, tenantId, input, fakeDns({ 'rebind.test': '10.1.2.3' })),
    ).rejects.toMatchObject({
      code: 'url_not_allowed',
      message:
        'url: rebind.test resolves to 10.1.2.3, a private address; webhook receivers must be public internet addresses',
    });
  });
});

describe('receivers on private networks are refused at delivery', () => {
  async function deliveryLog(tenantId: string, webhookId: string) {
    return h.deps.database.db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select(['a.status_code', 'a.error', 'd.status'])
      .where('d.tenant_id', '=', tenantId)
      .where('d.webhook_id', '=', webhookId)
      .execute();
  }

  it('refuses a stored URL whose host is localhost or a loopback literal, so nothing reaches the receiver', async () => {
    const { tenantId } = await tenant();
    // Rows written directly: as if they had been created while private networks were allowed.
    const rows = await h.deps.database.db
      .insertInto('webhooks')
      .values(
        [
          receiver.url().replace('127.0.0.1', 'localhost'),
          receiver.url(),
          receiver.url().replace('127.0.0.1', '[::ffff:127.0.0.1]'),
        ].map((url) => ({
          tenant_id: tenantId,
          url,
          events: ['booking.created'],
          secret_sealed: h.deps.secret.seal(WEBHOOK_SECRET),
        })),
      )
      .returning('id')
      .execute();
    await recordEvent(h.deps.database.db, tenantId, 'booking.created', { booking: { id: 'b-1' } });
    const before = receiver.requests.length;
    const dispatcher = new WebhookDispatcher(dispatcherOptionsOf(strict));
    await dispatcher.runOnce();
    expect(receiver.requests.length).toBe(before);
    const errors = [];
    for (const row of rows) {
      const log = await deliveryLog(tenantId, row.id);
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ status_code: null, status: 'pending' });
      errors.push(log[0].error);
    }
    expect(errors).toEqual([
      expect.stringMatching(
        /^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address; webhook receivers must be public addresses$/,
      ),
      'refused: 127.0.0.1 is a loopback address; webhook receivers must be public addresses',
      'refused: ::ffff:7f00:1 (127.0.0.1) is a loopback address; webhook receivers must be public addresses',
    ]);
  });

  it('refuses a name that resolved publicly at creation but resolves to loopback at delivery (DNS rebinding)', async () => {
    const { tenantId } = await tenant();
    const url = `http://rebind.test:${receiver.port}/hook`;
    const webhook = await createWebhook(
      h.deps.database.db,
      strict,
      tenantId,
      { url, events: ['booking.created'], secret: WEBHOOK_SECRET },
      fakeDns({ 'rebind.test': '93.184.216.34' }),
    );
    await recordEvent(h.deps.database.db, tenantId, 'booking.created', { booking: { id: 'b-2' } });
    const before = receiver.requests.length;
    const dispatcher = new WebhookDispatcher(
      dispatcherOptionsOf(strict, { resolver: fakeDns({ 'rebind.test': '127.0.0.1' }) }),
    );
    await dispatcher.runOnce();
    expect(receiver.requests.length).toBe(before);
    expect((await deliveryLog(tenantId, webhook.id))[0].error).toBe(
      'refused: rebind.test resolves to 127.0.0.1, a loopback address; webhook receivers must be public addresses',
    );
  });

  it('refuses the synchronous test event the same way', async () => {
    const { tenantId, apiKey } = await tenant();
    const [row] = await h.deps.database.db
      .insertInto('webhooks')
      .values({
        tenant_id: tenantId,
        url: receiver.url().replace('127.0.0.1', 'localhost'),
        events: ['booking.created'],
        secret_sealed: h.deps.secret.seal(WEBHOOK_SECRET),
      })
      .returning('id')
      .execute();
    const before = receiver.requests.length;
    const res = await post(apiKey, `/api/v1/tenants/${tenantId}/webhooks/${row.id}/test`, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, statusCode: null });
    expect(res.body.error).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(receiver.requests.length).toBe(before);
  });
});
