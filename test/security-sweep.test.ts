import { MODULES } from '../src/app/modules.js';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { getDirectiveExtensions } from '@graphql-tools/utils';
import { harness, type Harness, type TestResponse } from './harness.js';
import { buildActiveDevice, buildDoor, buildVenue } from './builders.js';
import { exampleOf, operationsOf, type DocumentedOperation } from './openapi-helpers.js';
import type { OpenApiDocument } from '../src/transport/rest/openapi.js';
import { buildSchema, publicSchemaOf } from '../src/transport/graphql/schema.js';
import { SCOPES } from '../src/kernel/auth/scopes.js';
import { GRAPHQL_PATH } from '../src/transport/graphql/yoga.js';
import { DASHBOARD_PAGES } from '../src/transport/http/dashboard.js';

// Every route in the OpenAPI document (so every route the server serves) is called with another
// tenant's key, with a key lacking the route's scope and without a credential; each must refuse.
// A new route is swept as soon as it is registered: it cannot ship without its checks.

/** Routes anyone may call. A new public route must be added here on purpose. */
const PUBLIC_ROUTES = [
  'GET /pay/:token/done', // the guest's return from Stripe Checkout (the token is the credential)
  'GET /pay/:token/cancelled',
  'POST /api/payments/stripe/webhook', // Stripe's events: the Stripe-Signature header is the credential
  'POST /api/payments/stripe/webhook/:tenantId', // the same for a venue's own Stripe keys: the signature is the credential
  'GET /healthz',
  'GET /readyz',
  'GET /api/openapi.json',
  'GET /api/docs',
  'GET /api/docs/scalar.js', // the API reference's renderer (Scalar's standalone bundle)
  'POST /api/devices/activate',
  'GET /pay/:token',
  // The public booking page: the slug names the venue; only an enabled page and published objects show.
  'GET /book/:slug',
  'GET /book/:slug/choice',
  'POST /book/:slug',
  'GET /book/assets/page.css',
  'GET /book/assets/page.js',
  'GET /widget.js',
  // The guest's manage page: the link's token is the credential (test/guest-manage.test.ts).
  'GET /b/:token',
  'GET /b/:token/calendar.ics',
  'GET /b/:token/receipt',
  'GET /b/:token/cancel',
  'POST /b/:token/cancel',
  'GET /b/:token/reschedule',
  'POST /b/:token/reschedule',
  // The dashboard's sessions: sign-in takes an email and password; the others act on the session
  // cookie (and its CSRF token), never on an API key (test/dashboard-sessions.test.ts).
  'POST /dashboard/api/session',
  'GET /dashboard/api/session',
  'DELETE /dashboard/api/session',
  'POST /dashboard/api/session/revoke-all',
  'GET /dashboard/api/session/sessions',
  'DELETE /dashboard/api/session/sessions/:sessionId',
  // Staff accounts (issue #43): "forgot password" and invitation links. Each acts only on a mailed
  // link's single-use token (or mails one, answering alike for every email), refused from a foreign
  // Origin (test/staff-accounts.test.ts).
  'POST /dashboard/api/password-reset',
  'POST /dashboard/api/password-reset/confirm',
  'POST /dashboard/api/invitation',
  'POST /dashboard/api/invitation/accept',
  // The server root: a browser is redirected to the dashboard, anything else gets the JSON 404.
  'GET /',
  // The dashboard's pages and built files: public; the data they show comes through GraphQL.
  ...DASHBOARD_PAGES.map((p) => `GET /dashboard${p.path}`),
  'GET /dashboard/assets/:file',
  'GET /dashboard/favicon.svg',
  // The GraphQL explorer's scripts, styles and workers (GraphiQL); its queries need a key.
  'GET /api/explorer/:file',
  // OAuth: the protocol's endpoints authenticate the app (client secret, PKCE) or the user
  // (sign-in form, CSRF token), never an API key (test/oauth.test.ts).
  'GET /.well-known/oauth-authorization-server',
  'GET /oauth/authorize',
  'GET /oauth/authorize/:uid',
  'GET /oauth/jwks',
  'POST /oauth/token',
  'POST /oauth/revoke',
  'GET /oauth/interaction/:uid',
  'POST /oauth/interaction/:uid/sign-in',
  'POST /oauth/interaction/:uid/decision',
];

let h: Harness;
let document: OpenApiDocument;
let attacker: { tenantId: string; apiKey: string };
let victim: { tenantId: string; apiKey: string; deviceKey: string; ids: Record<string, string> };
/** Device keys that are valid, but for other devices than the victim's: one of the victim's tenant, one of the attacker's. */
let otherDeviceKeys: { what: string; key: string }[];

beforeAll(async () => {
  h = await harness();
  document = (await h.request({ method: 'GET', url: '/api/openapi.json' })).body;
  attacker = await h.tenant('Attacker');
  const venue = await buildVenue(h);
  const door = await buildDoor(h, venue.tenantId, [venue.object.id]);
  const device = await buildActiveDevice(h, venue.tenantId, [door.id]);
  victim = {
    tenantId: venue.tenantId,
    apiKey: venue.apiKey,
    deviceKey: device.deviceKey,
    // The victim's real resources, by the parameter names that point at them.
    ids: {
      objectId: venue.object.id,
      accommodationId: venue.accommodation.id,
      doorId: door.id,
      deviceId: device.deviceId,
    },
  };
  const attackerVenue = await buildVenue(h);
  const attackerDoor = await buildDoor(h, attackerVenue.tenantId, [attackerVenue.object.id]);
  otherDeviceKeys = [
    {
      what: 'another device of the same tenant',
      key: (await buildActiveDevice(h, venue.tenantId, [door.id])).deviceKey,
    },
    {
      what: 'a device of another tenant',
      key: (await buildActiveDevice(h, attackerVenue.tenantId, [attackerDoor.id])).deviceKey,
    },
  ];
});

const EXAMPLE_NOW = '2030-01-01T08:00:00Z';

const refused = (res: TestResponse) => `${res.status} ${res.text.slice(0, 300)}`;

/** A scope that none of the required scope sets contains (admin implies all, so never admin). */
function scopeOutside(sets: string[][]): string {
  const scope = SCOPES.find((s) => s !== 'admin' && !sets.some((set) => set.includes(s)));
  if (!scope) throw new Error(`no scope lies outside ${JSON.stringify(sets)}`);
  return scope;
}

function requestFor(op: DocumentedOperation, tenantId: string, apiKey: string | null) {
  const url = op.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
    name === 'tenantId' ? tenantId : (victim.ids[name] ?? crypto.randomUUID()),
  );
  const query = (op.operation.parameters ?? [])
    .filter((p) => p.in === 'query' && p.required)
    .map(
      (p) =>
        `${encodeURIComponent(p.name)}=${encodeURIComponent(victim.ids[p.name] ?? exampleOf(p.schema, document, victim.ids))}`,
    )
    .join('&');
  const bodySchema = op.operation.requestBody?.content['application/json']?.schema;
  // Ids in the body point at the victim's resources too (e.g. a booking for the victim's object).
  const body = bodySchema ? exampleOf(bodySchema, document, victim.ids) : undefined;
  return { method: op.method as 'GET', url: query ? `${url}?${query}` : url, apiKey, body };
}

const restOperations = () => operationsOf(document).filter((op) => op.url !== GRAPHQL_PATH);
/** Hand-written API-key routes outside /api/v1/tenants/{tenantId} (the price preview): the tenant comes from the key alone. */
const tenantFromKeyOnly = (op: DocumentedOperation) => !op.url.includes(':tenantId');
const isPublic = (op: DocumentedOperation) => op.operation.security.length === 0;
const usesScheme = (op: DocumentedOperation, scheme: string) => op.operation.security.some((s) => scheme in s);
/** A route that answers a stream kept open (the devices' command channel): an accepted request never ends. */
const isStream = (op: DocumentedOperation) =>
  Object.values(op.operation.responses).some((r) =>
    Object.keys((r as { content?: Record<string, unknown> }).content ?? {}).includes('text/event-stream'),
  );

describe('every REST route refuses', () => {
  // The examples' times (Monday 7 January 2030, 11:00 in Berlin) are bookable then, so a route that
  // forgot its tenant check would serve the request rather than refuse it for its times.
  beforeEach(() => h.clock.set(EXAMPLE_NOW));
  afterEach(() => h.clock.set(null));

  it('is public only when listed as public', () => {
    const publicRoutes = restOperations()
      .filter(isPublic)
      .map((op) => `${op.method} ${op.url}`);
    expect(publicRoutes.filter((r) => !PUBLIC_ROUTES.includes(r))).toEqual([]);
    expect(
      restOperations().filter((op) => !isPublic(op) && !usesScheme(op, 'apiKey') && !usesScheme(op, 'deviceKey')),
    ).toEqual([]);
  });

  it('API-key routes: declare a scope', () => {
    const unscoped = restOperations().filter(
      // Each alternative (an API key, or an OAuth token with the same scopes) names its scopes.
      (op) =>
        usesScheme(op, 'apiKey') &&
        op.operation.security.some((s) => Object.values(s).some((scopes) => !scopes.length)),
    );
    expect(unscoped.map((op) => `${op.method} ${op.url}`)).toEqual([]);
  });

  it('API-key routes: no credential or an unknown one (401)', async () => {
    for (const op of restOperations().filter((o) => usesScheme(o, 'apiKey'))) {
      for (const key of [null, 'svc_notakey000000000000000000000']) {
        const res = await h.request(requestFor(op, victim.tenantId, key));
        expect(res.status, `${op.method} ${op.url} with ${key}: ${refused(res)}`).toBe(401);
      }
    }
  });

  it('API-key routes: another tenant’s admin key on the victim’s path (403/404)', async () => {
    const swept = restOperations().filter((o) => usesScheme(o, 'apiKey'));
    for (const op of swept) {
      const res = await h.request(requestFor(op, victim.tenantId, attacker.apiKey));
      expect([403, 404], `${op.method} ${op.url}: ${refused(res)}`).toContain(res.status);
    }
    expect(swept.length).toBeGreaterThan(0);
  });

  it('API-key routes without a tenant in the path: the victim’s own key is served the same request (so a refusal above is the tenant check)', async () => {
    // The sweep's requests are valid (ids of the victim's resources, the schemas' examples), so the
    // other tenant's 403/404 cannot come from validation or a missing resource.
    const own = restOperations().filter((o) => usesScheme(o, 'apiKey') && tenantFromKeyOnly(o));
    expect(own.map((op) => `${op.method} ${op.url}`)).toContain('POST /api/pricing/preview');
    for (const op of own) {
      const res = await h.request(requestFor(op, victim.tenantId, victim.apiKey));
      expect(res.status, `${op.method} ${op.url}: ${refused(res)}`).toBeLessThan(300);
    }
  });

  it('API-key routes: another tenant’s admin key on its own path, naming the victim’s resources (403/404, or 400)', async () => {
    // Ids of the victim's resources in the path or the body. A 400 is accepted here for routes under
    // /tenants/{tenantId}: the route may refuse the example input before it looks anything up, which
    // leaks nothing. Routes whose tenant is the key's alone are sent a request the victim is served
    // (checked above), so only the tenant check may refuse it.
    // A body names the victim's resources when its example carries one of their ids (a body without
    // any, such as a new webhook, is the attacker's own business and may well succeed).
    const namesVictim = (o: DocumentedOperation) => {
      const body = requestFor(o, attacker.tenantId, attacker.apiKey).body;
      return body !== undefined && Object.values(victim.ids).some((id) => JSON.stringify(body).includes(id));
    };
    const naming = restOperations().filter(
      (o) => usesScheme(o, 'apiKey') && (/:(?!tenantId\b)\w+/.test(o.url) || namesVictim(o)),
    );
    for (const op of naming) {
      const res = await h.request(requestFor(op, attacker.tenantId, attacker.apiKey));
      expect(tenantFromKeyOnly(op) ? [403, 404] : [400, 403, 404], `${op.method} ${op.url}: ${refused(res)}`).toContain(
        res.status,
      );
    }
  });

  it('API-key routes: a key of the right tenant lacking the scope (403/404)', async () => {
    for (const op of restOperations().filter((o) => usesScheme(o, 'apiKey'))) {
      const sets = op.operation.security.map((s) => s.apiKey ?? []);
      const key = await h.key(victim.tenantId, [scopeOutside(sets)]);
      const res = await h.request(requestFor(op, victim.tenantId, key));
      expect([403, 404], `${op.method} ${op.url}: ${refused(res)}`).toContain(res.status);
    }
  });

  it('device routes: no key, an API key, or an unknown device key (401/403)', async () => {
    for (const op of restOperations().filter((o) => usesScheme(o, 'deviceKey'))) {
      for (const key of [null, attacker.apiKey, victim.apiKey, 'svc_dk_notadevicekey00000000000000']) {
        const res = await h.request(requestFor(op, victim.tenantId, key));
        expect([401, 403], `${op.method} ${op.url} with ${key?.slice(0, 7)}: ${refused(res)}`).toContain(res.status);
      }
    }
  });

  it('device routes: another device’s key on this device’s path (403)', async () => {
    const swept = restOperations().filter((o) => usesScheme(o, 'deviceKey'));
    expect(swept.length).toBeGreaterThan(0);
    for (const op of swept) {
      for (const { what, key } of otherDeviceKeys) {
        const res = await h.request(requestFor(op, victim.tenantId, key));
        expect(res.status, `${op.method} ${op.url} with ${what}: ${refused(res)}`).toBe(403);
      }
      // The device's own key gets past authentication on the same request (a stream's acceptance is
      // test/e2e/device-channel.processes.test.ts's: here it would never end).
      if (isStream(op)) continue;
      const own = await h.request(requestFor(op, victim.tenantId, victim.deviceKey));
      expect([401, 403], `${op.method} ${op.url} with the device’s own key: ${refused(own)}`).not.toContain(own.status);
    }
  });
});

// GraphQL: every root field, with variables of the right types.

function exampleValue(type: GraphQLInputType, name: string, tenantId: string, depth = 0): unknown {
  if (isNonNullType(type)) return exampleValue(type.ofType, name, tenantId, depth);
  if (isListType(type)) return [];
  const named = getNamedType(type);
  if (name === 'tenantId') return tenantId;
  if (isEnumType(named)) return named.getValues()[0]?.value;
  if (isScalarType(named)) {
    if (named.name === 'ID' || /Id$/.test(name)) return victim.ids[name] ?? crypto.randomUUID();
    if (named.name === 'Int' || named.name === 'Float') return 1;
    if (named.name === 'Boolean') return true;
    if (named.name === 'DateTime') return '2030-01-07T10:00:00.000Z';
    if (named.name === 'LocalDate') return '2030-01-07';
    if (named.name === 'LocalTime') return '10:00';
    if (named.name === 'JSON' || named.name === 'JSONObject') return {};
    const json = named.extensions?.jsonSchema as { format?: string } | undefined;
    if (json?.format === 'email') return 'guest@example.com';
    if (json?.format === 'uuid') return crypto.randomUUID();
    return 'x';
  }
  if (isInputObjectType(named) && depth < 4) {
    return Object.fromEntries(
      Object.values(named.getFields())
        .filter((f) => isNonNullType(f.type))
        .map((f) => [f.name, exampleValue(f.type, f.name, tenantId, depth + 1)]),
    );
  }
  return null;
}

function graphqlCall(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>, tenantId: string) {
  const args = field.args;
  const declarations = args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const passing = args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  const query = `${kind}${declarations ? `(${declarations})` : ''} { ${field.name}${passing ? `(${passing})` : ''}${selection} }`;
  const variables = Object.fromEntries(args.map((a) => [a.name, exampleValue(a.type, a.name, tenantId)]));
  return { query, variables };
}

/** The root fields the GraphQL endpoint serves (@restOnly ones are swept through their REST routes). */
function rootFields() {
  const schema = publicSchemaOf(buildSchema(MODULES));
  const fields: { kind: 'query' | 'mutation'; field: GraphQLField<unknown, unknown>; sets: string[][] }[] = [];
  for (const [kind, root] of [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
  ] as const) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const sets =
        getDirectiveExtensions<{ requiresScopes: { scopes: string[][] } }>(field, schema).requiresScopes?.[0]?.scopes ??
        [];
      fields.push({ kind, field, sets });
    }
  }
  return fields;
}

function expectGraphQLRefusal(res: TestResponse, what: string, codes: string[]) {
  const errors = (res.body.errors ?? []) as { extensions?: { code?: string } }[];
  expect(
    errors.map((e) => e.extensions?.code),
    `${what}: ${refused(res)}`,
  ).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^(${codes.join('|')})$`))]));
  const data = res.body.data as Record<string, unknown> | null | undefined;
  expect(data?.[what.split(' ')[1]] ?? null, `${what} returned data`).toBeNull();
}

describe('every GraphQL root field refuses', () => {
  it('another tenant’s admin key naming the victim tenant (FORBIDDEN/NOT_FOUND)', async () => {
    const fields = rootFields().filter(({ field }) => field.args.some((a) => a.name === 'tenantId'));
    expect(fields.length).toBeGreaterThan(0);
    for (const { kind, field } of fields) {
      const { query, variables } = graphqlCall(kind, field, victim.tenantId);
      const res = await h.graphql(attacker.apiKey, query, variables);
      expectGraphQLRefusal(res, `${kind} ${field.name}`, ['FORBIDDEN', 'NOT_FOUND']);
    }
  });

  it('a key of the right tenant lacking the scope (FORBIDDEN)', async () => {
    for (const { kind, field, sets } of rootFields().filter((f) => f.sets.length > 0)) {
      const key = await h.key(victim.tenantId, [scopeOutside(sets)]);
      const { query, variables } = graphqlCall(kind, field, victim.tenantId);
      const res = await h.graphql(key, query, variables);
      expectGraphQLRefusal(res, `${kind} ${field.name}`, ['FORBIDDEN', 'NOT_FOUND']);
    }
  });

  it('no credential (401)', async () => {
    for (const { kind, field } of rootFields()) {
      const { query, variables } = graphqlCall(kind, field, victim.tenantId);
      const res = await h.graphql(null, query, variables);
      expect(res.status, `${kind} ${field.name}`).toBe(401);
      expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    }
  });
});
