import { connect, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { HSTS_MAX_AGE_SECONDS } from '../src/transport/http/security-headers.js';

// Issue #23, findings 6, 9 and 10, in process. The connection flood and slow clients (findings 7
// and 8) run against the built server: test/connection-flood.test.ts.

let h: Harness;
const opened: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  h = await harness();
});
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

async function open(settings: Parameters<typeof ownApp>[1]): Promise<OwnApp> {
  const app = await ownApp(h, settings);
  opened.push(app);
  return app;
}

/** An app of its own listening on a port the system picks (the shared database stays open when it closes). */
async function listening(): Promise<{ url: string; close(): Promise<void> }> {
  const app = await open({});
  await app.app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = app.app.fastify.server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () => app.app.fastify.close(),
  };
}

/** Raw HTTP/1.1 over one socket: each call writes `text` and resolves with the next whole response (head and body). */
function rawClient(url: string): Promise<{
  socket: Socket;
  send(text: string): Promise<{ status: number; headers: Record<string, string>; body: string }>;
  closed: Promise<void>;
}> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let buffer = '';
    let waiter: ((chunk: void) => void) | undefined;
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      waiter?.();
    });
    socket.on('close', () => waiter?.());
    socket.once('error', () => undefined);
    const next = async () => {
      for (;;) {
        const headEnd = buffer.indexOf('\r\n\r\n');
        if (headEnd >= 0) {
          const head = buffer.slice(0, headEnd).split('\r\n');
          const headers = Object.fromEntries(
            head
              .slice(1)
              .map((line) => [
                line.slice(0, line.indexOf(':')).toLowerCase(),
                line.slice(line.indexOf(':') + 1).trim(),
              ]),
          );
          const length = Number(headers['content-length'] ?? 0);
          if (buffer.length >= headEnd + 4 + length) {
            const body = buffer.slice(headEnd + 4, headEnd + 4 + length);
            buffer = buffer.slice(headEnd + 4 + length);
            return { status: Number(head[0].split(' ')[1]), headers, body };
          }
        }
        if (socket.destroyed) throw new Error(`connection closed; received: ${buffer}`);
        await new Promise<void>((r) => (waiter = r));
      }
    };
    socket.once('connect', () =>
      resolve({
        socket,
        closed,
        send: (text) => {
          socket.write(text);
          return next();
        },
      }),
    );
    socket.once('error', reject);
  });
}

describe('#23 finding 6: security headers', () => {
  it('X-Content-Type-Options: nosniff on every response: JSON API, GraphQL, refusals, probes; no HSTS over http', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const responses = [
      await h.request({ method: 'GET', url: '/healthz' }),
      await h.request({ method: 'GET', url: `/api/v1/tenants/${tenantId}/objects`, apiKey }),
      await h.request({ method: 'GET', url: `/api/v1/tenants/${tenantId}/objects` }), // 401
      await h.request({ method: 'GET', url: '/api/v1/no-such-route', apiKey }), // 404
      await h.request({ method: 'GET', url: `/api/v1/tenants/${'x'.repeat(300)}/objects`, apiKey }), // refused before routing
      await h.graphql(apiKey, '{ viewer { id } }'),
      await h.request({ method: 'POST', url: '/api/devices/activate', body: '{"broken": ' }),
    ];
    for (const res of responses) {
      expect(res.headers['x-content-type-options'], `${res.status} ${res.text.slice(0, 80)}`).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it(`Strict-Transport-Security max-age=${HSTS_MAX_AGE_SECONDS} when PUBLIC_URL is https`, async () => {
    const app = await open({ env: { publicUrl: 'https://portier.example.com' } });
    for (const url of ['/healthz', '/api/v1/nowhere', '/readyz']) {
      const res = await app.request({ method: 'GET', url });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});

describe('#23 finding 9: smaller', () => {
  it('/readyz answers 503 shutting_down from the first moment of the drain, with Connection: close', async () => {
    const server = await listening();
    const client = await rawClient(server.url);
    const before = await client.send('GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(before.status).toBe(200);
    const closing = server.close();
    const during = await client.send('GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(during.status).toBe(503);
    expect(during.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(during.body)).toMatchObject({ status: 503, code: 'shutting_down' });
    expect(during.headers.connection).toBe('close');
    await client.closed;
    await closing;
  });

  it('431 for headers over 16 KiB is problem+json (and in the OpenAPI document)', async () => {
    const server = await listening();
    const client = await rawClient(server.url);
    const res = await client.send(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.body)).toMatchObject({ status: 431, code: 'headers_too_large' });
    const doc = (await h.request({ method: 'GET', url: '/api/openapi.json' })).body;
    expect(doc.components.responses.RequestHeaderFieldsTooLarge.content['application/problem+json']).toBeDefined();
    expect(doc.components.responses.RequestTimeout.content['application/problem+json']).toBeDefined();
    expect(doc.paths['/api/v1/tenants/{tenantId}/bookings'].post.responses['431']).toEqual({
      $ref: '#/components/responses/RequestHeaderFieldsTooLarge',
    });
    expect(doc.paths['/api/devices/{deviceId}/access-log'].post.responses['431']).toEqual({
      $ref: '#/components/responses/RequestHeaderFieldsTooLarge',
    });
  });

  it('a compressed request body is 415 unsupported_content_encoding (problem+json on REST, a GraphQL error on GraphQL), not 400 malformed_json', async () => {
    const { tenantId, apiKey } = await h.tenant();
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await h.app.fastify.inject({
        method: 'POST',
        url: `/api/v1/tenants/${tenantId}/webhooks`,
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        payload: gzipSync(JSON.stringify({ url: 'https://example.com/hook' })),
      });
      expect(res.statusCode).toBe(415);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({ status: 415, code: 'unsupported_content_encoding' });
    }
    const graphql = await h.app.fastify.inject({
      method: 'POST',
      url: '/api/v1/graphql',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ query: '{ viewer { id } }' })),
    });
    expect(graphql.statusCode).toBe(415);
    expect(graphql.json().errors[0].extensions).toMatchObject({ reason: 'unsupported_content_encoding' });
    expect(graphql.json().errors[0].extensions.code).toBeTruthy();
  });

  it.each([
    ['a variable of the wrong type', 'query($id: ID!) { booking(id: $id) { id } }', { id: { nested: true } }],
    ['a missing required variable', 'query($id: ID!) { booking(id: $id) { id } }', {}],
    [
      'a string for an Int',
      'query($first: Int) { bookingsConnection(first: $first) { totalCount } }',
      { first: 'many' },
    ],
    [
      'an unknown enum value',
      'query($s: BookingStatus) { bookingsConnection(status: $s) { totalCount } }',
      { s: 'MAYBE' },
    ],
    ['a syntax error', '{ viewer { id ', {}],
    ['an unknown field', '{ viewer { nope } }', {}],
  ])('GraphQL errors carry extensions.code: %s', async (_name, query, variables) => {
    const { apiKey } = await h.tenant();
    const res = await h.graphql(apiKey, query, variables);
    expect(res.body.errors.length).toBeGreaterThan(0);
    for (const error of res.body.errors) expect(error.extensions?.code, JSON.stringify(error)).toMatch(/^[A-Z_]+$/);
    if (!/syntax|unknown field/.test(_name)) expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('#23 finding 10: a key lacking one field’s scope', () => {
  it('gets HTTP 200, the permitted fields’ data and FORBIDDEN at the forbidden field’s path', async () => {
    const { tenantId } = await h.tenant();
    const key = await h.key(tenantId, ['catalog:read']);
    const res = await h.graphql(key, '{ viewer { id } booking(id: "00000000-0000-4000-8000-000000000000") { id } }');
    expect(res.status).toBe(200);
    expect(res.body.data.viewer).toEqual({ id: tenantId });
    expect(res.body.data.booking).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({
      path: ['booking'],
      extensions: { code: 'FORBIDDEN', reason: 'missing_scope' },
    });
  });

  it('still gets 403 when it may read none of the fields asked for; REST keeps 403 missing_scope', async () => {
    const { tenantId } = await h.tenant();
    const key = await h.key(tenantId, ['catalog:read']);
    const res = await h.graphql(key, '{ booking(id: "00000000-0000-4000-8000-000000000000") { id } }');
    expect(res.status).toBe(403);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'missing_scope' });
    const rest = await h.request({ method: 'GET', url: `/api/v1/tenants/${tenantId}/bookings`, apiKey: key });
    expect(rest.status).toBe(403);
    expect(rest.body).toMatchObject({ code: 'missing_scope' });
  });
});
