import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildSchema as buildSdl } from 'graphql';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildVenue, buildWebhook, slotInDays } from './builders.js';
import { compileRestOperation } from '../src/transport/rest/bridge.js';

// The REST bridge (src/transport/rest/bridge.ts) handles a call in one pass: fastify's route match, one
// body parse, one scope check and one tenant check, then the compiled operation; its errors are
// classified by type, not by message text.

let h: Harness;
let app: OwnApp;
/** Reads of the request key's scopes (the principal is wrapped to count them). */
let scopeReads = 0;
/** The variables each REST operation ran with. */
const ran: Record<string, unknown>[] = [];

beforeAll(async () => {
  h = await harness();
  app = await ownApp(h, {
    setup: (fastify) => {
      // After the principal is resolved, rate-limited and enforced (those hooks come first): from
      // here on, every read of the key's scopes is the request's own scope check.
      fastify.addHook('onRequest', async (req) => {
        const principal = req.principal;
        if (!principal) return;
        req.principal = new Proxy(principal, {
          get(target, property, receiver) {
            if (property === 'scopes') scopeReads += 1;
            return Reflect.get(target, property, receiver) as unknown;
          },
        });
      });
    },
  });
  for (const op of app.app.rest) {
    const run = op.run;
    op.run = (context, variables) => {
      ran.push(variables);
      return run(context, variables);
    };
    // A route answered directly (the bookings listing) records its variables there instead.
    const direct = op.direct;
    if (direct) {
      op.direct = {
        selection: direct.selection,
        answer: (context, variables) => {
          ran.push(variables);
          return direct.answer(context, variables);
        },
      };
    }
  }
});
afterAll(() => app.close());
afterEach(() => {
  vi.restoreAllMocks();
  scopeReads = 0;
  ran.length = 0;
});

describe('one pass per REST request', () => {
  it('parses the body once, checks the scope once and the tenant once (POST)', async () => {
    const venue = await buildVenue(h);
    const slot = slotInDays(20);
    const bodyText = JSON.stringify({
      objectId: venue.object.id,
      guestName: 'Ada',
      guestEmail: 'ada@example.com',
      ...slot,
    });
    const parse = vi.spyOn(JSON, 'parse');
    const res = await app.request({
      method: 'POST',
      url: `/api/v1/tenants/${venue.tenantId}/bookings`,
      apiKey: venue.apiKey,
      body: bodyText,
    });
    expect(res.status).toBe(201);
    // The body's text went through JSON.parse once: fastify's parser (the SOFA bridge parsed it again).
    expect(parse.mock.calls.filter(([text]) => text === bodyText)).toHaveLength(1);
    // One scope check at the edge (GraphQL's auth plugin checked REST calls a second time), and one
    // read for the answer's Booking.customer, shown only to a key holding customers:read.
    expect(scopeReads).toBe(2);
    // The tenant was checked at the edge; the operation runs without tenantId, so the resolver takes
    // the key's own tenant and has nothing to compare.
    // (DateTime parameters are read with the scalar's serialize(), as SOFA read them.)
    expect(ran).toEqual([
      {
        objectId: venue.object.id,
        guestName: 'Ada',
        guestEmail: 'ada@example.com',
        startTime: new Date(slot.startTime),
        endTime: new Date(slot.endTime),
      },
    ]);
  });

  it('the same on a read (GET)', async () => {
    const venue = await buildVenue(h);
    const res = await app.request({
      method: 'GET',
      url: `/api/v1/tenants/${venue.tenantId}/bookings?pageSize=5&status=PENDING`,
      apiKey: venue.apiKey,
    });
    expect(res.status).toBe(200);
    // The edge's check, and one read per page (not per row) for Booking.customer (customers:read).
    expect(scopeReads).toBe(2);
    expect(ran).toEqual([{ pageSize: 5, status: 'PENDING' }]);
  });

  it('answers a refused scope or tenant at the edge, before the parameters, without running the operation', async () => {
    const venue = await buildVenue(h);
    const other = await h.tenant();
    const catalogOnly = await h.key(venue.tenantId, ['catalog:read']);
    const scope = await app.request({
      method: 'GET',
      url: `/api/v1/tenants/${venue.tenantId}/bookings?page=abc`,
      apiKey: catalogOnly,
    });
    expect(scope.status).toBe(403);
    expect(scope.body).toMatchObject({ code: 'missing_scope' });
    const tenant = await app.request({
      method: 'GET',
      url: `/api/v1/tenants/${other.tenantId}/bookings?page=abc`,
      apiKey: venue.apiKey,
    });
    expect(tenant.status).toBe(403);
    expect(tenant.body).toMatchObject({ code: 'tenant_mismatch' });
    expect(scopeReads).toBe(2);
    expect(ran).toEqual([]);
  });
});

describe('REST errors are classified by type, not by message text', () => {
  it("a parameter value that reads like a graphql-js variable error names no field (it used to name 'guestEmail')", async () => {
    const venue = await buildVenue(h);
    // qs reads `page[…]=1` as an object, which Int cannot represent; the message quotes the key.
    const res = await app.request({
      method: 'GET',
      url: `/api/v1/tenants/${venue.tenantId}/bookings?page[Variable%20%22%24guestEmail%22]=1`,
      apiKey: venue.apiKey,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      type: 'https://portier.dev/problems/validation-failed',
      title: 'Bad Request',
      status: 400,
      detail: 'Int cannot represent non-integer value: { Variable "$guestEmail": "1" }',
      code: 'validation_failed',
    });
  });

  it('a domain error echoing such a phrase stays that domain error', async () => {
    const venue = await buildVenue(h);
    const hook = await buildWebhook(h, venue.tenantId, { url: 'https://hooks.example.com/x' });
    const phrase = 'Variable "$webhookId" of required type "ID!" was not provided.';
    const res = await app.request({
      method: 'POST',
      url: `/api/v1/tenants/${venue.tenantId}/webhooks/${hook.id}/events/${encodeURIComponent(phrase)}/redeliver`,
      apiKey: venue.apiKey,
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      code: 'not_found',
      detail: `Delivery of event ${phrase} to webhook ${hook.id} was not found`,
    });
    expect(res.body).not.toHaveProperty('errors');
  });

  it('missing and malformed parameters are attributed to their variables by location', async () => {
    const venue = await buildVenue(h);
    const missing = await app.request({
      method: 'POST',
      url: `/api/v1/tenants/${venue.tenantId}/webhooks`,
      apiKey: venue.apiKey,
      body: { url: 'https://hooks.example.com/x' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      detail: 'events: is required; secret: is required',
      errors: [
        { field: 'events', message: 'is required' },
        { field: 'secret', message: 'is required' },
      ],
    });
    // `status[]=…` is a list (qs), which the enum variable refuses: graphql-jit's message, under the variable's name.
    const list = await app.request({
      method: 'GET',
      url: `/api/v1/tenants/${venue.tenantId}/bookings?status[]=CONFIRMED`,
      apiKey: venue.apiKey,
    });
    expect(list.status).toBe(400);
    expect(list.body).toMatchObject({
      errors: [
        {
          field: 'status',
          message: 'Variable "$status" got invalid value ["CONFIRMED"]; Expected type BookingStatus.',
        },
      ],
    });
  });
});

describe('compileRestOperation', () => {
  const sdl = (nested: string) => `
    directive @requiresScopes(scopes: [[String!]!]!) on FIELD_DEFINITION | OBJECT | INTERFACE
    directive @authenticated on FIELD_DEFINITION | OBJECT | INTERFACE
    type Query { thing(tenantId: ID): Thing! @requiresScopes(scopes: [["catalog:read"]]) }
    type Thing { name: String! secret: String ${nested} }
  `;
  const route = { field: 'Query.thing', method: 'GET', path: '/tenants/:tenantId/thing', summary: 'A thing' } as const;

  it('compiles a route whose selection carries auth on its root field only', () => {
    const op = compileRestOperation(buildSdl(sdl('')), { ...route }, []);
    expect(op.scopeSets).toEqual([['catalog:read']]);
    expect(op.tenantInPath).toBe(true);
  });

  it('refuses, at start-up, a selection with an auth directive below the root field (the bridge would not check it)', () => {
    expect(() => compileRestOperation(buildSdl(sdl('@requiresScopes(scopes: [["admin"]])')), { ...route }, [])).toThrow(
      /auth directive/,
    );
  });
});
