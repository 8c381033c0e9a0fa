import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness, type TestResponse } from './harness.js';
import { buildVenue } from './builders.js';
import { ownApp, type OwnApp } from './own-app.js';

// Issue #41: the venue's booking page settings (docs/booking-page.md, "Settings"): GraphQL and REST,
// validation of hostile input, the slug unique across tenants, payment mode vs provider, audit,
// publishing objects, tenant isolation.

const SETTINGS = `enabled saved slug url paymentMode onlinePaymentAvailable allowedOrigins logo accentColour
  defaultLocale vatRateBasisPoints updatedAt texts { en { intro cancellationPolicy afterBooking } de { intro cancellationPolicy afterBooking } }`;
const UPDATE = `mutation($input: BookingPageSettingsInput!) { updateBookingPageSettings(input: $input) { ${SETTINGS} } }`;

// 1×1 images.
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const JPEG = `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]).toString('base64')}`;
const WEBP = `data:image/webp;base64,${Buffer.from('RIFF\x1a\x00\x00\x00WEBPVP8L', 'latin1').toString('base64')}`;
const SVG = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64')}`;

let h: Harness;
let slugCounter = 0;
const freshSlug = () => `venue-${process.pid}-${Date.now().toString(36)}-${(slugCounter += 1)}`;

beforeAll(async () => {
  h = await harness();
});

async function save(apiKey: string, input: Record<string, unknown>): Promise<TestResponse> {
  return h.graphql(apiKey, UPDATE, { input });
}

function fieldErrors(res: TestResponse): { field: string; message: string }[] {
  return res.body.errors?.[0]?.extensions?.fields ?? [];
}

describe('reading and saving settings', () => {
  it('answers the defaults before the first save, and the first save needs a slug', async () => {
    const { apiKey } = await h.tenant();
    const read = await h.graphql(apiKey, `{ bookingPageSettings { ${SETTINGS} } }`);
    expect(read.body.data.bookingPageSettings).toMatchObject({
      saved: false,
      enabled: false,
      slug: null,
      url: null,
      paymentMode: 'AT_VENUE',
      onlinePaymentAvailable: false,
      allowedOrigins: [],
      defaultLocale: 'EN',
      texts: { en: { intro: null }, de: { intro: null } },
    });
    const noSlug = await save(apiKey, { enabled: true });
    expect(noSlug.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(fieldErrors(noSlug)).toEqual([
      { field: 'slug', message: 'is required the first time the booking page is saved' },
    ]);
  });

  it('saves every field, keeps the fields left out, and clears nullable ones with null', async () => {
    const { apiKey } = await h.tenant();
    const slug = freshSlug();
    const first = await save(apiKey, {
      enabled: true,
      slug,
      allowedOrigins: ['https://www.sportpark.example', 'http://localhost:5173', 'https://www.sportpark.example'],
      logo: PNG,
      accentColour: '#1A7F5A',
      defaultLocale: 'DE',
      texts: {
        en: { intro: '  Book a court online.  ', cancellationPolicy: 'Free until 24 h before.' },
        de: { intro: 'Platz online buchen.\nBis bald!' },
      },
      vatRateBasisPoints: 1900,
    });
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.updateBookingPageSettings).toMatchObject({
      saved: true,
      enabled: true,
      slug,
      url: `http://portier.test/book/${slug}`,
      allowedOrigins: ['https://www.sportpark.example', 'http://localhost:5173'],
      logo: PNG,
      accentColour: '#1a7f5a',
      defaultLocale: 'DE',
      vatRateBasisPoints: 1900,
      texts: {
        en: { intro: 'Book a court online.', cancellationPolicy: 'Free until 24 h before.', afterBooking: null },
        de: { intro: 'Platz online buchen.\nBis bald!', cancellationPolicy: null },
      },
    });
    const second = await save(apiKey, {
      logo: null,
      vatRateBasisPoints: null,
      texts: { en: { intro: '' }, de: { afterBooking: 'Danke!' } },
    });
    expect(second.body.data.updateBookingPageSettings).toMatchObject({
      enabled: true,
      slug,
      logo: null,
      accentColour: '#1a7f5a',
      vatRateBasisPoints: null,
      texts: {
        en: { intro: null, cancellationPolicy: 'Free until 24 h before.' },
        de: { intro: 'Platz online buchen.\nBis bald!', afterBooking: 'Danke!' },
      },
    });
  });

  it('accepts PNG, JPEG and WebP logos; refuses SVG (script) and bytes that are not the type they claim', async () => {
    const { apiKey } = await h.tenant();
    expect((await save(apiKey, { slug: freshSlug(), logo: JPEG })).body.errors).toBeUndefined();
    expect((await save(apiKey, { logo: WEBP })).body.errors).toBeUndefined();
    const refused: [string, RegExp][] = [
      [SVG, /SVG is not accepted/],
      ['data:image/svg+xml,<svg onload="alert(1)"/>', /data: URL/],
      [`data:image/png;base64,${Buffer.from('GIF89a').toString('base64')}`, /is not a PNG image/],
      ['data:image/gif;base64,R0lGODlhAQABAAAAACw=', /got image\/gif/],
      ['javascript:alert(1)', /data: URL/],
      ['https://evil.example/logo.png', /data: URL/],
      [`data:image/png;base64,${'A'.repeat(200_001)}`, /at most 200000 characters/],
    ];
    for (const [logo, message] of refused) {
      const res = await save(apiKey, { logo });
      expect(fieldErrors(res), logo.slice(0, 40)).toEqual([{ field: 'logo', message: expect.stringMatching(message) }]);
    }
  });

  it('refuses bad origins, naming each one', async () => {
    const { apiKey } = await h.tenant();
    await save(apiKey, { slug: freshSlug() });
    const bad = [
      'http://www.example.com', // http outside localhost
      'https://www.example.com/', // trailing slash
      'https://www.example.com/path',
      'https://WWW.example.com', // not as a browser sends it
      'https://www.example.com:443', // default port
      'https://user@www.example.com',
      'https://www.example.com?x=1',
      'ftp://www.example.com',
      'javascript:alert(1)',
      '*',
      'null',
      '',
      'https://',
    ];
    const res = await save(apiKey, { allowedOrigins: ['https://ok.example', ...bad] });
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(fieldErrors(res).map((e) => e.field)).toEqual(bad.map((_, i) => `allowedOrigins[${i + 1}]`));
    expect(fieldErrors(res)[0]?.message).toMatch(/must use https/);
    const tooMany = await save(apiKey, {
      allowedOrigins: Array.from({ length: 21 }, (_, i) => `https://a${i}.example`),
    });
    expect(fieldErrors(tooMany)).toEqual([
      { field: 'allowedOrigins', message: 'must be a list of at most 20 origins' },
    ]);
    // Still as before: nothing was saved.
    const read = await h.graphql(apiKey, '{ bookingPageSettings { allowedOrigins } }');
    expect(read.body.data.bookingPageSettings.allowedOrigins).toEqual([]);
  });

  it('refuses hostile and over-long texts, slugs and colours with the field named', async () => {
    const { apiKey } = await h.tenant();
    await save(apiKey, { slug: freshSlug() });
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ texts: { en: { intro: 'x'.repeat(1001) } } }, 'texts.en.intro', /at most 1000 characters/],
      [{ texts: { de: { cancellationPolicy: 'y'.repeat(4001) } } }, 'texts.de.cancellationPolicy', /at most 4000/],
      [{ texts: { en: { intro: 'bell\u0007' } } }, 'texts.en.intro', /plain text/],
      [{ texts: { en: { intro: 'evil\u202Eredro' } } }, 'texts.en.intro', /plain text/],
      [{ texts: { en: { intro: 'nul\u0000byte' } } }, 'variables.input.texts.en.intro', /NUL/],
      [
        { texts: { de: { intro: 'lone \uD800 surrogate' } } },
        'variables.input.texts.de.intro',
        /lone UTF-16 surrogate/,
      ],
      [{ texts: { en: { footer: 'x' } } }, 'input', /./],
      [{ slug: 'Sportpark' }, 'slug', /lowercase/],
      [{ slug: '-sportpark' }, 'slug', /lowercase/],
      [{ slug: 'a'.repeat(49) }, 'slug', /1–48/],
      [{ slug: '../admin' }, 'slug', /lowercase/],
      [{ slug: 'café' }, 'slug', /lowercase/],
      [{ accentColour: 'red' }, 'accentColour', /#rrggbb/],
      [{ accentColour: '#12345' }, 'accentColour', /#rrggbb/],
      [{ accentColour: '#123456;background:url(x)' }, 'accentColour', /#rrggbb/],
      [{ vatRateBasisPoints: 10001 }, 'vatRateBasisPoints', /0 to 10000/],
      [{ vatRateBasisPoints: -1 }, 'vatRateBasisPoints', /0 to 10000/],
    ];
    for (const [input, field, message] of cases) {
      const res = await save(apiKey, input);
      const errors = fieldErrors(res);
      const found = errors.find((e) => e.field === field || e.field.startsWith(field));
      expect(res.body.errors?.[0]?.extensions?.code, JSON.stringify(input).slice(0, 80)).toBe('BAD_USER_INPUT');
      if (field !== 'input')
        expect(found?.message, `${JSON.stringify(input).slice(0, 80)}: ${JSON.stringify(errors)}`).toMatch(message);
    }
  });

  it('a slug another venue has is a CONFLICT (409 over REST), and the taker keeps its own', async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    const slug = freshSlug();
    expect((await save(a.apiKey, { slug })).body.errors).toBeUndefined();
    const taken = await save(b.apiKey, { slug });
    expect(taken.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'slug_taken' });
    const rest = await h.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${b.tenantId}/booking-page`,
      apiKey: b.apiKey,
      body: { input: { slug } },
    });
    expect(rest.status).toBe(409);
    expect(rest.body.code).toBe('slug_taken');
    // Saving its own slug again is no conflict.
    expect((await save(a.apiKey, { slug, enabled: true })).body.errors).toBeUndefined();
  });

  it('two venues racing for one slug: one gets it, the other a CONFLICT', async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    const slug = freshSlug();
    const results = await Promise.all([save(a.apiKey, { slug }), save(b.apiKey, { slug })]);
    const codes = results.map((r) => r.body.errors?.[0]?.extensions?.code ?? 'OK').sort();
    expect(codes).toEqual(['CONFLICT', 'OK']);
  });

  it('online payment is refused while the server has no payment provider', async () => {
    const { apiKey } = await h.tenant();
    for (const paymentMode of ['ONLINE_REQUIRED', 'ONLINE_OPTIONAL']) {
      const res = await save(apiKey, { slug: freshSlug(), paymentMode });
      expect(res.body.errors[0].extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        reason: 'payment_provider_missing',
      });
      expect(res.body.errors[0].message).toMatch(/STRIPE_SECRET_KEY.*AT_VENUE/);
    }
    expect((await save(apiKey, { slug: freshSlug(), paymentMode: 'AT_VENUE' })).body.errors).toBeUndefined();
  });

  describe('with a payment provider', () => {
    let withStripe: OwnApp;
    beforeAll(async () => {
      withStripe = await ownApp(h, {
        env: { stripe: { secretKey: 'sk_test_x', webhookSecret: 'whsec_x', apiBase: new URL('http://127.0.0.1:9') } },
        options: { loadShedding: { maxEventLoopDelay: 0 } },
      });
    });
    afterAll(() => withStripe?.close());

    it('online modes are accepted', async () => {
      const { apiKey } = await h.tenant();
      const res = await withStripe.graphql(apiKey, UPDATE, {
        input: { slug: freshSlug(), paymentMode: 'ONLINE_REQUIRED' },
      });
      expect(res.body.data.updateBookingPageSettings).toMatchObject({
        paymentMode: 'ONLINE_REQUIRED',
        onlinePaymentAvailable: true,
      });
    });
  });

  it('REST: GET and PATCH /tenants/{id}/booking-page; another tenant’s path is 403', async () => {
    const { tenantId, apiKey } = await h.tenant();
    const slug = freshSlug();
    const patch = await h.request({
      method: 'PATCH',
      url: `/api/v1/tenants/${tenantId}/booking-page`,
      apiKey,
      body: { input: { slug, enabled: true, defaultLocale: 'DE' } },
    });
    expect(patch.status, patch.text).toBe(200);
    expect(patch.body).toMatchObject({ slug, enabled: true, defaultLocale: 'DE' });
    const get = await h.request({ method: 'GET', url: `/api/v1/tenants/${tenantId}/booking-page`, apiKey });
    expect(get.body).toMatchObject({ slug, enabled: true });
    const other = await h.tenant();
    const cross = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${tenantId}/booking-page`,
      apiKey: other.apiKey,
    });
    expect(cross.status).toBe(403);
    const crossWrite = await h.graphql(
      other.apiKey,
      UPDATE.replace('($input', '($t: ID, $input').replace('(input:', '(tenantId: $t, input:'),
      {
        t: tenantId,
        input: { enabled: false },
      },
    );
    expect(crossWrite.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await h.graphql(apiKey, '{ bookingPageSettings { enabled } }')).body.data.bookingPageSettings.enabled).toBe(
      true,
    );
  });

  it('scopes: reading needs catalog:read, saving admin', async () => {
    const { tenantId } = await h.tenant();
    const reader = await h.key(tenantId, ['catalog:read']);
    expect((await h.graphql(reader, '{ bookingPageSettings { enabled } }')).body.data.bookingPageSettings.enabled).toBe(
      false,
    );
    const writer = await h.key(tenantId, ['catalog:write', 'catalog:read', 'bookings:write']);
    const res = await save(writer, { slug: freshSlug() });
    expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('every save is audited as booking_page.updated with what changed (the logo by its length)', async () => {
    const { apiKey } = await h.tenant();
    const slug = freshSlug();
    await save(apiKey, { slug, logo: PNG });
    await save(apiKey, { enabled: true });
    const log = await h.graphql(apiKey, '{ auditLog(first: 10) { edges { node { action targetType details } } } }');
    const entries = log.body.data.auditLog.edges
      .map((e: { node: unknown }) => e.node)
      .filter((n: { action: string }) => n.action === 'booking_page.updated');
    expect(entries).toHaveLength(2);
    const [latest, first] = entries;
    expect(latest.details).toEqual({ changed: { enabled: { from: false, to: true } } });
    expect(first.details.changed.slug).toEqual({ from: null, to: slug });
    expect(first.details.changed.logo).toEqual({ from: null, to: `data: URL, ${PNG.length} characters` });
  });
});

describe('publishing objects', () => {
  it('publishObjects sets Object.published, audits each change, and refuses another tenant’s object (404, nothing changes)', async () => {
    const venue = await buildVenue(h, { objects: 2 });
    const other = await buildVenue(h);
    const [one, two] = venue.objects;
    const publish = `mutation($ids: [ID!]!, $p: Boolean!) { publishObjects(ids: $ids, published: $p) { objects { id published } } }`;
    const res = await h.graphql(venue.apiKey, publish, { ids: [one.id, two.id, one.id], p: true });
    expect(res.body.data.publishObjects.objects).toEqual([
      { id: one.id, published: true },
      { id: two.id, published: true },
    ]);
    // Again: nothing changes, nothing more is audited.
    await h.graphql(venue.apiKey, publish, { ids: [one.id], p: true });
    const withdrawn = await h.graphql(venue.apiKey, publish, { ids: [two.id], p: false });
    expect(withdrawn.body.data.publishObjects.objects).toEqual([{ id: two.id, published: false }]);

    const cross = await h.graphql(venue.apiKey, publish, { ids: [one.id, other.object.id], p: false });
    expect(cross.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const list = await h.graphql(venue.apiKey, '{ bookableObjects { id published } }');
    expect(list.body.data.bookableObjects).toEqual(
      expect.arrayContaining([
        { id: one.id, published: true },
        { id: two.id, published: false },
      ]),
    );
    const otherList = await h.graphql(other.apiKey, '{ bookableObjects { id published } }');
    expect(otherList.body.data.bookableObjects).toEqual([{ id: other.object.id, published: false }]);

    const log = await h.graphql(venue.apiKey, '{ auditLog(first: 20) { edges { node { action targetId } } } }');
    const actions = log.body.data.auditLog.edges
      .map((e: { node: { action: string; targetId: string } }) => `${e.node.action} ${e.node.targetId}`)
      .filter((a: string) => a.startsWith('object.'));
    expect(actions.sort()).toEqual(
      [`object.published ${one.id}`, `object.published ${two.id}`, `object.unpublished ${two.id}`].sort(),
    );
  });

  it('needs catalog:write; REST POST /objects/publish', async () => {
    const venue = await buildVenue(h);
    const reader = await h.key(venue.tenantId, ['catalog:read']);
    const refused = await h.graphql(
      reader,
      'mutation($ids: [ID!]!) { publishObjects(ids: $ids, published: true) { objects { id } } }',
      {
        ids: [venue.object.id],
      },
    );
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const writer = await h.key(venue.tenantId, ['catalog:write']);
    const rest = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${venue.tenantId}/objects/publish`,
      apiKey: writer,
      body: { ids: [venue.object.id], published: true },
    });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.objects).toEqual([expect.objectContaining({ id: venue.object.id })]);
    const bad = await h.request({
      method: 'POST',
      url: `/api/v1/tenants/${venue.tenantId}/objects/publish`,
      apiKey: writer,
      body: { ids: ['not-a-uuid'], published: true },
    });
    expect(bad.status).toBe(400);
  });
});
