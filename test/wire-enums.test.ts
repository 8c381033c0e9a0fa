import { beforeAll, describe, expect, it, vi } from 'vitest';
import { harness, type Harness } from './harness.js';
import codegen from '../codegen.js';
import { SCOPES } from '../src/kernel/auth/scopes.js';
import { EVENT_TYPES } from '../src/modules/webhooks/index.js';
import { API_SCOPE_VALUES, WEBHOOK_EVENT_TYPE_VALUES } from '../src/transport/graphql/wire-enums.js';
import { UUID_SPECIFIED_BY } from '../src/transport/graphql/scalars.js';

// Issue #44: ApiScope and WebhookEventType, GraphQL enums whose internal values are the wire
// strings (bookings:read, booking.created), beside the String fields; the UUID scalar on new
// arguments (docs/schema.md, "Wire strings as enums", "UUID").

let h: Harness;

beforeAll(async () => {
  h = await harness();
});

describe('the enums', () => {
  it('have one value per wire string, and codegen maps the same ones', async () => {
    expect(Object.values(API_SCOPE_VALUES).sort()).toEqual([...SCOPES].sort());
    expect(Object.values(WEBHOOK_EVENT_TYPE_VALUES).sort()).toEqual([...EVENT_TYPES].sort());
    const generated = codegen.generates['generated/graphql.ts'] as { config: { enumValues: Record<string, unknown> } };
    expect(generated.config.enumValues.ApiScope).toEqual(API_SCOPE_VALUES);
    expect(generated.config.enumValues.WebhookEventType).toEqual(WEBHOOK_EVENT_TYPE_VALUES);
    const { apiKey } = await h.tenant();
    const res = await h.graphql(
      apiKey,
      '{ s: __type(name: "ApiScope") { enumValues { name } } e: __type(name: "WebhookEventType") { enumValues { name } } u: __type(name: "UUID") { specifiedByURL } }',
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.s.enumValues.map((v: { name: string }) => v.name).sort()).toEqual(
      Object.keys(API_SCOPE_VALUES).sort(),
    );
    expect(res.body.data.e.enumValues).toHaveLength(EVENT_TYPES.length);
    expect(res.body.data.u.specifiedByURL).toBe(UUID_SPECIFIED_BY);
  });

  it('ApiKey.apiScopes answers the scopes as enum values', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const key = await h.key(tenantId, ['bookings:read', 'customers:write', 'booking_page']);
    const res = await h.graphql(apiKey, '{ apiKeys { prefix scopes apiScopes } }');
    expect(res.status, res.text).toBe(200);
    const made = res.body.data.apiKeys.find((k: { prefix: string }) => key.startsWith(k.prefix));
    expect(made.scopes).toEqual(['bookings:read', 'customers:write', 'booking_page']);
    expect(made.apiScopes).toEqual(['BOOKINGS_READ', 'CUSTOMERS_WRITE', 'BOOKING_PAGE']);
  });

  it('events(eventTypes) filters by enum value, alone or beside types', async () => {
    const { tenantId, apiKey } = await h.tenant();
    await h.deps.database.db.transaction().execute(async (trx) => {
      const { recordEvent } = await import('../src/modules/webhooks/index.js');
      await recordEvent(trx, tenantId, 'booking.created', { booking: { id: crypto.randomUUID() } });
      await recordEvent(trx, tenantId, 'device.offline', { device: { id: crypto.randomUUID() } });
      await recordEvent(trx, tenantId, 'customer.merged', { customer: { id: crypto.randomUUID() } });
    });
    const typesOf = async (args: string) => {
      const res = await h.graphql(apiKey, `{ events(${args}) { nodes { type } } }`);
      expect(res.status, res.text).toBe(200);
      return res.body.data.events.nodes.map((n: { type: string }) => n.type);
    };
    // On a PostgreSQL server the feed serves them once every older transaction ended (docs/events.md, "Short delay").
    await vi.waitFor(async () => expect(await typesOf('eventTypes: [BOOKING_CREATED]')).toEqual(['booking.created']), {
      timeout: 120_000,
      interval: 50,
    });
    // One transaction wrote all three: their order within it is not the point here.
    expect((await typesOf('eventTypes: [DEVICE_OFFLINE], types: ["customer.merged"]')).sort()).toEqual([
      'customer.merged',
      'device.offline',
    ]);
    // The wire string is not an enum value (GraphQL's validation; 200 under application/json, docs/schema.md).
    const bad = await h.graphql(apiKey, '{ events(eventTypes: ["booking.created"]) { nodes { type } } }');
    expect(bad.body.data).toBeUndefined();
    expect(bad.body.errors[0].message).toContain('WebhookEventType');
  });
});

describe('UUID', () => {
  it('apiKey(id) reads one key; a malformed id is refused naming the argument', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const key = await h.key(tenantId, ['webhooks:read']);
    const list = await h.graphql(apiKey, '{ apiKeys { id prefix } }');
    const id = list.body.data.apiKeys.find((k: { prefix: string }) => key.startsWith(k.prefix)).id as string;
    const one = await h.graphql(apiKey, 'query ($id: UUID!) { apiKey(id: $id) { id apiScopes } }', { id });
    expect(one.status, one.text).toBe(200);
    expect(one.body.data.apiKey).toEqual({ id, apiScopes: ['WEBHOOKS_READ'] });

    const missing = await h.graphql(apiKey, 'query ($id: UUID!) { apiKey(id: $id) { id } }', {
      id: crypto.randomUUID(),
    });
    expect(missing.body.data.apiKey).toBeNull();
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');

    const variable = await h.graphql(apiKey, 'query ($id: UUID!) { apiKey(id: $id) { id } }', { id: 'nope' });
    expect(variable.status).toBe(400);
    expect(variable.body.errors[0].message).toContain('UUID');
    expect(variable.body.errors[0].message).toContain('$id');
    const literal = await h.graphql(apiKey, '{ apiKey(id: "nope") { id } }');
    expect(literal.body.data).toBeUndefined();
    expect(literal.body.errors).toEqual([
      expect.objectContaining({
        message: 'Argument "id" must be a UUID (8-4-4-4-12 hexadecimal digits), got "nope"',
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      }),
    ]);
  });
});
