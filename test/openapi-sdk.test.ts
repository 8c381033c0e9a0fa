import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { harness, type Harness } from './harness.js';
import { buildVenue } from './builders.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildUser, OWN_ORIGIN } from './dashboard.js';
import { authorizeUrl, CookieJar, injectHttp, pkce, runAuthorization } from './oauth-flow.js';
import { createApp } from '../src/modules/oauth/apps.service.js';
import { parseCreateApp } from '../src/modules/oauth/apps.commands.js';
import type { App } from '../src/transport/http/app.js';

// "OpenAPI for SDKs" (docs/openapi.md): TypeScript clients generated from the live server's
// /api/openapi.json. First openapi-typescript's named types (components['schemas']['Booking'], …)
// under a typed fetch wrapper over `paths`; then the clients of three generators —
// openapi-typescript + openapi-fetch, @hey-api/openapi-ts (fetch client) and orval (fetch client) —
// each with an integrator's program from test/sdk/<generator>/program.ts that calls only the
// generated operations. Each program is type-checked with `tsc --strict` and run against the server.

let h: Harness;
let own: OwnApp;
let app: App;
let baseUrl: string;
let dir: string;
let served: Record<string, unknown>;

beforeAll(async () => {
  h = await harness();
  // Argon2 sign-ins (the OAuth flows below) on a busy machine must not trip load shedding (503).
  own = await ownApp(h, { options: { loadShedding: { maxEventLoopDelay: 600_000 } } });
  app = own.app;
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = app.fastify.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening on TCP');
  baseUrl = `http://127.0.0.1:${address.port}`;
  dir = await mkdtemp(join(tmpdir(), 'portier-sdk-'));
  const res = await fetch(`${baseUrl}/api/openapi.json`);
  expect(res.status).toBe(200);
  served = (await res.json()) as Record<string, unknown>;
});

afterAll(async () => {
  await own?.close();
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
  const generated = astToString(await openapiTS(served as never));
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

describe('the SDKs of three generators', () => {
  const ROOT = fileURLToPath(new URL('..', import.meta.url));
  const GENERATORS = ['openapi-fetch', 'hey-api', 'orval'] as const;
  type Generator = (typeof GENERATORS)[number];
  const REDIRECT = 'https://app.example.test/callback';
  const SCOPE = 'bookings:read';
  /** Each program books its own hour of the same day on the same court. */
  const HOUR: Record<Generator, number> = { 'openapi-fetch': 10, 'hey-api': 12, orval: 14 };

  // Under node_modules so that the programs and the generated code resolve openapi-fetch and tsx from
  // the project; a package.json of its own makes them ES modules (top-level await).
  let work: string;
  let venue: Awaited<ReturnType<typeof buildVenue>>;
  /** The venue's sandbox (test mode), with a svc_test_ key and an object of its own. */
  let sandbox: Awaited<ReturnType<typeof buildVenue>>;
  let oauth: { clientId: string; clientSecret: string; email: string; password: string };
  const jar = new CookieJar();

  /** Runs a command to its end without throwing, so a failure shows its output in the assertion. */
  function run(file: string, args: string[], cwd = ROOT, timeout = 300_000) {
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(file, args, { cwd, timeout, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
      );
    });
  }
  const bin = (path: string) => join(ROOT, 'node_modules', path);
  const gen = (generator: Generator, ...rest: string[]) => join(work, generator, ...rest);

  beforeAll(async () => {
    await mkdir(join(ROOT, 'node_modules', '.cache'), { recursive: true });
    work = await mkdtemp(join(ROOT, 'node_modules', '.cache', 'portier-sdk-'));
    await writeFile(join(work, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    await writeFile(join(work, 'openapi.json'), JSON.stringify(served));
    for (const generator of GENERATORS) {
      await mkdir(gen(generator, 'generated'), { recursive: true });
      await copyFile(join(ROOT, 'test/sdk', generator, 'program.ts'), gen(generator, 'program.ts'));
    }
    await copyFile(join(ROOT, 'test/sdk/orval/fetch.ts'), gen('orval', 'fetch.ts'));
    // orval takes its mutator (the fetch that adds the base URL and credential) from a config file.
    await writeFile(
      join(work, 'orval.config.cjs'),
      `module.exports = ${JSON.stringify({
        portier: {
          input: { target: join(work, 'openapi.json') },
          output: {
            target: gen('orval', 'generated', 'portier.ts'),
            client: 'fetch',
            mode: 'single',
            override: { mutator: { path: gen('orval', 'fetch.ts'), name: 'portierFetch' } },
          },
        },
      })};\n`,
    );

    // The generators, offline from node_modules: openapi-typescript in process, the others' CLIs.
    const [heyApi, orval] = await Promise.all([
      run(process.execPath, [
        bin('@hey-api/openapi-ts/bin/run.js'),
        ...['--input', join(work, 'openapi.json'), '--output', gen('hey-api', 'generated')],
        ...['--client', '@hey-api/client-fetch', '--silent', '--no-log-file'],
      ]),
      run(process.execPath, [bin('orval/dist/bin/orval.js'), '--config', join(work, 'orval.config.cjs')]),
      writeFile(gen('openapi-fetch', 'generated', 'schema.ts'), astToString(await openapiTS(served as never))),
    ]);
    expect(heyApi, '@hey-api/openapi-ts').toMatchObject({ code: 0 });
    expect(orval, 'orval').toMatchObject({ code: 0 });

    venue = await buildVenue(h);
    const testKey = await h.graphql(
      venue.apiKey,
      'mutation { createApiKey(name: "SDK test mode", scopes: ["bookings:read", "bookings:write"], livemode: false) { apiKey } }',
    );
    expect(testKey.body.errors).toBeUndefined();
    const apiKey = testKey.body.data.createApiKey.apiKey as string;
    const viewer = await h.graphql(apiKey, '{ viewer { id } }');
    sandbox = await buildVenue(h, { tenant: { tenantId: viewer.body.data.viewer.id as string, apiKey } });
    const owner = await h.tenant('SDK app maker');
    const { app: client, clientSecret } = await createApp(h.deps.database.db, {
      tenantId: owner.tenantId,
      ...parseCreateApp({ name: 'SDK sync', redirectUris: [REDIRECT], scopes: [SCOPE] }),
    });
    const user = await buildUser(h, venue.tenantId, 'admin');
    oauth = { clientId: client.client_id, clientSecret: clientSecret ?? '', ...user };
  }, 600_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('type-checks the three programs with their generated clients under tsc --strict', async () => {
    // Bundler resolution: orval imports its mutator without an extension ('../fetch').
    await writeFile(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          skipLibCheck: true,
        },
        files: GENERATORS.map((generator) => gen(generator, 'program.ts')),
      }),
    );
    const tsc = await run(process.execPath, [bin('typescript/bin/tsc'), '-p', join(work, 'tsconfig.json')]);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
  }, 600_000);

  it.each(GENERATORS)(
    '%s: the program books a slot by its instants, walks the day by cursor, books with a test-mode key, creates, confirms and cancels a booking and exchanges an authorization code for a token',
    async (generator) => {
      const { verifier, challenge } = pkce();
      const flow = await runAuthorization(injectHttp(app.fastify), {
        url: authorizeUrl({
          clientId: oauth.clientId,
          redirectUri: REDIRECT,
          scope: SCOPE,
          state: generator,
          challenge,
        }),
        origin: OWN_ORIGIN,
        email: oauth.email,
        password: oauth.password,
        jar,
      });
      const code = flow.redirect?.searchParams.get('code');
      expect(code, `authorization: ${flow.last.status} ${flow.pages.join(',')}`).toBeTruthy();

      const day = new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10);
      const hour = HOUR[generator];
      const input = {
        baseUrl,
        apiKey: venue.apiKey,
        tenantId: venue.tenantId,
        objectId: venue.object.id,
        startTime: `${day}T${hour}:00:00Z`,
        endTime: `${day}T${hour + 1}:00:00Z`,
        oauth: { clientId: oauth.clientId, clientSecret: oauth.clientSecret, code, verifier, redirectUri: REDIRECT },
        test: { apiKey: sandbox.apiKey, tenantId: sandbox.tenantId, objectId: sandbox.object.id },
      };
      const program = await run(process.execPath, [
        '--import',
        'tsx',
        gen(generator, 'program.ts'),
        JSON.stringify(input),
      ]);
      expect(program.stderr).toBe('');
      expect(program.code).toBe(0);
      expect(JSON.parse(program.stdout.trim())).toEqual({
        statuses: ['PENDING', 'PENDING', 'CONFIRMED', 'CONFIRMED', 'CANCELLED', 'CANCELLED'],
        version: '2026-12-03',
        // The slot at hour:00 UTC seen in New York: hour − 5 in winter, hour − 4 in summer.
        slot: { callerTimeZone: 'America/New_York', localStart: expect.stringMatching(/^\d\d:00:00-0[45]:00$/) },
        pagedOnce: true,
        // The same create with the sandbox's svc_test_ key: a test-mode booking the live key cannot read.
        modes: { live: true, test: false, liveKeyReadsTest: 404 },
        refundAmount: 2000,
        token: { type: 'Bearer', scope: SCOPE, expiresIn: 3600, refresh: true },
        readWithToken: 'CANCELLED',
      });
    },
    300_000,
  );
});
