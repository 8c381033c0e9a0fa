import { afterAll, beforeAll, expect, it } from 'vitest';
import { serverAudits } from 'graphql-http';
import { harness } from './harness.js';
import { buildApp, type App } from '../src/transport/http/app.js';
import { GRAPHQL_PATH } from '../src/transport/graphql/yoga.js';

// graphql-http's audits of the GraphQL-over-HTTP spec, run against a second app built on the
// harness's dependencies and listening on a random port (the harness app only takes inject()).
let app: App;
let url: string;
let apiKey: string;

beforeAll(async () => {
  const h = await harness();
  apiKey = (await h.tenant('Audits')).apiKey;
  app = await buildApp(h.deps);
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = app.fastify.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening on TCP');
  url = `http://127.0.0.1:${address.port}${GRAPHQL_PATH}`;
});

afterAll(async () => {
  await app?.fastify.close();
});

const withKey: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('authorization', `Bearer ${apiKey}`);
  return fetch(input, { ...init, headers });
};

it('passes every graphql-http server audit', async () => {
  const audits = serverAudits({ url: () => url, fetchFn: withKey });
  expect(audits.length).toBeGreaterThan(20);
  const failed: string[] = [];
  for (const audit of audits) {
    const result = await audit.fn();
    if (result.status !== 'ok') failed.push(`${result.status}: ${result.name}: ${result.reason}`);
  }
  expect(failed).toEqual([]);
});

it('answers the audits’ requests with 401 when no key is sent', async () => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ __typename }' }),
  });
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe('Bearer realm="portier"');
});
