import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import { harness, type Harness, type RequestOptions, type TestResponse } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildBooking, buildDevice, buildDoor, buildVenue, buildWebhook, slotInDays } from './builders.js';
import { operationsOf, type DocumentedOperation } from './openapi-helpers.js';
import type { OpenApiDocument } from '../src/transport/rest/openapi.js';

// Issue 12: a property-based fuzz test. Every operation of /api/openapi.json is called with
// generated valid and invalid inputs — hostile strings (NUL, lone surrogates, 10 kB, RTL marks),
// extreme numbers and dates, wrong types, deep nesting — and every answer must be: not a 5xx; a
// status and content type the document lists for the operation; a problem+json error body (naming a
// field when it is a 400); and a refused request changes none of the tenant's data.
// Seeded and bounded: the same inputs every run, a fixed number of requests.

const SEED = 20_261_123;
const RUNS_PER_OPERATION = 14;

/**
 * Every documented operation but the streams (the devices' command channel): an accepted request
 * never ends there; test/e2e/device-channel.processes.test.ts covers it.
 */
const fuzzed = () =>
  operationsOf(document).filter(
    (op) =>
      !Object.values(op.operation.responses).some((r) =>
        Object.keys((r as { content?: Record<string, unknown> }).content ?? {}).includes('text/event-stream'),
      ),
  );

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Schema {
  type?: string | string[];
  enum?: Json[];
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  minimum?: number;
  maximum?: number;
  $ref?: string;
  oneOf?: Schema[];
  anyOf?: Schema[];
}

let h: Harness;
let app: OwnApp;
let document: OpenApiDocument;
let tenantId: string;
let apiKey: string;
let deviceKey: string;
/** Real ids of the fuzzed tenant's resources, by the names parameters and fields give them. */
const ids: Record<string, string> = {};

beforeAll(async () => {
  h = await harness();
  // Load shedding is not under test: on a busy machine it would answer 503 (a 5xx) at random.
  app = await ownApp(h, { options: { loadShedding: { maxEventLoopDelay: 0 } } });
  document = (await app.request({ method: 'GET', url: '/api/openapi.json' })).body as OpenApiDocument;
  const venue = await buildVenue(h);
  ({ tenantId, apiKey } = venue);
  const door = await buildDoor(h, tenantId, [venue.object.id]);
  const { activationCode } = await buildDevice(h, tenantId, [door.id]);
  const activated = await app.request({
    method: 'POST',
    url: '/api/devices/activate',
    body: { activation_code: activationCode, serial: 'SN', firmware_version: '1' },
  });
  deviceKey = activated.body.device_key as string;
  const slot = slotInDays(5);
  const booking = await buildBooking(h, tenantId, venue.object.id, {
    start: slot.startTime,
    end: slot.endTime,
    status: 'CONFIRMED',
  });
  const webhook = await buildWebhook(h, tenantId, { url: 'http://127.0.0.1:9/hook' });
  Object.assign(ids, {
    tenantId,
    objectId: venue.object.id,
    accommodationId: venue.accommodation.id,
    doorId: door.id,
    deviceId: activated.body.device_id as string,
    bookingId: booking.id,
    webhookId: webhook.id,
  });
});
afterAll(async () => {
  await app?.close();
});

// ---- generators ----------------------------------------------------------------------------

const HOSTILE_STRINGS = [
  'A\u0000B',
  '\u0000',
  '\ud800',
  'x\udfffy',
  '\u202eevil\u202c',
  '\u200f\u061c\u2067',
  'x'.repeat(10_240),
  '',
  ' ',
  '0000-01-01',
  '0000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '2026-02-30',
  '2026-11-23T25:61:00Z',
  '%00',
  "' OR 1=1 --",
  '__proto__',
  'constructor',
  '{"a":1}',
  '1e309',
];
const EXTREME_NUMBERS = [0, -1, 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, -(2 ** 53), 1e308, -1e308, 1e-300];

const hostileString = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ unit: 'binary', maxLength: 40 }));

/** Arrays nested `depth` levels deep (beyond the guard's 32, or within it). */
const nested = (depth: number): Json => {
  let value: Json = 'x';
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
};

const wrongType: fc.Arbitrary<Json> = fc.constantFrom<Json>(
  null,
  true,
  false,
  [],
  {},
  [1, 'a'],
  { a: { b: 'c' } },
  nested(40),
  nested(20),
  -0,
);

const hostile: fc.Arbitrary<Json> = fc.oneof(hostileString, fc.constantFrom(...EXTREME_NUMBERS), wrongType);

function resolve(schema: Schema | undefined): Schema {
  let s = schema ?? {};
  while (s.$ref) {
    const name = s.$ref.split('/').pop() ?? '';
    s = (document.components?.schemas as Record<string, Schema> | undefined)?.[name] ?? {};
  }
  return s;
}

const typesOf = (s: Schema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** A value the schema accepts (ids of the tenant's own resources where a field names one). */
function valid(name: string, schema: Schema | undefined, depth = 0): fc.Arbitrary<Json> {
  const s = resolve(schema);
  if (ids[name]) return fc.constant(ids[name]);
  if (/Ids$/.test(name) && ids[name.replace(/s$/, '')]) return fc.constant([ids[name.replace(/s$/, '')]]);
  if (s.enum?.length) return fc.constantFrom(...s.enum.filter((v) => v !== null));
  const types = typesOf(s).filter((t) => t !== 'null');
  const type = types[0];
  if (s.format === 'date-time' || /Time$|^from$|^to$|^since$|^before$/.test(name)) {
    return fc.integer({ min: 1, max: 60 }).map((d) => slotInDays(d).startTime);
  }
  if (name === 'date') return fc.integer({ min: 1, max: 60 }).map((d) => slotInDays(d).startTime.slice(0, 10));
  if (/email/i.test(name) || s.format === 'email') return fc.constant('guest@example.com');
  if (/url$/i.test(name)) return fc.constant('https://example.com/hook');
  if (type === 'integer' || type === 'number')
    return fc.integer({ min: s.minimum ?? 0, max: Math.min(s.maximum ?? 100, 100_000) });
  if (type === 'boolean') return fc.boolean();
  if (type === 'array')
    return depth > 3 ? fc.constant([]) : fc.array(valid(name.replace(/s$/, ''), s.items, depth + 1), { maxLength: 2 });
  if (type === 'object' || s.properties) {
    if (depth > 3) return fc.constant({});
    const props = Object.entries(s.properties ?? {});
    const required = new Set(s.required ?? []);
    return fc.record(Object.fromEntries(props.map(([k, p]) => [k, valid(k, p, depth + 1)])), {
      requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)),
    });
  }
  return fc.string({ minLength: 1, maxLength: 20 });
}

/** Mostly valid, sometimes hostile: each field independently. */
function field(name: string, schema: Schema | undefined, depth = 0): fc.Arbitrary<Json> {
  const s = resolve(schema);
  if ((typesOf(s).includes('object') || s.properties) && depth < 3) {
    const props = Object.entries(s.properties ?? {});
    const record = fc.record(Object.fromEntries(props.map(([k, p]) => [k, field(k, p, depth + 1)])), {
      requiredKeys: [],
    });
    // An unknown key, hostile itself, now and then.
    const extra = fc.tuple(record, hostileString, hostile).map(([r, k, v]) => ({ ...r, [k]: v }) as Json);
    return fc.oneof(
      { weight: 6, arbitrary: record as fc.Arbitrary<Json> },
      { weight: 1, arbitrary: extra },
      { weight: 1, arbitrary: hostile },
    );
  }
  return fc.oneof({ weight: 3, arbitrary: valid(name, s, depth) }, { weight: 1, arbitrary: hostile });
}

interface Generated {
  path: Record<string, string>;
  query: Record<string, Json>;
  body: Json | undefined;
}

function requestArbitrary(op: DocumentedOperation): fc.Arbitrary<Generated> {
  const params = (op.operation.parameters ?? []) as { name: string; in: string; schema?: Schema; required?: boolean }[];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const pathArb = fc.record(
    Object.fromEntries(
      pathParams.map((p) => [
        p.name,
        fc.oneof(
          { weight: 4, arbitrary: fc.constant(ids[p.name] ?? crypto.randomUUID()) },
          { weight: 1, arbitrary: hostileString.map(String) },
        ),
      ]),
    ),
  );
  const queryArb = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, field(p.name, p.schema)])), {
    requiredKeys: [],
  });
  const bodySchema = (op.operation.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)
    ?.content?.['application/json']?.schema;
  const bodyArb = bodySchema ? field('body', bodySchema).map((b) => b as Json | undefined) : fc.constant(undefined);
  return fc.record({ path: pathArb, query: queryArb as fc.Arbitrary<Record<string, Json>>, body: bodyArb });
}

/** Percent-encoding that also sends lone surrogates, as the bytes a careless encoder produces (CESU-8). */
function encode(text: string): string {
  return text.replace(/[\s\S]/gu, (ch) => {
    try {
      return encodeURIComponent(ch);
    } catch {
      const u = ch.charCodeAt(0);
      return [0xed, 0xa0 | ((u >> 6) & 0x0f), 0x80 | (u & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    }
  });
}

function toRequest(op: DocumentedOperation, g: Generated): RequestOptions {
  const url = op.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encode(g.path[name] ?? ''));
  const query = Object.entries(g.query)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${encode(k)}=${encode(typeof v === 'string' ? v : JSON.stringify(v))}`)
    .join('&');
  const security = (op.operation.security ?? []) as Record<string, unknown>[];
  const key = security.some((s) => 'deviceKey' in s)
    ? deviceKey
    : security.some((s) => 'apiKey' in s)
      ? apiKey
      : undefined;
  return {
    method: op.method as RequestOptions['method'],
    url: query ? `${url}?${query}` : url,
    apiKey: key,
    body: g.body === undefined ? undefined : JSON.stringify(g.body),
    ...(g.body === undefined ? {} : { headers: { 'content-type': 'application/json' } }),
  };
}

// ---- checks --------------------------------------------------------------------------------

const VOLATILE = ['last_heartbeat_at', 'telemetry', 'last_used_at', 'updated_at'];

/** Everything the fuzzed tenant owns, as one text (columns that reads and heartbeats touch left out). */
async function fingerprint(): Promise<string> {
  const tables = [
    'accommodations',
    'objects',
    'special_dates',
    'doors',
    'bookings',
    'pricing_rules',
    'cancellation_policies',
    'webhooks',
    'devices',
    'device_commands',
    'api_keys',
  ];
  const drop = VOLATILE.map((c) => `- '${c}'`).join(' ');
  const row = `(to_jsonb(x) ${drop})::text`;
  const parts = tables.map(
    (t) => `(select coalesce(string_agg(${row}, ',' order by ${row}), '') from ${t} x where x.tenant_id = $1)`,
  );
  const query = `select ${parts.join(" || '|' || ")} as f`;
  const result = await sql<{ f: string }>`${sql.raw(query.replaceAll('$1', `'${tenantId}'`))}`.execute(
    h.deps.database.db,
  );
  return result.rows[0]?.f ?? '';
}

function documented(op: DocumentedOperation, status: number): { contentTypes: string[] } | undefined {
  const responses = (op.operation.responses ?? {}) as Record<
    string,
    { $ref?: string; content?: Record<string, unknown> }
  >;
  let response = responses[String(status)] ?? responses.default;
  if (!response) return undefined;
  if (response.$ref)
    response = (document.components?.responses as Record<string, { content?: Record<string, unknown> }>)[
      response.$ref.split('/').pop() ?? ''
    ];
  return { contentTypes: Object.keys(response?.content ?? {}) };
}

const isGraphQL = (op: DocumentedOperation) => op.url === '/api/v1/graphql';

/**
 * The API's routes answer errors as problem+json. Pages (the payment page, the dashboard's HTML,
 * OAuth's sign-in and consent pages) answer HTML, and OAuth's endpoints RFC 6749 error JSON: for
 * those only the documented status and content type are checked.
 */
const speaksProblemJson = (op: DocumentedOperation) =>
  !isGraphQL(op) && (op.url.startsWith('/api/') || op.url.startsWith('/dashboard/api/'));

function check(op: DocumentedOperation, req: RequestOptions, res: TestResponse): void {
  const what = `${req.method} ${req.url.slice(0, 200)} body ${String(req.body).slice(0, 200)} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, what).toBeLessThan(500);
  const doc = documented(op, res.status);
  expect(doc, `status ${res.status} is not documented: ${what}`).toBeDefined();
  const type = String(res.headers['content-type'] ?? '').split(';')[0];
  // Input refused where it enters (the JSON body parser, the query and path guard) is problem+json
  // naming the field on every route, pages included: the route's own handler never ran.
  const refusedAtEntry =
    res.status === 400 &&
    type === 'application/problem+json' &&
    ((res.body?.errors ?? []) as { field?: string }[]).some((e) => e.field);
  if (doc?.contentTypes.length && !refusedAtEntry)
    expect(doc.contentTypes, `content type ${type}: ${what}`).toContain(type);
  if (res.status >= 400 && speaksProblemJson(op)) {
    expect(type, what).toBe('application/problem+json');
    expect(res.body.status, what).toBe(res.status);
    expect(typeof res.body.code, what).toBe('string');
    if (res.status === 400) {
      const fields = ((res.body.errors ?? []) as { field?: string }[]).map((e) => e.field).filter(Boolean);
      expect(fields.length, `a 400 must name a field: ${what}`).toBeGreaterThan(0);
    }
  }
  if (isGraphQL(op) && res.status >= 400) {
    const codes = ((res.body.errors ?? []) as { extensions?: { code?: string } }[]).map((e) => e.extensions?.code);
    expect(codes.length, what).toBeGreaterThan(0);
    expect(codes, what).not.toContain('INTERNAL_SERVER_ERROR');
  }
}

// ---- the walk ------------------------------------------------------------------------------

/** GraphQL gets documents of its own: every root field's shape is covered by the REST walk and the security sweep. */
const GRAPHQL_DOCUMENTS = [
  'query($t: ID, $s: BookingStatus, $f: Int) { bookings(tenantId: $t, status: $s, first: $f) { id guestName } }',
  'mutation($t: ID, $n: String!) { createAccommodation(tenantId: $t, name: $n, address: $n, timeZone: $n) { id } }',
  'query($t: ID, $o: ID!, $s: DateTime!, $e: DateTime!) { priceQuote(tenantId: $t, objectId: $o, startTime: $s, endTime: $e) { totalPrice } }',
  'subscription { __typename }',
  '{ __typename }',
];

function graphqlArbitrary(op: DocumentedOperation): fc.Arbitrary<RequestOptions> {
  const variables = fc.record(
    {
      t: fc.oneof(fc.constant<Json>(tenantId), hostile),
      s: fc.oneof(fc.constantFrom<Json>('PENDING', 'CONFIRMD', slotInDays(2).startTime), hostile),
      f: fc.oneof(fc.integer({ min: 1, max: 50 }), hostile),
      n: fc.oneof(fc.constant<Json>('Court'), hostile),
      o: fc.oneof(fc.constant<Json>(ids.objectId), hostile),
      e: fc.oneof(fc.constant<Json>(slotInDays(2).endTime), hostile),
    },
    { requiredKeys: [] },
  );
  return fc
    .tuple(
      fc.constantFrom(...GRAPHQL_DOCUMENTS),
      variables,
      fc.oneof({ weight: 4, arbitrary: fc.constant<Json | undefined>(undefined) }, { weight: 1, arbitrary: hostile }),
    )
    .map(([query, vars, extensions]) => {
      if (op.method === 'GET') {
        const read = query.startsWith('mutation') ? '{ __typename }' : query;
        const params = [`query=${encode(read)}`, `variables=${encode(JSON.stringify(vars))}`];
        if (extensions !== undefined)
          params.push(`extensions=${encode(typeof extensions === 'string' ? extensions : JSON.stringify(extensions))}`);
        return { method: 'GET', url: `${op.url}?${params.join('&')}`, apiKey };
      }
      return {
        method: 'POST',
        url: op.url,
        apiKey,
        body: JSON.stringify({ query, variables: vars, ...(extensions === undefined ? {} : { extensions }) }),
        headers: { 'content-type': 'application/json' },
      };
    });
}

describe('fuzz: every documented operation, seeded and bounded', () => {
  it('walks the document', () => {
    expect(operationsOf(document).length).toBeGreaterThan(20);
  });

  it('answers every generated request as documented, and refusals change nothing', async () => {
    let before = await fingerprint();
    let requests = 0;
    for (const op of fuzzed()) {
      const arbitrary = isGraphQL(op) ? graphqlArbitrary(op) : requestArbitrary(op).map((g) => toRequest(op, g));
      await fc.assert(
        fc.asyncProperty(arbitrary, async (req) => {
          requests += 1;
          const res = await app.request(req);
          check(op, req, res);
          const after = await fingerprint();
          if (res.status >= 400)
            expect(
              after,
              `refused, yet data changed: ${req.method} ${req.url.slice(0, 200)} ${String(req.body).slice(0, 200)} → ${res.status}`,
            ).toBe(before);
          before = after;
        }),
        { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
      );
    }
    expect(requests).toBeGreaterThan(fuzzed().length * RUNS_PER_OPERATION * 0.9);
  }, 240_000);
});
