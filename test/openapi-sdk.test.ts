import { afterAll, beforeAll, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { harness, type Harness } from './harness.js';
import { buildVenue } from './builders.js';
import { buildApp, type App } from '../src/transport/http/app.js';

// "OpenAPI for SDKs" (docs/openapi.md): a TypeScript client generated with openapi-typescript from
// the live server's /api/openapi.json, a small program written against its named types
// (components['schemas']['Booking'], …) and a typed fetch wrapper over `paths`, type-checked with
// the TypeScript compiler (no diagnostics) and then run against the same server.

let h: Harness;
let app: App;
let baseUrl: string;
let dir: string;

beforeAll(async () => {
  h = await harness();
  app = await buildApp(h.deps);
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = app.fastify.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening on TCP');
  baseUrl = `http://127.0.0.1:${address.port}`;
  dir = await mkdtemp(join(tmpdir(), 'portier-sdk-'));
});

afterAll(async () => {
  await app?.fastify.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The program a client developer would write: only generated types, no casts to any. */
const PROGRAM = `
import type { components, paths, webhooks } from './schema.js';

type Booking = components['schemas']['Booking'];
type BookingListItem = components['schemas']['BookingListItem'];
type Pagination = components['schemas']['Pagination'];
type Credentials = components['schemas']['BookingCredentials'];
type PricePreview = components['schemas']['PricePreview'];
type Webhook = components['schemas']['Webhook'];
type Problem = components['schemas']['Problem'];
type CreateBookingRequest = components['schemas']['CreateBookingRequest'];
type CreateWebhookRequest = components['schemas']['CreateWebhookRequest'];

declare const process: { argv: string[] };

// The receiving side of webhooks is typed too (the document's webhooks section).
type Rescheduled = components['schemas']['BookingRescheduledEvent'];
type RescheduledBody = NonNullable<webhooks['booking.rescheduled']['post']['requestBody']>['content']['application/json'];
export function movedFrom(event: RescheduledBody): [Rescheduled['type'], string, number] {
  return [event.type, event.data.previous.startTime, event.data.sequence];
}

// A tiny typed fetch wrapper over the generated paths.
type Method = 'get' | 'post' | 'patch';
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonOf<R> = R extends { content: { 'application/json': infer T } } ? T : never;
type Success<O> = O extends { responses: infer R } ? JsonOf<R[Extract<keyof R, 200 | 201 | 202>]> : never;
type BodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type PathOf<O> = O extends { parameters: { path: infer T } } ? T : never;
type QueryOf<O> = O extends { parameters: { query?: infer T } } ? T : never;

async function api<P extends keyof paths, M extends Method>(
  method: M,
  path: P,
  init: { path?: PathOf<Op<P, M>>; query?: QueryOf<Op<P, M>>; body?: BodyOf<Op<P, M>> },
): Promise<Success<Op<P, M>>> {
  const [base, key] = process.argv.slice(2);
  let url = String(path);
  for (const [name, value] of Object.entries((init.path ?? {}) as Record<string, string>)) url = url.replace('{' + name + '}', encodeURIComponent(value));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries((init.query ?? {}) as Record<string, unknown>)) if (value != null) query.set(name, String(value));
  const res = await fetch(base + url + (query.size ? '?' + query : ''), {
    method: method.toUpperCase(),
    headers: { authorization: 'Bearer ' + key, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  if (!res.ok) {
    const problem = (await res.json()) as Problem;
    throw new Error(method + ' ' + url + ': ' + problem.status + ' ' + problem.code + ' ' + problem.detail);
  }
  return (await res.json()) as Success<Op<P, M>>;
}

async function main() {
  const [, , tenantId, objectId, startTime, endTime] = process.argv.slice(2);

  const list = await api('get', '/api/v1/tenants/{tenantId}/bookings', { path: { tenantId }, query: { page: 1, pageSize: 10 } });
  const items: BookingListItem[] = list.bookings;
  const pagination: Pagination = list.pagination;

  const request: CreateBookingRequest = { objectId, guestName: 'Ada Lovelace', guestEmail: 'ada@example.com', startTime, endTime };
  const created = await api('post', '/api/v1/tenants/{tenantId}/bookings', { path: { tenantId }, body: request });
  const booking: Booking = created.booking;

  const fetched = await api('get', '/api/v1/tenants/{tenantId}/bookings/{bookingId}', { path: { tenantId, bookingId: booking.id } });
  const confirmed = await api('patch', '/api/v1/tenants/{tenantId}/bookings/{bookingId}', { path: { tenantId, bookingId: booking.id }, body: { status: 'CONFIRMED' } });
  const status: Booking['status'] = confirmed.booking.status;
  // @ts-expect-error: the status is a closed set
  const wrong: Booking['status'] = 'BOGUS';

  const credentials: Credentials = await api('get', '/api/v1/tenants/{tenantId}/bookings/{bookingId}/credentials', { path: { tenantId, bookingId: booking.id } });
  const preview: PricePreview = await api('post', '/api/pricing/preview', { body: { objectId, startTime, endTime } });

  // The wrapper's answers are the generated types, not never or any.
  type Typed<T> = [T] extends [never] ? false : 0 extends 1 & T ? false : true;
  const typed: [Typed<typeof list>, Typed<typeof created>, Typed<typeof fetched>, Typed<typeof confirmed>] = [true, true, true, true];
  // @ts-expect-error: Booking has no such field
  void booking.noSuchField;

  const hook: CreateWebhookRequest = { url: 'https://hooks.example.com/portier', events: ['booking.created', 'booking.rescheduled'], secret: 'a-secret-of-sixteen-chars' };
  const webhook: Webhook = (await api('post', '/api/v1/tenants/{tenantId}/webhooks', { path: { tenantId }, body: hook })).webhook;

  console.log(JSON.stringify({
    listed: items.length,
    total: pagination.total,
    createdStatus: booking.status,
    fetchedId: fetched.booking.id,
    status,
    wrong,
    typed,
    validFrom: credentials.validFrom,
    qr: typeof credentials.qrCode?.token,
    totalPrice: preview.totalPrice,
    currency: preview.currency,
    webhook: { active: webhook.active, events: webhook.events, url: webhook.url },
  }));
}

void main();
`;

it('generates a TypeScript client from /api/openapi.json whose named types type-check and run against the server', async () => {
  const res = await fetch(`${baseUrl}/api/openapi.json`);
  expect(res.status).toBe(200);
  const document = (await res.json()) as Record<string, unknown>;
  const generated = astToString(await openapiTS(document as never));
  for (const name of [
    'Booking',
    'BookingListItem',
    'Pagination',
    'BookingCredentials',
    'PricePreview',
    'Webhook',
    'Problem',
    'CreateBookingRequest',
  ]) {
    expect(generated, `components.schemas.${name}`).toMatch(new RegExp(`\\n\\s+${name}: `));
  }
  await writeFile(join(dir, 'schema.ts'), generated);
  await writeFile(join(dir, 'client.ts'), PROGRAM);

  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    skipLibCheck: false,
  };
  const program = ts.createProgram([join(dir, 'client.ts')], options);
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
    const where =
      d.file && d.start !== undefined
        ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} `
        : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
  expect(diagnostics).toEqual([]);

  // Run it: the same source, transpiled (types erased), against the live server.
  const { tenantId, apiKey, object } = await buildVenue(h);
  const day = new Date(Date.now() + 14 * 86_400_000);
  const startTime = `${day.toISOString().slice(0, 10)}T10:00:00Z`;
  const endTime = `${day.toISOString().slice(0, 10)}T11:00:00Z`;
  const js = ts.transpileModule(PROGRAM, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  }).outputText;
  await writeFile(join(dir, 'client.mjs'), js);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(dir, 'client.mjs'), baseUrl, apiKey, tenantId, object.id, startTime, endTime],
    { timeout: 60_000 },
  );
  const result = JSON.parse(stdout.trim()) as Record<string, unknown>;
  expect(result).toMatchObject({
    listed: 0,
    total: 0,
    createdStatus: 'PENDING',
    status: 'CONFIRMED',
    wrong: 'BOGUS',
    qr: 'string',
    currency: 'EUR',
    webhook: {
      active: true,
      events: ['booking.created', 'booking.rescheduled'],
      url: 'https://hooks.example.com/portier',
    },
  });
  expect(typeof result.fetchedId).toBe('string');
  expect(result.totalPrice).toBe(2000);
  expect(typeof result.validFrom).toBe('string');
});
