import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildWebhook, WEBHOOK_SECRET } from './builders.js';
import { Receiver } from './receiver.js';

// The subscription API over REST and GraphQL: shapes, validation, scopes, tenant isolation, the
// synchronous test endpoint and the delivery log.

let h: Harness;
const receiver = new Receiver();
beforeAll(async () => {
  h = await harness();
  await receiver.start();
});
afterAll(() => receiver.stop());

const base = (tenantId: string) => `/api/v1/tenants/${tenantId}/webhooks`;
const body = {
  url: 'https://hooks.example.com/portier',
  events: ['booking.created', 'booking.cancelled'],
  secret: WEBHOOK_SECRET,
};

describe('webhook subscriptions over REST', () => {
  it('creates (201), lists, gets and deletes a subscription; the secret is never returned', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const created = await h.request({ method: 'POST', url: base(tenantId), apiKey, body });
    expect(created.status).toBe(201);
    const webhook = created.body.webhook;
    expect(webhook).toEqual({
      id: expect.any(String),
      url: body.url,
      events: body.events,
      active: true,
      createdAt: expect.any(String),
      // Additive (test mode, docs/test-mode.md): a live key's subscription is live.
      livemode: true,
    });
    expect(new Date(webhook.createdAt).toISOString()).toBe(webhook.createdAt);

    const list = await h.request({ method: 'GET', url: base(tenantId), apiKey });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ webhooks: [webhook], next: null });

    const one = await h.request({ method: 'GET', url: `${base(tenantId)}/${webhook.id}`, apiKey });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ webhook });

    for (const res of [created, list, one]) expect(res.text).not.toContain('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    const row = await h.deps.database.db
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', webhook.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(h.deps.secret.unseal(row.secret_sealed)).toBe(WEBHOOK_SECRET);

    const deleted = await h.request({ method: 'DELETE', url: `${base(tenantId)}/${webhook.id}`, apiKey });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, id: webhook.id });
    expect((await h.request({ method: 'GET', url: `${base(tenantId)}/${webhook.id}`, apiKey })).status).toBe(404);
    expect((await h.request({ method: 'DELETE', url: `${base(tenantId)}/${webhook.id}`, apiKey })).status).toBe(404);
  });

  it('accepts a plain-string secret', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const res = await h.request({
      method: 'POST',
      url: base(tenantId),
      apiKey,
      body: { ...body, secret: 'a plain secret of reasonable length' },
    });
    expect(res.status).toBe(201);
  });

  it.each([
    [{ url: 'not-a-url' }, 'url'],
    [{ url: 'ftp://hooks.example.com/x' }, 'url'],
    [{ events: [] }, 'events'],
    [{ events: ['booking.created', 'booking.exploded'] }, 'events'],
    [{ secret: 'short' }, 'secret'],
    [{ secret: 'x'.repeat(513) }, 'secret'],
    [{ secret: 'whsec_***not-base64***' }, 'secret'],
  ])('refuses %j with a problem naming %s', async (override, field) => {
    const { tenantId, apiKey } = await h.tenant();
    const res = await h.request({ method: 'POST', url: base(tenantId), apiKey, body: { ...body, ...override } });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field }] });
  });

  it('refuses a missing field with 400', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const res = await h.request({
      method: 'POST',
      url: base(tenantId),
      apiKey,
      body: { url: body.url, events: body.events },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.field).toBe('secret');
  });

  it('needs webhooks:read to read and webhooks:write to change', async () => {
    const { tenantId } = await h.tenant();
    const reader = await h.key(tenantId, ['webhooks:read']);
    const other = await h.key(tenantId, ['bookings:read']);
    expect((await h.request({ method: 'GET', url: base(tenantId), apiKey: reader })).status).toBe(200);
    expect((await h.request({ method: 'GET', url: base(tenantId), apiKey: other })).status).toBe(403);
    const refused = await h.request({ method: 'POST', url: base(tenantId), apiKey: reader, body });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('missing_scope');
    expect((await h.request({ method: 'GET', url: base(tenantId) })).status).toBe(401);
  });

  it("keeps tenants apart: another tenant's path is 403, its webhook 404", async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    const webhook = await buildWebhook(h, a.tenantId, { url: body.url });
    expect((await h.request({ method: 'GET', url: base(a.tenantId), apiKey: b.apiKey })).status).toBe(403);
    expect(
      (await h.request({ method: 'GET', url: `${base(b.tenantId)}/${webhook.id}`, apiKey: b.apiKey })).status,
    ).toBe(404);
    expect(
      (await h.request({ method: 'DELETE', url: `${base(b.tenantId)}/${webhook.id}`, apiKey: b.apiKey })).status,
    ).toBe(404);
    expect(
      (await h.request({ method: 'POST', url: `${base(b.tenantId)}/${webhook.id}/test`, apiKey: b.apiKey })).status,
    ).toBe(404);
  });
});

describe('POST /webhooks/{id}/test', () => {
  it('sends a signed webhook.test event and answers status and duration, never the receiver body', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const webhook = await buildWebhook(h, tenantId, { url: receiver.url('/test-hook'), events: ['booking.created'] });
    receiver.reply = () => ({ status: 200, body: 'receiver-private-response-body' });
    const before = receiver.requests.length;
    const res = await h.request({ method: 'POST', url: `${base(tenantId)}/${webhook.id}/test`, apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      webhookId: webhook.id,
      eventId: expect.any(String),
      success: true,
      statusCode: 200,
      durationMs: expect.any(Number),
      error: null,
    });
    expect(res.text).not.toContain('receiver-private-response-body');
    const sent = receiver.requests[before];
    expect(sent.path).toBe('/test-hook');
    expect(sent.headers['webhook-id']).toBe(res.body.eventId);
    expect(JSON.parse(sent.body)).toMatchObject({
      id: res.body.eventId,
      type: 'webhook.test',
      data: { webhookId: webhook.id },
    });

    const log = await h.request({ method: 'GET', url: `${base(tenantId)}/${webhook.id}/deliveries`, apiKey });
    expect(log.status).toBe(200);
    expect(log.body.deliveries).toEqual([
      expect.objectContaining({
        eventId: res.body.eventId,
        eventType: 'webhook.test',
        status: 'SUCCEEDED',
        attemptCount: 1,
        lastStatusCode: 200,
        nextAttemptAt: null,
      }),
    ]);
    expect(log.body.deliveries[0].attempts).toEqual([expect.objectContaining({ statusCode: 200, error: null })]);
  });

  it('takes Content-Type: application/json without a body, as many clients send it on every request (test and delete)', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const webhook = await buildWebhook(h, tenantId, { url: receiver.url('/empty-body'), events: ['booking.created'] });
    receiver.reply = () => ({ status: 204 });
    const json = { 'content-type': 'application/json' };
    const test = await h.request({
      method: 'POST',
      url: `${base(tenantId)}/${webhook.id}/test`,
      apiKey,
      headers: json,
    });
    expect(test.status).toBe(200);
    expect(test.body.success).toBe(true);
    const deleted = await h.request({
      method: 'DELETE',
      url: `${base(tenantId)}/${webhook.id}`,
      apiKey,
      headers: json,
    });
    expect(deleted.status).toBe(200);
    expect((await h.request({ method: 'GET', url: `${base(tenantId)}/${webhook.id}`, apiKey })).status).toBe(404);
    // Malformed JSON is still refused.
    const broken = await h.request({ method: 'POST', url: base(tenantId), apiKey, body: '{"url": ' });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe('malformed_json');
  });

  it('reports a receiver error or a receiver that is down, without retrying a test', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const webhook = await buildWebhook(h, tenantId, { url: receiver.url() });
    receiver.reply = () => ({ status: 500, body: 'stack trace of the receiver' });
    const failed = await h.request({ method: 'POST', url: `${base(tenantId)}/${webhook.id}/test`, apiKey });
    expect(failed.body).toMatchObject({ success: false, statusCode: 500, error: 'receiver answered 500' });
    expect(failed.text).not.toContain('stack trace');

    const down = new Receiver();
    await down.start();
    const url = down.url();
    await down.stop();
    const deadHook = await buildWebhook(h, tenantId, { url });
    const refused = await h.request({ method: 'POST', url: `${base(tenantId)}/${deadHook.id}/test`, apiKey });
    expect(refused.body).toMatchObject({ success: false, statusCode: null, error: 'connection refused' });

    const log = await h.graphql(
      apiKey,
      `query($w: ID!) { webhookDeliveries(webhookId: $w) { deliveries { status nextAttemptAt attemptCount } } }`,
      { w: deadHook.id },
    );
    expect(log.body.data.webhookDeliveries.deliveries).toEqual([
      { status: 'FAILED', nextAttemptAt: null, attemptCount: 1 },
    ]);
    receiver.reply = () => ({ status: 204 });
  });
});

describe('webhooks over GraphQL', () => {
  it('creates, reads, tests and deletes', async () => {
    const { apiKey } = await h.tenant();
    const created = await h.graphql(
      apiKey,
      `mutation($url: String!, $events: [String!]!, $secret: String!) { createWebhook(url: $url, events: $events, secret: $secret) { webhook { id url events active createdAt } } }`,
      { url: receiver.url(), events: ['booking.confirmed'], secret: 'plain-secret-for-graphql' },
    );
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data.createWebhook.webhook.id;
    const read = await h.graphql(apiKey, `query($id: ID!) { webhooks { id events } webhook(id: $id) { url active } }`, {
      id,
    });
    expect(read.body.data).toEqual({
      webhooks: [{ id, events: ['booking.confirmed'] }],
      webhook: { url: receiver.url(), active: true },
    });
    const tested = await h.graphql(
      apiKey,
      `mutation($id: ID!) { testWebhook(webhookId: $id) { success statusCode } }`,
      { id },
    );
    expect(tested.body.data.testWebhook).toEqual({ success: true, statusCode: 204 });
    const deleted = await h.graphql(apiKey, `mutation($id: ID!) { deleteWebhook(webhookId: $id) { deleted id } }`, {
      id,
    });
    expect(deleted.body.data.deleteWebhook).toEqual({ deleted: true, id });
  });

  it('refuses invalid input with BAD_USER_INPUT and field errors', async () => {
    const { apiKey } = await h.tenant();
    const res = await h.graphql(
      apiKey,
      `mutation { createWebhook(url: "nope", events: ["x"], secret: "s") { webhook { id } } }`,
    );
    expect(res.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'url' }, { field: 'events' }, { field: 'secret' }],
    });
  });

  it('needs the webhooks scopes', async () => {
    const { tenantId } = await h.tenant();
    const key = await h.key(tenantId, ['catalog:read']);
    const res = await h.graphql(key, `{ webhooks { id } }`);
    expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
