import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { MODULES } from '../src/app/modules.js';
import { buildSchema, publicSchemaOf } from '../src/transport/graphql/schema.js';
import { GRAPHQL_PATH } from '../src/transport/graphql/yoga.js';
import type { OpenApiDocument } from '../src/transport/rest/openapi.js';
import { createPublicBookingLimits, solveChallenge } from '../src/modules/booking-page/index.js';
import { createHash } from 'node:crypto';
import { issueChallenge, leadingZeroBits } from '../src/modules/booking-page/pow.js';
import { statusOf } from '../src/kernel/errors.js';
import { memoryLimiterStore } from '../src/kernel/limits/index.js';
import { harness, type Harness, type TestResponse } from './harness.js';
import { buildActiveDevice, buildBooking, buildDoor, buildVenue, slotInDays, solvedChallenge } from './builders.js';
import { exampleOf, operationsOf, type DocumentedOperation } from './openapi-helpers.js';
import { ownApp, type OwnApp } from './own-app.js';

// Issue #41: the publishable key (svc_pk_…, scope booking_page; docs/booking-page.md, "Publishable
// key"). It may only read the public booking page, its published objects, their availability and
// prices, and create PENDING bookings; every other GraphQL root field (Query, Mutation,
// Subscription) and every other REST route refuses it. The sweeps walk the schema and the OpenAPI
// document, so a field or route added later is covered without touching this file.

const OWN_FIELDS = [
  'publicBookingPage',
  'publicObjects',
  'publicAvailability',
  'publicPriceQuote',
  'publicBookingChallenge',
  'createPublicBooking',
];
const VENUE_ORIGIN = 'https://www.venue.example';

let h: Harness;
let venue: Awaited<ReturnType<typeof buildVenue>>;
let other: Awaited<ReturnType<typeof buildVenue>>;
let pk: string;
let otherPk: string;
let ids: Record<string, string>;
let slugCounter = 0;
const freshSlug = () => `pk-${process.pid}-${Date.now().toString(36)}-${(slugCounter += 1)}`;

async function enablePage(apiKey: string, input: Record<string, unknown> = {}) {
  const res = await h.graphql(
    apiKey,
    'mutation($input: BookingPageSettingsInput!) { updateBookingPageSettings(input: $input) { slug } }',
    { input: { enabled: true, slug: freshSlug(), ...input } },
  );
  expect(res.body.errors).toBeUndefined();
  return res.body.data.updateBookingPageSettings.slug as string;
}

async function publish(apiKey: string, objectIds: string[], published = true) {
  const res = await h.graphql(
    apiKey,
    'mutation($ids: [ID!]!, $p: Boolean!) { publishObjects(ids: $ids, published: $p) { objects { id } } }',
    {
      ids: objectIds,
      p: published,
    },
  );
  expect(res.body.errors).toBeUndefined();
}

async function createPk(apiKey: string): Promise<TestResponse> {
  return h.graphql(
    apiKey,
    'mutation { createPublishableKey { apiKey apiKeyInfo { id kind prefix scopes publishableKey revokedAt } } }',
  );
}

beforeAll(async () => {
  h = await harness();
  venue = await buildVenue(h, { objects: 2 });
  other = await buildVenue(h);
  await enablePage(venue.apiKey, { allowedOrigins: [VENUE_ORIGIN] });
  await enablePage(other.apiKey, { allowedOrigins: ['https://www.other.example'] });
  await publish(venue.apiKey, [venue.objects[0].id]);
  await publish(other.apiKey, [other.object.id]);
  pk = (await createPk(venue.apiKey)).body.data.createPublishableKey.apiKey;
  otherPk = (await createPk(other.apiKey)).body.data.createPublishableKey.apiKey;
  // The venue has the data the key must never reach: a booking (its guest), a door, a device.
  const door = await buildDoor(h, venue.tenantId, [venue.object.id]);
  const device = await buildActiveDevice(h, venue.tenantId, [door.id]);
  const slot = slotInDays(3);
  const booking = await buildBooking(h, venue.tenantId, venue.object.id, { start: slot.startTime, end: slot.endTime });
  ids = {
    objectId: venue.objects[0].id,
    accommodationId: venue.accommodation.id,
    doorId: door.id,
    deviceId: device.deviceId,
    bookingId: booking.id,
  };
});

describe('creating, rotating and revoking the publishable key', () => {
  it('an admin creates it (svc_pk_…, PUBLISHABLE, booking_page only); it is shown again in apiKeys; creating another rotates it', async () => {
    const v = await buildVenue(h);
    const first = await createPk(v.apiKey);
    const created = first.body.data.createPublishableKey;
    expect(created.apiKey).toMatch(/^svc_pk_[A-Za-z0-9_-]{43}$/);
    expect(created.apiKeyInfo).toMatchObject({
      kind: 'PUBLISHABLE',
      prefix: created.apiKey.slice(0, 12),
      scopes: ['booking_page'],
      publishableKey: created.apiKey,
      revokedAt: null,
    });
    await enablePage(v.apiKey);
    const works = await h.graphql(created.apiKey, '{ publicBookingPage { name } }');
    expect(works.body.data.publicBookingPage.name).toBe('Test tenant');

    const second = (await createPk(v.apiKey)).body.data.createPublishableKey;
    expect(second.apiKey).not.toBe(created.apiKey);
    const old = await h.graphql(created.apiKey, '{ publicBookingPage { name } }');
    expect(old.status).toBe(401);
    const keys = await h.graphql(v.apiKey, '{ apiKeys { id kind publishableKey revokedAt } }');
    const publishable = keys.body.data.apiKeys.filter((k: { kind: string }) => k.kind === 'PUBLISHABLE');
    expect(publishable).toEqual([
      { id: created.apiKeyInfo.id, kind: 'PUBLISHABLE', publishableKey: created.apiKey, revokedAt: expect.any(String) },
      { id: second.apiKeyInfo.id, kind: 'PUBLISHABLE', publishableKey: second.apiKey, revokedAt: null },
    ]);
    // A secret key's value is never shown again.
    expect(
      keys.body.data.apiKeys
        .filter((k: { kind: string }) => k.kind === 'SECRET')
        .map((k: { publishableKey: unknown }) => k.publishableKey),
    ).toEqual([null]);

    const revoked = await h.graphql(v.apiKey, 'mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }', {
      id: second.apiKeyInfo.id,
    });
    expect(revoked.body.data.revokeApiKey.revokedAt).toEqual(expect.any(String));
    expect((await h.graphql(second.apiKey, '{ publicObjects { id } }')).status).toBe(401);

    const log = await h.graphql(v.apiKey, '{ auditLog(first: 20) { edges { node { action targetId details } } } }');
    const entries = log.body.data.auditLog.edges.map(
      (e: { node: { action: string; targetId: string; details: { kind?: string } } }) => e.node,
    );
    expect(
      entries
        .filter((e: { details: { kind?: string } }) => e.details.kind === 'publishable')
        .map((e: { action: string; targetId: string }) => `${e.action} ${e.targetId}`),
    ).toEqual([
      `api_key.created ${second.apiKeyInfo.id}`,
      `api_key.revoked ${created.apiKeyInfo.id}`,
      `api_key.created ${created.apiKeyInfo.id}`,
    ]);
  });

  it('two rotations at once leave exactly one working key', async () => {
    const v = await buildVenue(h);
    const results = await Promise.all([createPk(v.apiKey), createPk(v.apiKey), createPk(v.apiKey)]);
    for (const r of results) {
      if (r.body.errors) expect(r.body.errors[0].extensions.code).toMatch(/CONFLICT/);
    }
    const keys = await h.graphql(v.apiKey, '{ apiKeys { kind revokedAt } }');
    expect(
      keys.body.data.apiKeys.filter(
        (k: { kind: string; revokedAt: unknown }) => k.kind === 'PUBLISHABLE' && k.revokedAt === null,
      ),
    ).toHaveLength(1);
  });

  it('updateApiKey may rename a publishable key but never change its scopes', async () => {
    const v = await buildVenue(h);
    const made = (await createPk(v.apiKey)).body.data.createPublishableKey;
    const update =
      'mutation($id: ID!, $n: String, $s: [String!]) { updateApiKey(id: $id, name: $n, scopes: $s) { name scopes } }';
    const widened = await h.graphql(v.apiKey, update, { id: made.apiKeyInfo.id, s: ['admin'] });
    expect(widened.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'publishable_key_scopes' });
    const renamed = await h.graphql(v.apiKey, update, { id: made.apiKeyInfo.id, n: 'Website key' });
    expect(renamed.body.data.updateApiKey).toEqual({ name: 'Website key', scopes: ['booking_page'] });
    expect((await h.graphql(made.apiKey, '{ apiKeys { id } }')).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('only an admin may create one, and a publishable key cannot make keys', async () => {
    const v = await buildVenue(h);
    const staff = await h.key(v.tenantId, ['catalog:write', 'bookings:write', 'catalog:read']);
    expect((await createPk(staff)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await createPk(pk)).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('the public fields', () => {
  it('publicBookingPage shows the public parts only', async () => {
    const res = await h.graphql(
      pk,
      '{ publicBookingPage { tenantId name slug url paymentMode defaultLocale logo accentColour texts { en { intro } } } }',
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.publicBookingPage).toMatchObject({
      tenantId: venue.tenantId,
      paymentMode: 'AT_VENUE',
      defaultLocale: 'EN',
    });
    // The settings type's own fields (allowed origins) are not on it.
    const origins = await h.graphql(pk, '{ publicBookingPage { allowedOrigins } }');
    expect(origins.body.data ?? null).toBeNull();
    expect(origins.body.errors[0].message).toMatch(/allowedOrigins/);
  });

  it('publicObjects lists only published objects', async () => {
    const res = await h.graphql(
      pk,
      '{ publicObjects { id name pricePerHour currency timeZone accommodationName address minDurationMinutes slotIncrementMinutes } }',
    );
    expect(res.body.data.publicObjects).toEqual([
      {
        id: venue.objects[0].id,
        name: 'Court 1',
        pricePerHour: 2000,
        currency: 'EUR',
        timeZone: 'Europe/Berlin',
        accommodationName: 'Sportpark Test',
        address: 'Teststrasse 1, 10115 Berlin',
        minDurationMinutes: 60,
        slotIncrementMinutes: 60,
      },
    ]);
  });

  it('publicAvailability and publicPriceQuote: a published object answers; an unpublished one, another tenant’s, or none is NOT_FOUND', async () => {
    const date = slotInDays(5).startTime.slice(0, 10);
    const q =
      'query($o: ID!, $d: String!) { publicAvailability(objectId: $o, date: $d) { objectName timeZone slots { start available } } }';
    const ok = await h.graphql(pk, q, { o: venue.objects[0].id, d: date });
    expect(ok.body.data.publicAvailability.objectName).toBe('Court 1');
    expect(ok.body.data.publicAvailability.slots.length).toBeGreaterThan(0);
    for (const objectId of [venue.objects[1].id, other.object.id, crypto.randomUUID(), 'nope']) {
      const res = await h.graphql(pk, q, { o: objectId, d: date });
      expect(res.body.errors?.[0]?.extensions?.code, objectId).toMatch(/NOT_FOUND|BAD_USER_INPUT/);
      expect(res.body.data?.publicAvailability ?? null).toBeNull();
    }
    const quote =
      'query($o: ID!, $s: DateTime!, $e: DateTime!) { publicPriceQuote(objectId: $o, startTime: $s, endTime: $e) { totalPrice breakdown } }';
    const slot = slotInDays(5);
    const price = await h.graphql(pk, quote, { o: venue.objects[0].id, s: slot.startTime, e: slot.endTime });
    expect(price.body.data.publicPriceQuote.totalPrice).toBe(2000);
    const hidden = await h.graphql(pk, quote, { o: other.object.id, s: slot.startTime, e: slot.endTime });
    expect(hidden.body.errors[0].extensions.code).toBe('NOT_FOUND');
    // REST: the same.
    const rest = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${venue.tenantId}/public/objects/${other.object.id}/availability?date=${date}`,
      apiKey: pk,
    });
    expect(rest.status).toBe(404);
    const restOk = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${venue.tenantId}/public/objects/${venue.objects[0].id}/price-quote?startTime=${encodeURIComponent(slot.startTime)}&endTime=${encodeURIComponent(slot.endTime)}`,
      apiKey: pk,
    });
    expect(restOk.status, restOk.text).toBe(200);
    expect(restOk.body.totalPrice).toBe(2000);
  });

  it("publicAvailability takes timeZone (issue #44): each slot in the caller's zone too; a bad zone is refused naming it", async () => {
    const date = slotInDays(5).startTime.slice(0, 10);
    const url = `/api/v1/tenants/${venue.tenantId}/public/objects/${venue.objects[0].id}/availability?date=${date}`;
    const plain = await h.request({ method: 'GET', url, apiKey: pk });
    expect(plain.status, plain.text).toBe(200);
    expect(plain.body.callerTimeZone).toBeNull();
    expect(plain.body.slots[0]).toMatchObject({ localStart: null, localEnd: null });
    const res = await h.request({ method: 'GET', url: `${url}&timeZone=Asia/Kolkata`, apiKey: pk });
    expect(res.status, res.text).toBe(200);
    expect(res.body.timeZone).toBe('Europe/Berlin');
    expect(res.body.callerTimeZone).toBe('Asia/Kolkata');
    for (const slot of res.body.slots) {
      expect(slot.localStart.endsWith('+05:30')).toBe(true);
      expect(Date.parse(slot.localStart)).toBe(Date.parse(slot.startTime));
      expect(Date.parse(slot.localEnd)).toBe(Date.parse(slot.endTime));
    }
    const bad = await h.request({ method: 'GET', url: `${url}&timeZone=Mars/Olympus`, apiKey: pk });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'timeZone' })]);
    const gql = await h.graphql(
      pk,
      'query($o: ID!, $d: String!) { publicAvailability(objectId: $o, date: $d, timeZone: "Berlin") { objectName } }',
      { o: venue.objects[0].id, d: date },
    );
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field: 'timeZone' }] });
  });

  it('createPublicBooking makes a PENDING booking with the phone in E.164 and a manage link; a bad phone names the field', async () => {
    const slot = slotInDays(6);
    const create =
      'mutation($input: PublicBookingInput!) { createPublicBooking(input: $input) { booking { id status objectName totalPrice paymentUrl manageUrl } } }';
    const res = await h.graphql(pk, create, {
      input: {
        ...(await solvedChallenge(h, pk)),
        objectId: venue.objects[0].id,
        ...slot,
        guestName: ' Ada Lovelace ',
        guestEmail: 'ada@example.com',
        guestPhone: '0170 1234567',
        guestPhoneCountry: 'DE',
        locale: 'DE',
      },
    });
    expect(res.body.errors).toBeUndefined();
    const booking = res.body.data.createPublicBooking.booking;
    expect(booking).toMatchObject({ status: 'PENDING', objectName: 'Court 1', totalPrice: 2000, paymentUrl: null });
    expect(booking.manageUrl).toMatch(/^http:\/\/portier\.test\/b\/[A-Za-z0-9_-]{54}$/);
    const stored = await h.graphql(
      venue.apiKey,
      'query($id: ID!) { booking(id: $id) { guestName guestPhone status } }',
      { id: booking.id },
    );
    expect(stored.body.data.booking).toEqual({
      guestName: 'Ada Lovelace',
      guestPhone: '+491701234567',
      status: 'PENDING',
    });
    // The guest's language, for their mails and SMS.
    const row = await h.deps.database.db
      .selectFrom('bookings')
      .select('guest_locale')
      .where('id', '=', booking.id)
      .executeTakeFirstOrThrow();
    expect(row.guest_locale).toBe('de');
    const badLocale = await h.graphql(pk, create, {
      input: {
        objectId: venue.objects[0].id,
        ...slotInDays(7),
        guestName: 'X',
        guestEmail: 'x@example.com',
        locale: 'FR',
      },
    });
    expect(badLocale.body.errors[0].message).toMatch(/locale|Locale/);

    for (const [phone, country, message] of [
      ['0170 1234567', null, /country code/],
      ['+49 12', null, /not a valid international phone number/],
      ['12345', 'DE', /not a valid phone number of DE/],
    ] as const) {
      const bad = await h.graphql(pk, create, {
        input: {
          objectId: venue.objects[0].id,
          ...slotInDays(7),
          guestName: 'Bot',
          guestEmail: 'b@example.com',
          guestPhone: phone,
          guestPhoneCountry: country,
        },
      });
      expect(bad.body.errors[0].extensions.fields).toEqual([
        { field: 'guestPhone', message: expect.stringMatching(message) },
      ]);
    }
    const badCountry = await h.graphql(pk, create, {
      input: {
        objectId: venue.objects[0].id,
        ...slotInDays(7),
        guestName: 'Bot',
        guestEmail: 'b@example.com',
        guestPhone: '0170',
        guestPhoneCountry: 'XX',
      },
    });
    expect(badCountry.body.errors[0].extensions.fields[0].field).toBe('guestPhoneCountry');

    // An unpublished object, another tenant's: NOT_FOUND, nothing booked.
    for (const objectId of [venue.objects[1].id, other.object.id]) {
      const hidden = await h.graphql(pk, create, {
        input: {
          ...(await solvedChallenge(h, pk)),
          objectId,
          ...slotInDays(8),
          guestName: 'X',
          guestEmail: 'x@example.com',
        },
      });
      expect(hidden.body.errors[0].extensions.code).toBe('NOT_FOUND');
    }
  });

  it('Booking.guestLocale (issue #41): the chosen language in GraphQL, REST (one booking, the listing) and the booking.created snapshot; null when none was chosen', async () => {
    const create = 'mutation($input: PublicBookingInput!) { createPublicBooking(input: $input) { booking { id } } }';
    const book = async (days: number, locale?: 'DE' | 'EN') => {
      const res = await h.graphql(pk, create, {
        input: {
          ...(await solvedChallenge(h, pk)),
          objectId: venue.objects[0].id,
          ...slotInDays(days),
          guestName: 'Grete',
          guestEmail: `grete-${days}@example.com`,
          ...(locale ? { locale } : {}),
        },
      });
      expect(res.body.errors).toBeUndefined();
      return res.body.data.createPublicBooking.booking.id as string;
    };
    const german = await book(40, 'DE');
    const none = await book(41);
    const read = await h.graphql(
      venue.apiKey,
      'query($a: ID!, $b: ID!) { a: booking(id: $a) { guestLocale } b: booking(id: $b) { guestLocale } }',
      { a: german, b: none },
    );
    expect(read.body.data).toEqual({ a: { guestLocale: 'DE' }, b: { guestLocale: null } });
    const one = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${venue.tenantId}/bookings/${german}`,
      apiKey: venue.apiKey,
    });
    expect(one.status).toBe(200);
    expect(JSON.stringify(one.body)).toContain('"guestLocale":"DE"');
    // The listing's hand-written JSON (fast path) and GraphQL's plan carry it too.
    const page = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${venue.tenantId}/bookings?guestEmail=grete-40@example.com`,
      apiKey: venue.apiKey,
    });
    expect(page.body.bookings.map((b: { guestLocale: string | null }) => b.guestLocale)).toEqual(['DE']);
    const listed = await h.graphql(venue.apiKey, '{ bookings(first: 100) { id guestLocale } }');
    const byId = new Map(
      listed.body.data.bookings.map((b: { id: string; guestLocale: string }) => [b.id, b.guestLocale]),
    );
    expect([byId.get(german), byId.get(none)]).toEqual(['DE', null]);
    const events = await h.deps.database.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('tenant_id', '=', venue.tenantId)
      .where('type', '=', 'booking.created')
      .execute();
    const snapshot = (id: string) =>
      (events.find((e) => (e.data as { booking: { id: string } }).booking.id === id)?.data as { booking: object })
        .booking;
    expect(snapshot(german)).toMatchObject({ guestLocale: 'DE' });
    expect(snapshot(none)).not.toHaveProperty('guestLocale');
  });

  it('REST POST /public/bookings answers 201; a venue cancellation text must be accepted', async () => {
    const v = await buildVenue(h);
    await enablePage(v.apiKey, { texts: { en: { cancellationPolicy: 'Free until 24 h before.' } } });
    await publish(v.apiKey, [v.object.id]);
    const key = (await createPk(v.apiKey)).body.data.createPublishableKey.apiKey;
    const url = `/api/v1/tenants/${v.tenantId}/public/bookings`;
    const input = {
      objectId: v.object.id,
      ...slotInDays(4),
      guestName: 'Grace',
      guestEmail: 'grace@example.com',
      guestPhone: '+44 7911 123456',
    };
    const refused = await h.request({
      method: 'POST',
      url,
      apiKey: key,
      body: { input: { ...input, ...(await solvedChallenge(h, key)) } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: 'acceptedCancellationPolicy', message: expect.stringMatching(/must be true/) },
    ]);
    const ok = await h.request({
      method: 'POST',
      url,
      apiKey: key,
      body: { input: { ...input, ...(await solvedChallenge(h, key)), acceptedCancellationPolicy: true } },
    });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.booking.status).toBe('PENDING');
  });

  it('a page that is off answers NOT_FOUND on every public field', async () => {
    const v = await buildVenue(h);
    const key = (await createPk(v.apiKey)).body.data.createPublishableKey.apiKey;
    // Never saved, then saved but off.
    for (const step of ['never saved', 'off']) {
      if (step === 'off') await enablePage(v.apiKey, { enabled: false });
      const res = await h.graphql(key, '{ publicBookingPage { name } }');
      expect(res.body.errors[0].extensions, step).toMatchObject({ code: 'NOT_FOUND', reason: 'booking_page_disabled' });
      expect((await h.graphql(key, '{ publicObjects { id } }')).body.errors[0].extensions.code).toBe('NOT_FOUND');
    }
  });

  it('another tenant: its tenantId is FORBIDDEN, its REST paths 403', async () => {
    const res = await h.graphql(pk, 'query($t: ID) { publicObjects(tenantId: $t) { id } }', { t: other.tenantId });
    expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const rest = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${other.tenantId}/public/objects`,
      apiKey: pk,
    });
    expect(rest.status).toBe(403);
    // Each key sees its own venue.
    const mine = await h.graphql(otherPk, '{ publicObjects { id } }');
    expect(mine.body.data.publicObjects).toEqual([{ id: other.object.id }]);
  });
});

// The sweeps.

const schema = publicSchemaOf(buildSchema(MODULES));
type Kind = 'query' | 'mutation' | 'subscription';

function exampleValue(type: GraphQLInputType, name: string, depth = 0): unknown {
  if (isNonNullType(type)) return exampleValue(type.ofType, name, depth);
  if (isListType(type)) return [];
  const named = getNamedType(type);
  if (name === 'tenantId') return venue.tenantId;
  if (isEnumType(named)) return named.getValues()[0]?.value;
  if (isScalarType(named)) {
    if (named.name === 'ID' || /Id$/.test(name)) return ids[name] ?? crypto.randomUUID();
    if (named.name === 'Int' || named.name === 'Float') return 1;
    if (named.name === 'Boolean') return true;
    if (named.name === 'DateTime') return slotInDays(9).startTime;
    if (named.name === 'JSON' || named.name === 'JSONObject') return {};
    if (name === 'date') return slotInDays(9).startTime.slice(0, 10);
    if (/email/i.test(name)) return 'guest@example.com';
    return 'x';
  }
  if (isInputObjectType(named) && depth < 4)
    return Object.fromEntries(
      Object.values(named.getFields())
        .filter((f) => isNonNullType(f.type))
        .map((f) => [f.name, exampleValue(f.type, f.name, depth + 1)]),
    );
  return null;
}

function call(kind: Kind, field: GraphQLField<unknown, unknown>) {
  const declarations = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const passing = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  const query = `${kind}${declarations ? `(${declarations})` : ''} { ${field.name}${passing ? `(${passing})` : ''}${selection} }`;
  return { query, variables: Object.fromEntries(field.args.map((a) => [a.name, exampleValue(a.type, a.name)])) };
}

function rootFields() {
  const fields: { kind: Kind; field: GraphQLField<unknown, unknown>; scopes: string[][] }[] = [];
  for (const [kind, root] of [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ] as const) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const scopes =
        getDirectiveExtensions<{ requiresScopes: { scopes: string[][] } }>(field, schema).requiresScopes?.[0]?.scopes ??
        [];
      fields.push({ kind, field, scopes });
    }
  }
  return fields;
}

const codesOf = (res: TestResponse): string[] => {
  if (res.headers['content-type']?.toString().startsWith('text/event-stream')) {
    return [...res.text.matchAll(/"code":"([A-Z_]+)"/g)].map((m) => m[1] ?? '');
  }
  return ((res.body?.errors ?? []) as { extensions?: { code?: string } }[]).map((e) => e.extensions?.code ?? '');
};

describe('every GraphQL root field but its own refuses the publishable key', () => {
  it('the schema’s booking_page fields are exactly the public ones', () => {
    const own = rootFields().filter((f) => f.scopes.some((set) => set.includes('booking_page')));
    expect(own.map((f) => f.field.name).sort()).toEqual([...OWN_FIELDS].sort());
    // And none of them is also open to another scope (a publishable key's field is its alone).
    for (const f of own) expect(f.scopes, f.field.name).toEqual([['booking_page']]);
  });

  it('Query, Mutation and Subscription: FORBIDDEN (or UNAUTHENTICATED), never data', async () => {
    const swept = rootFields().filter((f) => !OWN_FIELDS.includes(f.field.name));
    expect(swept.map((f) => f.kind)).toEqual(expect.arrayContaining(['query', 'mutation', 'subscription']));
    for (const { kind, field } of swept) {
      const { query, variables } = call(kind, field);
      const res =
        kind === 'subscription'
          ? await h.request({
              method: 'POST',
              url: GRAPHQL_PATH,
              apiKey: pk,
              body: { query, variables },
              headers: { accept: 'text/event-stream' },
            })
          : await h.graphql(pk, query, variables);
      const what = `${kind} ${field.name}: ${res.status} ${res.text.slice(0, 300)}`;
      expect(codesOf(res), what).toEqual(
        expect.arrayContaining([expect.stringMatching(/^(FORBIDDEN|UNAUTHENTICATED)$/)]),
      );
      if (kind !== 'subscription') expect(res.body.data?.[field.name] ?? null, what).toBeNull();
      expect([200, 401, 403], what).toContain(res.status);
    }
  });

  it('its own fields answer it', async () => {
    for (const { kind, field } of rootFields().filter((f) => OWN_FIELDS.includes(f.field.name))) {
      const { query, variables } = call(kind, field);
      const res = await h.graphql(pk, query, variables);
      // Example input may be refused as input (a made-up slot), never for the credential.
      expect(codesOf(res), `${field.name}: ${res.text.slice(0, 300)}`).not.toEqual(
        expect.arrayContaining([expect.stringMatching(/^(FORBIDDEN|UNAUTHENTICATED)$/)]),
      );
    }
  });

  it('what a guest’s browser might try: bookings, guests, devices, the tenant, introspection of data', async () => {
    for (const query of [
      '{ bookings(first: 5) { id guestName guestEmail } }',
      `{ booking(id: "${ids.bookingId}") { guestName } }`,
      '{ devices { id } }',
      '{ viewer { id name } }',
      '{ apiKeys { id } }',
      '{ bookingPageSettings { allowedOrigins } }',
      '{ publicBookingPage { name } bookings(first: 1) { guestEmail } }',
    ]) {
      const res = await h.graphql(pk, query);
      const data = (res.body.data ?? {}) as Record<string, unknown>;
      for (const name of ['bookings', 'booking', 'devices', 'viewer', 'apiKeys', 'bookingPageSettings'])
        expect(data[name] ?? null, `${query}: ${res.text.slice(0, 200)}`).toBeNull();
      expect(res.text).not.toMatch(/guest@|@example\.com/);
    }
  });
});

describe('every REST route but its own refuses the publishable key', () => {
  let document: OpenApiDocument;
  beforeAll(async () => {
    document = (await h.request({ method: 'GET', url: '/api/openapi.json' })).body;
  });

  const isOwn = (op: DocumentedOperation) =>
    op.operation.security.some((s) => Object.values(s).some((scopes) => scopes.includes('booking_page')));
  const isPublic = (op: DocumentedOperation) => op.operation.security.length === 0;

  function requestOf(op: DocumentedOperation, tenantId: string) {
    const url = op.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
      name === 'tenantId' ? tenantId : (ids[name] ?? crypto.randomUUID()),
    );
    const query = (op.operation.parameters ?? [])
      .filter((p) => p.in === 'query' && p.required)
      .map(
        (p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(ids[p.name] ?? exampleOf(p.schema, document, ids))}`,
      )
      .join('&');
    const bodySchema = op.operation.requestBody?.content['application/json']?.schema;
    return {
      method: op.method as 'GET',
      url: query ? `${url}?${query}` : url,
      apiKey: pk,
      body: bodySchema ? exampleOf(bodySchema, document, ids) : undefined,
    };
  }

  it('the document marks exactly the public routes with booking_page', () => {
    const own = operationsOf(document).filter(isOwn);
    expect(own.map((op) => `${op.method} ${op.url}`).sort()).toEqual(
      [
        'GET /api/v1/tenants/:tenantId/public/booking-page',
        'GET /api/v1/tenants/:tenantId/public/objects',
        'GET /api/v1/tenants/:tenantId/public/objects/:objectId/availability',
        'GET /api/v1/tenants/:tenantId/public/objects/:objectId/price-quote',
        'GET /api/v1/tenants/:tenantId/public/booking-challenge',
        'POST /api/v1/tenants/:tenantId/public/bookings',
      ].sort(),
    );
  });

  it('every other credentialed route (API key, device key, GraphQL GET): 401 or 403', async () => {
    const swept = operationsOf(document).filter((op) => !isPublic(op) && !isOwn(op) && op.url !== GRAPHQL_PATH);
    expect(swept.length).toBeGreaterThan(30);
    for (const op of swept) {
      for (const tenantId of [venue.tenantId, other.tenantId]) {
        const res = await h.request(requestOf(op, tenantId));
        expect(
          [401, 403],
          `${op.method} ${op.url} (${tenantId === venue.tenantId ? 'own' : 'other'} tenant): ${res.status} ${res.text.slice(0, 200)}`,
        ).toContain(res.status);
      }
    }
  });

  it('its own routes serve it on its tenant, and refuse another tenant’s path (403)', async () => {
    for (const op of operationsOf(document).filter(isOwn)) {
      const own = await h.request(requestOf(op, venue.tenantId));
      expect([401, 403], `${op.method} ${op.url}: ${own.status} ${own.text.slice(0, 200)}`).not.toContain(own.status);
      const cross = await h.request(requestOf(op, other.tenantId));
      expect(cross.status, `${op.method} ${op.url} on another tenant`).toBe(403);
    }
  });
});

describe('CORS and origins', () => {
  const cors = (headers: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('access-control-')));

  it('a preflight from a venue’s allowed origin is answered on the public paths, not elsewhere; an unlisted origin gets nothing', async () => {
    const preflight = (url: string, origin: string) =>
      h.request({
        method: 'OPTIONS',
        url,
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
    const ok = await preflight(GRAPHQL_PATH, VENUE_ORIGIN);
    expect(cors(ok.headers)).toMatchObject({ 'access-control-allow-origin': VENUE_ORIGIN });
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
    const rest = await preflight(`/api/v1/tenants/${venue.tenantId}/public/bookings`, VENUE_ORIGIN);
    expect(rest.headers['access-control-allow-origin']).toBe(VENUE_ORIGIN);
    const elsewhere = await preflight(`/api/v1/tenants/${venue.tenantId}/bookings`, VENUE_ORIGIN);
    expect(cors(elsewhere.headers)).toEqual({});
    const evil = await preflight(GRAPHQL_PATH, 'https://evil.example');
    expect(cors(evil.headers)).toEqual({});
  });

  it('the key works from its venue’s origin and without Origin; from another origin (even one another venue lists) 403 origin_not_allowed', async () => {
    const query = { query: '{ publicBookingPage { name } }' };
    const from = (origin?: string, key = pk) =>
      h.request({ method: 'POST', url: GRAPHQL_PATH, apiKey: key, body: query, headers: origin ? { origin } : {} });
    const ok = await from(VENUE_ORIGIN);
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(VENUE_ORIGIN);
    expect((await from()).status).toBe(200);
    expect((await from('http://portier.test')).status).toBe(200); // Portier's own pages
    for (const origin of ['https://evil.example', 'https://www.other.example']) {
      const refused = await from(origin);
      expect(refused.status, origin).toBe(403);
      expect(refused.body.errors[0].extensions.reason).toBe('origin_not_allowed');
    }
    // A secret key is not held to the venue's origins (server-side use; CORS still guards browsers).
    const secret = await h.request({
      method: 'POST',
      url: GRAPHQL_PATH,
      apiKey: venue.apiKey,
      body: query,
      headers: { origin: 'https://evil.example' },
    });
    expect(secret.status).toBe(200);
    expect(secret.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('the bot check on createPublicBooking: a solved, single-use challenge', () => {
  const create =
    'mutation($input: PublicBookingInput!) { createPublicBooking(input: $input) { booking { id status } } }';
  let addressCounter = 0;
  const freshAddress = () => `10.44.${process.pid % 250}.${(addressCounter += 1)}`;
  const guestInput = (days: number, hour = 9) => ({
    objectId: ids.objectId,
    ...slotInDays(days, hour),
    guestName: 'Guest',
    guestEmail: 'guest@example.com',
  });
  type Via = 'graphql' | 'rest';
  const book = (
    via: Via,
    input: Record<string, unknown>,
    options: { key?: string; address?: string; target?: Pick<Harness, 'request'> } = {},
  ) =>
    (options.target ?? h).request(
      via === 'graphql'
        ? {
            method: 'POST',
            url: GRAPHQL_PATH,
            apiKey: options.key ?? pk,
            remoteAddress: options.address ?? freshAddress(),
            body: { query: create, variables: { input } },
          }
        : {
            method: 'POST',
            url: `/api/v1/tenants/${venue.tenantId}/public/bookings`,
            apiKey: options.key ?? pk,
            remoteAddress: options.address ?? freshAddress(),
            body: { input },
          },
    );
  /** The refusal as {status, code, reason, fields} for GraphQL and REST alike. */
  const refusalOf = (via: Via, res: TestResponse) => {
    if (via === 'graphql') {
      const e = res.body.errors?.[0];
      if (!e) return { status: 200, reason: 'booked' };
      const code = e.extensions?.code as keyof typeof statusOf;
      return { status: statusOf[code], reason: e.extensions?.reason, fields: e.extensions?.fields };
    }
    if (res.status === 201) return { status: 201, reason: 'booked' };
    return { status: res.status, reason: res.body.code, fields: res.body.errors };
  };
  const bits = () => h.deps.env.bookingPage.powBits;
  /** A nonce that does not solve `challenge` at `needed` bits (the first one that fails). */
  const wrongNonce = (challenge: string, needed = bits()) => {
    for (let n = 0; ; n += 1) {
      const digest = createHash('sha256').update(`${challenge}:${n}`).digest();
      if (leadingZeroBits(digest) < needed) return String(n);
    }
  };

  it('publicBookingChallenge issues a signed, expiring challenge at the page’s difficulty (GraphQL and REST)', async () => {
    const res = await h.graphql(pk, '{ publicBookingChallenge { challenge bits expiresAt } }');
    expect(res.body.errors).toBeUndefined();
    const c = res.body.data.publicBookingChallenge;
    expect(c.challenge).toMatch(/^pw1\.[A-Za-z0-9_-]{16}\.[0-9a-z]+\.\d+\.[A-Za-z0-9_-]+$/);
    expect(c.bits).toBe(bits());
    const minutes = (Date.parse(c.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
    const rest = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${venue.tenantId}/public/booking-challenge`,
      apiKey: pk,
    });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.challenge).not.toBe(c.challenge);
    expect(rest.body.bits).toBe(bits());
    // A page that is off issues none.
    const v = await buildVenue(h);
    const key = (await createPk(v.apiKey)).body.data.createPublishableKey.apiKey;
    const off = await h.graphql(key, '{ publicBookingChallenge { challenge } }');
    expect(off.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', reason: 'booking_page_disabled' });
  });

  for (const via of ['graphql', 'rest'] as const) {
    it(`${via}: a missing, malformed, forged, altered, too easy, unsolved, expired or reused proof, or a filled honeypot, is refused naming what is wrong; nothing is booked`, async () => {
      const fresh = () => solvedChallenge(h, pk);
      const cases: {
        what: string;
        proof: () => Promise<Record<string, unknown>>;
        status: number;
        reason: string;
        field: string;
        message: RegExp;
      }[] = [
        {
          what: 'no proof at all',
          proof: () => Promise.resolve({}),
          status: 400,
          reason: 'proof_required',
          field: 'challenge',
          message: /is required: ask publicBookingChallenge/,
        },
        {
          what: 'a challenge without its nonce',
          proof: async () => ({ challenge: (await fresh()).challenge }),
          status: 400,
          reason: 'proof_required',
          field: 'nonce',
          message: /is required: .*SHA-256/,
        },
        {
          what: 'a made-up challenge',
          proof: () => Promise.resolve({ challenge: 'pw1.not-a-challenge', nonce: '1' }),
          status: 400,
          reason: 'proof_invalid',
          field: 'challenge',
          message: /is not a challenge Portier issued/,
        },
        {
          what: 'another venue’s challenge',
          proof: () => solvedChallenge(h, otherPk),
          status: 400,
          reason: 'proof_invalid',
          field: 'challenge',
          message: /was not issued for this venue/,
        },
        {
          what: 'a challenge with its difficulty lowered',
          proof: async () => {
            const { challenge } = await fresh();
            const parts = challenge.split('.');
            parts[3] = '0';
            return { challenge: parts.join('.'), nonce: '0' };
          },
          status: 400,
          reason: 'proof_invalid',
          field: 'challenge',
          message: /was not issued for this venue \(or was altered\)/,
        },
        {
          what: 'a genuine challenge issued below today’s difficulty',
          proof: () => {
            const c = issueChallenge(h.deps.secret, venue.tenantId, bits() - 1, new Date(Date.now() + 60_000));
            return Promise.resolve({ challenge: c.token, nonce: solveChallenge(c.token, c.bits) });
          },
          status: 400,
          reason: 'proof_invalid',
          field: 'challenge',
          message: new RegExp(`fewer zero bits than the venue now asks \\(${bits()}\\)`),
        },
        {
          what: 'a nonce that does not solve it',
          proof: async () => {
            const { challenge } = await fresh();
            return { challenge, nonce: wrongNonce(challenge) };
          },
          status: 400,
          reason: 'proof_invalid',
          field: 'nonce',
          message: new RegExp(`does not solve the challenge: .* ${bits()} zero bits`),
        },
        {
          what: 'a nonce that is not a number',
          proof: async () => ({ challenge: (await fresh()).challenge, nonce: '0x1f' }),
          status: 400,
          reason: 'proof_invalid',
          field: 'nonce',
          message: /does not solve the challenge/,
        },
        {
          what: 'an expired challenge, solved',
          proof: () => {
            const c = issueChallenge(h.deps.secret, venue.tenantId, bits(), new Date(Date.now() - 1000));
            return Promise.resolve({ challenge: c.token, nonce: solveChallenge(c.token, c.bits) });
          },
          status: 400,
          reason: 'proof_expired',
          field: 'challenge',
          message: /has expired: ask publicBookingChallenge .* again/,
        },
        {
          what: 'a filled honeypot with a good proof',
          proof: async () => ({ ...(await fresh()), honeypot: 'http://spam.example' }),
          status: 400,
          reason: 'bot_suspected',
          field: 'honeypot',
          message: /must be empty/,
        },
      ];
      const before = await bookingCount();
      for (const [i, c] of cases.entries()) {
        const res = await book(via, { ...guestInput(50 + i), ...(await c.proof()) });
        const refusal = refusalOf(via, res);
        expect(refusal, `${c.what}: ${res.text.slice(0, 300)}`).toMatchObject({
          status: c.status,
          reason: c.reason,
          fields: [{ field: c.field, message: expect.stringMatching(c.message) }],
        });
        if (via === 'graphql') expect(res.body.data?.createPublicBooking ?? null).toBeNull();
      }
      expect(await bookingCount()).toBe(before);

      // A solved challenge books once; the same challenge again is 409 proof_used, whatever the slot.
      const solved = await fresh();
      const first = await book(via, { ...guestInput(via === 'graphql' ? 61 : 62), ...solved });
      expect(refusalOf(via, first).reason, first.text).toBe('booked');
      const again = await book(via, { ...guestInput(via === 'graphql' ? 63 : 64), ...solved });
      expect(refusalOf(via, again), again.text).toMatchObject({
        status: 409,
        reason: 'proof_used',
        fields: [{ field: 'challenge', message: 'was already used for a booking' }],
      });
      expect(await bookingCount()).toBe(before + 1);
    });
  }

  it('the same challenge sent twice at once books once', async () => {
    const solved = await solvedChallenge(h, pk);
    const results = await Promise.all(
      [65, 66, 67, 68].map((days, i) => book(i % 2 ? 'rest' : 'graphql', { ...guestInput(days), ...solved })),
    );
    const reasons = results.map((r, i) => refusalOf(i % 2 ? 'rest' : 'graphql', r).reason ?? 'booked');
    expect(reasons.filter((r) => r === 'booked')).toHaveLength(1);
    expect(reasons.filter((r) => r === 'proof_used')).toHaveLength(3);
  });

  it('the proof may come in botCheck {challenge, nonce} too', async () => {
    const res = await book('graphql', { ...guestInput(69), botCheck: await solvedChallenge(h, pk) });
    expect(res.body.errors, res.text).toBeUndefined();
    expect(res.body.data.createPublicBooking.booking.status).toBe('PENDING');
  });

  async function bookingCount() {
    const row = await h.deps.database.db
      .selectFrom('bookings')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('tenant_id', '=', venue.tenantId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  describe('a burst of 200 bot bookings from one address', () => {
    let app: OwnApp;
    beforeAll(async () => {
      // A cheap proof (4 bits) so the test's bot can afford to solve every challenge, as a
      // determined one would; the key's budget is 12, so only attempts that passed the bot check
      // may count against it for the other guest to still book.
      app = await ownApp(h, {
        options: { loadShedding: { maxEventLoopDelay: 0 } },
        env: { bookingPage: { ...h.deps.env.bookingPage, powBits: 4 } },
        setup: (_, deps) => {
          deps.publicBookingLimits = createPublicBookingLimits(memoryLimiterStore(), {
            perAddress: { points: 10, seconds: 600 },
            perKey: { points: 12, seconds: 600 },
          });
        },
      });
    });
    afterAll(() => app?.close());

    it('solving every challenge, through GraphQL and REST: stopped after 10; unsolved ones from another address: none books; a third address’s guest books', async () => {
      const before = await bookingCount();
      const bot = `10.45.${process.pid % 250}.7`;
      const reasons: string[] = [];
      for (let i = 0; i < 200; i += 1) {
        const via: Via = i % 2 ? 'rest' : 'graphql';
        const res = await book(
          via,
          { ...guestInput(70 + (i % 5), 14), ...(await solvedChallenge(app, pk)) },
          {
            address: bot,
            target: app,
          },
        );
        reasons.push(refusalOf(via, res).reason as string);
      }
      // The first 10 pass the address limit (5 slots: 5 booked, 5 refused as taken); the rest never reach the database.
      expect(reasons.slice(0, 10).filter((r) => r === 'rate_limited')).toEqual([]);
      expect(reasons.filter((r) => r === 'booked')).toHaveLength(5);
      expect(reasons.slice(10).every((r) => r === 'rate_limited')).toBe(true);
      const limited = await book(
        'rest',
        { ...guestInput(75, 14), ...(await solvedChallenge(app, pk)) },
        {
          address: bot,
          target: app,
        },
      );
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toMatch(/^\d+$/);
      expect(limited.body.detail ?? limited.body.message ?? limited.text).toMatch(
        /Too many bookings from this address/,
      );

      // A bot that does not do the work, from another address: refused for its proof, then limited.
      const lazy = `10.45.${process.pid % 250}.8`;
      const lazyReasons: string[] = [];
      for (let i = 0; i < 200; i += 1) {
        const via: Via = i % 2 ? 'rest' : 'graphql';
        const { challenge } = await solvedChallenge(app, pk);
        const res = await book(
          via,
          { ...guestInput(76 + (i % 5), 14), ...(i % 3 ? { challenge, nonce: wrongNonce(challenge, 4) } : {}) },
          {
            address: lazy,
            target: app,
          },
        );
        lazyReasons.push(refusalOf(via, res).reason as string);
      }
      expect(lazyReasons.filter((r) => r === 'booked')).toEqual([]);
      expect(lazyReasons.slice(0, 10).every((r) => r === 'proof_required' || r === 'proof_invalid')).toBe(true);
      expect(lazyReasons.slice(10).every((r) => r === 'rate_limited')).toBe(true);
      expect(await bookingCount()).toBe(before + 5);

      // A guest from a third address: booked (the key has spent 10 of its 12: refused attempts spent nothing).
      const guest = await book(
        'graphql',
        { ...guestInput(82, 14), ...(await solvedChallenge(app, pk)) },
        {
          address: `10.46.${process.pid % 250}.9`,
          target: app,
        },
      );
      expect(guest.body.errors, guest.text).toBeUndefined();
      expect(guest.body.data.createPublicBooking.booking.status).toBe('PENDING');
    });
  });

  describe('per key', () => {
    let app: OwnApp;
    beforeAll(async () => {
      app = await ownApp(h, {
        options: { loadShedding: { maxEventLoopDelay: 0 } },
        setup: (_, deps) => {
          deps.publicBookingLimits = createPublicBookingLimits(memoryLimiterStore(), {
            perAddress: { points: 100, seconds: 600 },
            perKey: { points: 3, seconds: 600 },
          });
        },
      });
    });
    afterAll(() => app?.close());

    it('a key past its budget is refused from every address (RATE_LIMITED)', async () => {
      const results = [];
      for (let i = 0; i < 5; i += 1)
        results.push(
          await book(
            'graphql',
            { ...guestInput(40 + i, 12), ...(await solvedChallenge(app, pk)) },
            {
              address: `10.43.${i}.1`,
              target: app,
            },
          ),
        );
      const codes = results.map((r) => r.body.errors?.[0]?.extensions?.code ?? 'OK');
      expect(codes).toEqual(['OK', 'OK', 'OK', 'RATE_LIMITED', 'RATE_LIMITED']);
      expect(results[3]?.body.errors[0].message).toMatch(/through this publishable key: at most 3/);
    });
  });
});
