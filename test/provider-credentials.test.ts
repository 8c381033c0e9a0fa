import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildVenue, slotInDays } from './builders.js';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in.js';
import { startSmsPeer, startSmtpPeer, type SmsPeer, type SmtpPeer } from './peers/mail-peers.js';
import { NotificationSender } from '../src/modules/notifications/index.js';

// Issue #41: a venue's own Stripe, SMTP and SMS credentials set through the API (the dashboard's
// Admin → Booking page): sealed at rest, never shown again, used from the next send on without a
// restart, and the environment's still win (docs/payments.md, "Credentials in the dashboard").

let h: Harness;
let app: OwnApp; // no STRIPE_*, SMTP_URL or SMS_* in its environment
let envApp: OwnApp; // STRIPE_* of its own (stripeEnv)
let stripeA: StripeStandIn;
let stripeB: StripeStandIn;
let stripeEnv: StripeStandIn;
let smtp: SmtpPeer;
let sms: SmsPeer;

const STATUS = '{ set hint source updatedAt }';
const VIEW = `{ stripe ${STATUS} smtp ${STATUS} sms ${STATUS} stripeWebhookUrl }`;
const SET_STRIPE = `mutation($input: StripeCredentialsInput!) { setStripeCredentials(input: $input) ${VIEW} }`;
const SET_SMTP = `mutation($input: SmtpCredentialsInput!) { setSmtpCredentials(input: $input) ${VIEW} }`;
const SET_SMS = `mutation($input: SmsCredentialsInput!) { setSmsCredentials(input: $input) ${VIEW} }`;
const stripeInput = (s: StripeStandIn) => ({ secretKey: s.secretKey, webhookSecret: s.webhookSecret, apiBase: s.url });

beforeAll(async () => {
  h = await harness();
  [stripeA, stripeB, stripeEnv, smtp, sms] = await Promise.all([
    startStripeStandIn(),
    startStripeStandIn(),
    startStripeStandIn(),
    startSmtpPeer(),
    startSmsPeer(),
  ]);
  app = await ownApp(h, { env: { stripe: undefined, mail: null, sms: null } });
  envApp = await ownApp(h, {
    env: {
      stripe: {
        secretKey: stripeEnv.secretKey,
        webhookSecret: stripeEnv.webhookSecret,
        apiBase: new URL(stripeEnv.url),
      },
      mail: null,
      sms: null,
    },
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await envApp?.close();
  await Promise.all([stripeA, stripeB, stripeEnv, smtp, sms].map((peer) => peer?.close()));
});

async function pendingBooking(
  target: OwnApp,
  v: { tenantId: string; apiKey: string; object: { id: string } },
  days: number,
) {
  const res = await target.request({
    method: 'POST',
    url: `/api/v1/tenants/${v.tenantId}/bookings`,
    apiKey: v.apiKey,
    body: { objectId: v.object.id, guestName: 'Ada', guestEmail: 'ada@example.com', ...slotInDays(days) },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.booking as { id: string; paymentUrl: string };
}

/** Opens the booking's paymentUrl: the Checkout Session's address it redirects to, or null (a page). */
async function checkoutOf(target: OwnApp, booking: { paymentUrl: string }) {
  const res = await target.request({ method: 'GET', url: new URL(booking.paymentUrl).pathname });
  return res.status === 303 ? String(res.headers.location) : null;
}

const sessionIdOf = (location: string) => /\/pay\/(cs_test_[0-9a-f]+)$/.exec(location)?.[1] ?? '';

async function rowsOf(tenantId: string) {
  return h.deps.database.db.selectFrom('provider_credentials').selectAll().where('tenant_id', '=', tenantId).execute();
}

describe('Stripe keys set through the API', () => {
  it('are used for the next checkout without a restart, sealed at rest, never shown again, audited without the secret', async () => {
    const v = await buildVenue(h);
    const before = await app.graphql(v.apiKey, `{ providerCredentials ${VIEW} }`);
    expect(before.body.data.providerCredentials.stripe).toEqual({
      set: false,
      hint: null,
      source: 'NONE',
      updatedAt: null,
    });
    // Nothing set: the paymentUrl shows "pay at the venue", no session.
    const early = await pendingBooking(app, v, 3);
    expect(await checkoutOf(app, early)).toBeNull();

    const set = await app.graphql(v.apiKey, SET_STRIPE, { input: stripeInput(stripeA) });
    expect(set.body.errors).toBeUndefined();
    expect(set.body.data.setStripeCredentials.stripe).toEqual({
      set: true,
      hint: `…${stripeA.secretKey.slice(-4)}`,
      source: 'DASHBOARD',
      updatedAt: expect.any(String),
    });
    expect(set.body.data.setStripeCredentials.stripeWebhookUrl).toBe(
      `http://portier.test/api/payments/stripe/webhook/${v.tenantId}`,
    );
    for (const secret of [stripeA.secretKey, stripeA.webhookSecret]) expect(set.text).not.toContain(secret);

    // Sealed at rest: the row holds neither secret, and the sealed value is AES-GCM's format.
    const [row] = await rowsOf(v.tenantId);
    expect(row?.sealed).toMatch(/^a2\./);
    for (const secret of [stripeA.secretKey, stripeA.webhookSecret, stripeA.secretKey.slice(8)])
      expect(JSON.stringify(row)).not.toContain(secret);
    // Audited: which provider and its hint, never a secret.
    const log = await app.graphql(v.apiKey, '{ auditLog(first: 5) { edges { node { action details } } } }');
    const entry = log.body.data.auditLog.edges.find(
      (e: { node: { action: string } }) => e.node.action === 'provider_credentials.updated',
    ).node;
    expect(entry.details).toEqual({
      provider: 'stripe',
      hint: `…${stripeA.secretKey.slice(-4)}`,
      replaced: false,
      environmentOverrides: false,
    });
    expect(log.text).not.toContain(stripeA.secretKey);
    expect(log.text).not.toContain(stripeA.webhookSecret);

    // The next checkout: through the venue's own account, the same process.
    const booking = await pendingBooking(app, v, 4);
    const location = await checkoutOf(app, booking);
    expect(location).toMatch(new RegExp(`^${stripeA.url}/pay/cs_test_`));
    const created = stripeA.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    expect(created).toHaveLength(1);
    expect(created[0]?.headers.authorization).toBe(`Bearer ${stripeA.secretKey}`);
    // Paying: the event comes to the venue's endpoint, signed with the venue's secret.
    const event = stripeA.complete(sessionIdOf(location!));
    const signed = stripeA.sign(event);
    const post = (url: string, header = signed.header) =>
      app.request({
        method: 'POST',
        url,
        body: signed.payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': header },
      });
    // The plain endpoint has no account here; another tenant's endpoint has no keys.
    expect((await post('/api/payments/stripe/webhook')).status).toBe(404);
    const other = await buildVenue(h);
    expect((await post(`/api/payments/stripe/webhook/${other.tenantId}`)).status).toBe(404);
    // Signed with another secret: refused.
    const forged = stripeB.sign(event);
    expect((await post(`/api/payments/stripe/webhook/${v.tenantId}`, forged.header)).status).toBe(400);
    const applied = await post(`/api/payments/stripe/webhook/${v.tenantId}`);
    expect(applied.status, applied.text).toBe(200);
    const paid = await app.graphql(v.apiKey, 'query($id: ID!) { booking(id: $id) { status payment { status } } }', {
      id: booking.id,
    });
    expect(paid.body.data.booking.payment.status).toBe('PAID');

    // New keys: the next checkout goes to the new account at once (this process forgot the old one).
    const replaced = await app.graphql(v.apiKey, SET_STRIPE, { input: stripeInput(stripeB) });
    expect(replaced.body.data.setStripeCredentials.stripe.hint).toBe(`…${stripeB.secretKey.slice(-4)}`);
    const next = await pendingBooking(app, v, 5);
    expect(await checkoutOf(app, next)).toMatch(new RegExp(`^${stripeB.url}/pay/cs_test_`));
    // Another process (its own cache) sees the change within RECHECK_MS; a fresh one at once.
    const fresh = await ownApp(h, { env: { stripe: undefined, mail: null, sms: null } });
    try {
      expect(await checkoutOf(fresh, await pendingBooking(fresh, v, 6))).toMatch(new RegExp(`^${stripeB.url}/`));
    } finally {
      await fresh.close();
    }

    // Cleared: pay at the venue again; audited.
    const cleared = await app.graphql(v.apiKey, `mutation { clearProviderCredentials(provider: STRIPE) ${VIEW} }`);
    expect(cleared.body.data.clearProviderCredentials.stripe).toMatchObject({ set: false, source: 'NONE' });
    expect(await checkoutOf(app, await pendingBooking(app, v, 7))).toBeNull();
    expect(await rowsOf(v.tenantId)).toEqual([]);
    const actions = await app.graphql(v.apiKey, '{ auditLog(first: 5) { edges { node { action } } } }');
    expect(actions.body.data.auditLog.edges.map((e: { node: { action: string } }) => e.node.action)).toContain(
      'provider_credentials.cleared',
    );
  });

  it('the environment’s STRIPE_SECRET_KEY wins over stored keys, and the answer says so', async () => {
    const v = await buildVenue(h);
    const set = await envApp.graphql(v.apiKey, SET_STRIPE, { input: stripeInput(stripeA) });
    expect(set.body.data.setStripeCredentials.stripe).toMatchObject({ set: true, source: 'ENVIRONMENT' });
    const before = stripeA.requests.length;
    const location = await checkoutOf(envApp, await pendingBooking(envApp, v, 8));
    expect(location).toMatch(new RegExp(`^${stripeEnv.url}/pay/cs_test_`));
    expect(stripeA.requests.length).toBe(before);
    const log = await envApp.graphql(v.apiKey, '{ auditLog(first: 1) { edges { node { details } } } }');
    expect(log.body.data.auditLog.edges[0].node.details).toMatchObject({ environmentOverrides: true });
  });

  it('REST (SOFA): PUT, GET and DELETE under /provider-credentials; never the secret', async () => {
    const v = await buildVenue(h);
    const base = `/api/v1/tenants/${v.tenantId}/provider-credentials`;
    const put = await app.request({
      method: 'PUT',
      url: `${base}/stripe`,
      apiKey: v.apiKey,
      body: { input: stripeInput(stripeA) },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.stripe).toMatchObject({ set: true, source: 'DASHBOARD' });
    const got = await app.request({ method: 'GET', url: base, apiKey: v.apiKey });
    expect(got.status).toBe(200);
    expect(got.text).not.toContain(stripeA.secretKey);
    expect(got.body.stripe.hint).toBe(`…${stripeA.secretKey.slice(-4)}`);
    const del = await app.request({ method: 'DELETE', url: `${base}/STRIPE`, apiKey: v.apiKey });
    expect(del.status, del.text).toBe(200);
    expect(del.body.stripe.set).toBe(false);
  });
});

describe('what is refused', () => {
  it('names the field: Stripe, SMTP and SMS settings are checked as the environment’s are', async () => {
    const v = await buildVenue(h);
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      [
        SET_STRIPE,
        { secretKey: 'pk_test_123456789', webhookSecret: 'whsec_abcdefghij' },
        'secretKey',
        /secret or restricted key/,
      ],
      [SET_STRIPE, { secretKey: 'sk_test_123456789', webhookSecret: 'nope' }, 'webhookSecret', /whsec_/],
      [SET_STRIPE, { secretKey: 'sk_test_123456789', webhookSecret: '' }, 'webhookSecret', /is required/],
      [
        SET_STRIPE,
        { secretKey: 'sk_test_123456789', webhookSecret: 'whsec_abcdefghij', apiBase: 'ftp://x' },
        'apiBase',
        /http\(s\) origin/,
      ],
      [SET_SMTP, { smtpUrl: 'http://mail.example.com', from: 'a@example.com' }, 'smtpUrl', /smtp:\/\/ or smtps:\/\//],
      [SET_SMTP, { smtpUrl: 'smtp://mail.example.com', from: 'not an address' }, 'from', /address/],
      [SET_SMS, { accountSid: 'AC-1', authToken: 't', from: '+1555' }, 'accountSid', /letters and digits/],
      [SET_SMS, { accountSid: 'AC1', authToken: ' ', from: '+1555' }, 'authToken', /is required/],
    ];
    for (const [mutation, input, field, message] of cases) {
      const res = await app.graphql(v.apiKey, mutation, { input });
      const what = `${JSON.stringify(input)}: ${res.text.slice(0, 300)}`;
      expect(res.body.errors?.[0]?.extensions?.code, what).toBe('BAD_USER_INPUT');
      expect(res.body.errors[0].extensions.fields, what).toEqual([{ field, message: expect.stringMatching(message) }]);
    }
    expect(await rowsOf(v.tenantId)).toEqual([]);
  });

  it('another API origin only where private networks are allowed; only an admin; never another tenant', async () => {
    const strict = await ownApp(h, {
      env: { stripe: undefined, mail: null, sms: null, webhookAllowPrivateNetworks: false },
    });
    try {
      const v = await buildVenue(h);
      const res = await strict.graphql(v.apiKey, SET_STRIPE, { input: stripeInput(stripeA) });
      expect(res.body.errors[0].extensions.fields).toEqual([
        { field: 'apiBase', message: expect.stringMatching(/WEBHOOK_ALLOW_PRIVATE_NETWORKS/) },
      ]);
      const { apiBase: _, ...withoutBase } = stripeInput(stripeA);
      const ok = await strict.graphql(v.apiKey, SET_STRIPE, { input: withoutBase });
      expect(ok.body.data.setStripeCredentials.stripe.set).toBe(true);
      const staff = await h.key(v.tenantId, ['bookings:write', 'catalog:write', 'catalog:read', 'bookings:read']);
      for (const query of [
        `{ providerCredentials ${VIEW} }`,
        `mutation { clearProviderCredentials(provider: SMS) ${VIEW} }`,
      ])
        expect((await app.graphql(staff, query)).body.errors[0].extensions.code).toBe('FORBIDDEN');
      const other = await buildVenue(h);
      const cross = await app.graphql(other.apiKey, `query($t: ID) { providerCredentials(tenantId: $t) ${VIEW} }`, {
        t: v.tenantId,
      });
      expect(cross.body.errors[0].extensions.code).toBe('FORBIDDEN');
    } finally {
      await strict.close();
    }
  });
});

describe('SMTP and SMS set through the API', () => {
  it('a test mail and the guest’s messages go out through them, without a restart; the environment’s none', async () => {
    const v = await buildVenue(h);
    const password = 'sm7p-Pa55word';
    const smtpSet = await app.graphql(v.apiKey, SET_SMTP, {
      input: { smtpUrl: `smtp://venue:${password}@127.0.0.1:${smtp.port}`, from: 'desk@venue.example' },
    });
    expect(smtpSet.body.data.setSmtpCredentials.smtp).toMatchObject({
      set: true,
      source: 'DASHBOARD',
      hint: `127.0.0.1:${smtp.port} · desk@venue.example`,
    });
    expect(smtpSet.text).not.toContain(password);
    const smsSet = await app.graphql(v.apiKey, SET_SMS, {
      input: { accountSid: 'AC99887766554433', authToken: 'venue-sms-token', from: '+15550002222', apiBase: sms.url },
    });
    expect(smsSet.body.data.setSmsCredentials.sms).toMatchObject({ set: true, hint: 'AC…4433 · +15550002222' });
    expect(smsSet.text).not.toContain('venue-sms-token');
    for (const row of await rowsOf(v.tenantId)) {
      expect(JSON.stringify(row)).not.toContain(password);
      expect(JSON.stringify(row)).not.toContain('venue-sms-token');
    }

    const mails = smtp.mails.length;
    const test = await app.graphql(
      v.apiKey,
      'mutation { sendTestNotificationEmail(to: "owner@venue.example") { success error } }',
    );
    expect(test.body.data.sendTestNotificationEmail, test.text).toEqual({ success: true, error: null });
    const [mail] = (await smtp.waitFor(mails + 1)).slice(mails);
    expect(mail?.auth).toEqual({ username: 'venue', password });
    expect(mail?.parsed.from?.text).toContain('desk@venue.example');

    // A confirmed booking with a phone: its mail and SMS are queued and sent through the venue's own.
    const res = await app.request({
      method: 'POST',
      url: `/api/v1/tenants/${v.tenantId}/bookings`,
      apiKey: v.apiKey,
      body: {
        objectId: v.object.id,
        guestName: 'Grace',
        guestEmail: 'grace@example.com',
        guestPhone: '+491701234567',
        status: 'CONFIRMED',
        ...slotInDays(9),
      },
    });
    expect(res.status, res.text).toBe(201);
    const smsBefore = sms.requests.length;
    // The app's own sender may take them first: drain here too, then wait for both peers. The
    // drain's summary is not asserted: it also attempts other tests' due notifications in the
    // shared database (some of those venues' providers are down on purpose).
    const sender = new NotificationSender({ deps: app.deps, timeoutMs: 20_000 });
    await sender.drain();
    const toGrace = () => smtp.mails.some((m) => JSON.stringify(m.parsed.to ?? '').includes('grace@example.com'));
    for (let i = 0; i < 200 && (sms.requests.length === smsBefore || !toGrace()); i += 1)
      await new Promise((r) => setTimeout(r, 50));
    const texts = sms.requests.slice(smsBefore);
    expect(texts.map((r) => r.path)).toContain('/2010-04-01/Accounts/AC99887766554433/Messages.json');
    expect(texts[0]?.authorization).toBe(`Basic ${Buffer.from('AC99887766554433:venue-sms-token').toString('base64')}`);
    const guestMails = smtp.mails.filter(
      (m) => m.parsed.to && JSON.stringify(m.parsed.to).includes('grace@example.com'),
    );
    expect(guestMails.length).toBeGreaterThanOrEqual(1);
  });
});

describe('NotificationSettings.emailAvailable / smsAvailable', () => {
  const AVAILABLE = '{ notificationSettings { emailAvailable smsAvailable } }';

  it('say true once the venue stored its own SMTP / SMS credentials (no SMTP_URL or SMS_* in the environment), false again once cleared', async () => {
    const v = await buildVenue(h);
    const available = async () => (await app.graphql(v.apiKey, AVAILABLE)).body.data.notificationSettings;
    expect(await available()).toEqual({ emailAvailable: false, smsAvailable: false });

    await app.graphql(v.apiKey, SET_SMTP, {
      input: { smtpUrl: `smtp://venue:pw@127.0.0.1:${smtp.port}`, from: 'desk@venue.example' },
    });
    expect(await available()).toEqual({ emailAvailable: true, smsAvailable: false });
    await app.graphql(v.apiKey, SET_SMS, {
      input: { accountSid: 'AC11223344556677', authToken: 'venue-sms-token', from: '+15550003333', apiBase: sms.url },
    });
    expect(await available()).toEqual({ emailAvailable: true, smsAvailable: true });
    // The mutation's answer says the same.
    const updated = await app.graphql(
      v.apiKey,
      'mutation { updateNotificationSettings(input: { smsEnabled: false }) { emailAvailable smsAvailable } }',
    );
    expect(updated.body.data.updateNotificationSettings).toEqual({ emailAvailable: true, smsAvailable: true });

    await app.graphql(v.apiKey, `mutation { clearProviderCredentials(provider: SMTP) ${VIEW} }`);
    expect(await available()).toEqual({ emailAvailable: false, smsAvailable: true });
    // Another venue on the same installation has none of its own.
    const other = await buildVenue(h);
    expect((await app.graphql(other.apiKey, AVAILABLE)).body.data.notificationSettings).toEqual({
      emailAvailable: false,
      smsAvailable: false,
    });
  });
});
