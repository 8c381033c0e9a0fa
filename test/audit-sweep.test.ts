import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Kind, parse, type ObjectTypeDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness, type TestResponse } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildUser, OWN_ORIGIN } from './dashboard.js';
import { authorizeUrl, basic, CookieJar, formPost, injectHttp, pkce, runAuthorization } from './oauth-flow.js';
import { sha256 } from '../src/kernel/crypto.js';
import { buildBooking, slotInDays } from './builders.js';
import { createAccommodation, createObject } from '../src/modules/catalog/catalog.service.js';
import { parseCreateAccommodation, parseCreateObject } from '../src/modules/catalog/catalog.commands.js';

// Issue #23, finding 4: every action that changes who can do what, or what a door or webhook does,
// writes an audit entry with the actor, the client address and the time. Like the route-auth
// sweep: each such mutation (and the OAuth pages' sign-in and consent) runs once here, and a
// missing entry fails; every Mutation field of the SDL must be in the table or in NOT_AUDITED with
// its reason, so a new mutation cannot slip by without a decision.

const ADDRESS = '198.51.100.23';

/** Mutations that change neither who can do what nor what a door or webhook does (or are audited and tested elsewhere). */
const NOT_AUDITED: Record<string, string> = {
  markBookingPaid: 'audited (booking.marked_paid); a payment of a booking, covered in test/payments.test.ts',
  updateTenantSettings: 'audited (tenant_settings.updated); covered in test/payments.test.ts',
  retryRefund: 'audited (refund.retried); needs a failed refund (Stripe stand-in): test/payment-issues.test.ts',
  acknowledgePaymentIssue:
    'audited (payment_issue.acknowledged); needs a payment issue (Stripe stand-in): test/payment-issues.test.ts',
  updateNotificationSettings:
    'audited (notification_settings.updated); covered in test/notifications.test.ts › #42: audits and the test-mail limit',
  resendNotification:
    'audited (notification.resent); needs a sent notification (SMTP peer): test/notifications.test.ts › #42: audits …',
  sendTestNotificationEmail:
    'audited (notification.test_email_sent), 5 an hour per tenant; needs an SMTP peer: test/notifications.test.ts › #42 …',
  revokeGuestLink: 'audited (booking.guest_link_revoked); covered in test/guest-manage.test.ts › staff: the guest link',
  changePassword: 'audited (user.password_changed); needs a dashboard session: test/dashboard-users.test.ts',
  inviteUser: 'audited (user.invited); mails the link, needs an SMTP peer: test/staff-accounts.test.ts › invitations',
  revokeUserInvitation:
    'audited (user.invitation_revoked); needs a mailed invitation (SMTP peer): test/staff-accounts.test.ts › invitations',
  createBooking: 'bookings have their own event history',
  rescheduleBooking: 'bookings have their own event history',
  updateBookingStatus:
    'bookings have their own event history; a cancellation is audited (booking.cancelled, with its reason): test/no-show.test.ts',
  markNoShow:
    'audited (booking.no_show_marked); needs a booking that has started (a fixed clock): test/no-show.test.ts',
  createBookingSeries: 'bookings have their own event history (each occurrence, then series.created)',
  cancelBookingSeries: 'bookings have their own event history (each booking.cancelled, then series.updated/cancelled)',
  rescheduleBookingSeriesOccurrence: 'bookings have their own event history (booking.rescheduled, then series.updated)',
  updateBookingMetadata: "the integrator's own keys on a booking: no access, door or webhook change (updatedAt moves)",
  createPricingRule: 'prices',
  updatePricingRule: 'prices',
  deactivatePricingRule: 'prices',
  deletePricingRule: 'prices',
  createCancellationPolicy: 'refund rules',
  updateCancellationPolicy: 'refund rules',
  deleteCancellationPolicy: 'refund rules',
  setDefaultCancellationPolicy: 'refund rules',
  testWebhook: 'sends one test event; changes nothing',
  redeliverWebhookEvent: 'queues an existing event again; changes nothing',
  replayWebhookDeliveries: 'queues existing events again; changes nothing',
  updateBookingPageSettings:
    'audited (booking_page.updated, what changed); covered in test/booking-page-settings.test.ts',
  publishObjects:
    'audited (object.published / object.unpublished per object); covered in test/booking-page-settings.test.ts',
  createPublishableKey:
    'audited (api_key.created, and api_key.revoked for the key it replaces); covered in test/publishable-key.test.ts',
  createPublicBooking: 'a guest’s PENDING booking: bookings have their own event history',
  updateCustomer: 'audited (customer.updated, the changed fields’ names only); covered in test/customers.test.ts',
  mergeCustomers: 'audited (customer.merged); covered in test/customers.test.ts › mergeCustomers',
  eraseCustomer: 'audited (customer.erased, counts only); covered in test/customers-erase.test.ts',
};

let h: Harness;
let o: OwnApp;
let tenantId: string;
let adminKey: string;
let keyId: string;

beforeAll(async () => {
  h = await harness();
  o = await ownApp(h, { options: { loadShedding: { maxEventLoopDelay: 600_000 } } });
  ({ tenantId, apiKey: adminKey } = await h.tenant('Audit sweep'));
  const key = await h.deps.database.db
    .selectFrom('api_keys')
    .select('id')
    .where('key_hash', '=', sha256(adminKey))
    .executeTakeFirstOrThrow();
  keyId = key.id;
});
afterAll(async () => o?.close());

async function gql(query: string, variables: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const res: TestResponse = await o.request({
    method: 'POST',
    url: '/api/v1/graphql',
    apiKey: adminKey,
    body: { query, variables },
    remoteAddress: ADDRESS,
  });
  const body = res.body as { data?: Record<string, unknown>; errors?: unknown[] };
  if (body.errors) throw new Error(`${query}: ${JSON.stringify(body.errors)}`);
  return body.data ?? {};
}
const idOf = (value: unknown, ...path: string[]) =>
  path.reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], value) as string;

const fixture = {
  door: async () =>
    idOf(await gql('mutation { createDoor(name: "Fixture door", gpioPin: 5) { id } }'), 'createDoor', 'id'),
  webhook: async () =>
    idOf(
      await gql(
        'mutation($s: String!) { createWebhook(url: "https://hooks.audit.example.test/x", events: ["booking.created"], secret: $s) { webhook { id } } }',
        {
          s: `audit-secret-${randomUUID()}`,
        },
      ),
      'createWebhook',
      'webhook',
      'id',
    ),
  device: async (doorId: string) =>
    idOf(
      await gql('mutation($d: ID!) { registerDevice(name: "Fixture device", doorIds: [$d]) { device { id } } }', {
        d: doorId,
      }),
      'registerDevice',
      'device',
      'id',
    ),
  /** A booking of the tenant, on an object of its own (written through the import path). */
  booking: async () => {
    const db = h.deps.database.db;
    const accommodation = await createAccommodation(
      db,
      tenantId,
      parseCreateAccommodation({ name: 'Audit venue', address: 'Teststrasse 1', timeZone: 'Europe/Berlin' }),
    );
    const object = await createObject(
      db,
      tenantId,
      parseCreateObject({ accommodationId: accommodation.id, name: 'Audit court', pricePerHour: 2000 }),
    );
    const slot = slotInDays(3);
    return (await buildBooking(h, tenantId, object.id, { start: slot.startTime, end: slot.endTime })).id;
  },
  accommodation: async () =>
    idOf(
      await gql(
        'mutation { createAccommodation(name: "Audit hall", address: "Teststrasse 2", timeZone: "Europe/Berlin") { id } }',
      ),
      'createAccommodation',
      'id',
    ),
  object: async () =>
    idOf(
      await gql(
        'mutation($a: ID!) { createObject(accommodationId: $a, name: "Audit court", pricePerHour: 1500) { id } }',
        {
          a: await fixture.accommodation(),
        },
      ),
      'createObject',
      'id',
    ),
  oauthApp: async () =>
    idOf(
      await gql(
        'mutation { createOAuthApp(name: "Fixture app", redirectUris: ["https://audit.example.test/cb"], scopes: ["bookings:read"]) { app { clientId } } }',
      ),
      'createOAuthApp',
      'app',
      'clientId',
    ),
};

/** One row: the mutation, the action it must record, and a run that returns the target id. */
const MUTATIONS: { field: string; action: string; run: () => Promise<string> }[] = [
  // A venue's own provider credentials (issue #41): audited on the tenant, never with the secret.
  ...(
    [
      [
        'setStripeCredentials',
        'StripeCredentialsInput',
        { secretKey: 'sk_test_auditsweep0001', webhookSecret: 'whsec_auditsweep0001' },
      ],
      [
        'setSmtpCredentials',
        'SmtpCredentialsInput',
        { smtpUrl: 'smtp://u:auditsweep@mail.example.com', from: 'a@example.com' },
      ],
      [
        'setSmsCredentials',
        'SmsCredentialsInput',
        { accountSid: 'AC0001', authToken: 'auditsweep', from: '+15550001' },
      ],
    ] as const
  ).map(([field, type, input]) => ({
    field,
    action: 'provider_credentials.updated',
    run: async () => {
      await gql(`mutation($input: ${type}!) { ${field}(input: $input) { stripeWebhookUrl } }`, { input });
      return tenantId;
    },
  })),
  {
    field: 'clearProviderCredentials',
    action: 'provider_credentials.cleared',
    run: async () => {
      await gql(
        'mutation { setSmsCredentials(input: { accountSid: "AC0002", authToken: "t", from: "+1555" }) { stripeWebhookUrl } }',
      );
      await gql('mutation { clearProviderCredentials(provider: SMS) { stripeWebhookUrl } }');
      return tenantId;
    },
  },
  {
    field: 'createUser',
    action: 'user.created',
    run: async () =>
      idOf(
        await gql(
          'mutation($e: String!) { createUser(email: $e, password: "a long password 1", role: STAFF) { id } }',
          { e: `u-${randomUUID()}@example.test` },
        ),
        'createUser',
        'id',
      ),
  },
  {
    field: 'updateUserRole',
    action: 'user.role_changed',
    run: async () => {
      const user = await buildUser(h, tenantId, 'staff');
      await gql('mutation($id: ID!) { updateUserRole(id: $id, role: ADMIN) { id } }', { id: user.userId });
      return user.userId;
    },
  },
  {
    field: 'removeUser',
    action: 'user.removed',
    run: async () => {
      const user = await buildUser(h, tenantId, 'staff');
      await gql('mutation($id: ID!) { removeUser(id: $id) { removedUserId } }', { id: user.userId });
      return user.userId;
    },
  },
  {
    field: 'createApiKey',
    action: 'api_key.created',
    run: async () =>
      idOf(
        await gql('mutation { createApiKey(name: "swept", scopes: ["bookings:read"]) { apiKeyInfo { id } } }'),
        'createApiKey',
        'apiKeyInfo',
        'id',
      ),
  },
  {
    field: 'revokeApiKey',
    action: 'api_key.revoked',
    run: async () => {
      const id = idOf(
        await gql('mutation { createApiKey(name: "to revoke", scopes: ["bookings:read"]) { apiKeyInfo { id } } }'),
        'createApiKey',
        'apiKeyInfo',
        'id',
      );
      await gql('mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id });
      return id;
    },
  },
  {
    field: 'updateApiKey',
    action: 'api_key.updated',
    run: async () => {
      const id = idOf(
        await gql(
          'mutation { createApiKey(name: "to narrow", scopes: ["bookings:read", "devices:read"]) { apiKeyInfo { id } } }',
        ),
        'createApiKey',
        'apiKeyInfo',
        'id',
      );
      await gql('mutation($id: ID!) { updateApiKey(id: $id, scopes: ["devices:read"]) { id } }', { id });
      return id;
    },
  },
  { field: 'registerDevice', action: 'device.registered', run: async () => fixture.device(await fixture.door()) },
  {
    field: 'revokeDevice',
    action: 'device.revoked',
    run: async () => {
      const id = await fixture.device(await fixture.door());
      await gql('mutation($id: ID!) { revokeDevice(id: $id) { id } }', { id });
      return id;
    },
  },
  {
    field: 'setDeviceDoors',
    action: 'device.doors_changed',
    run: async () => {
      const id = await fixture.device(await fixture.door());
      await gql('mutation($id: ID!, $d: [ID!]!) { setDeviceDoors(id: $id, doorIds: $d) { id } }', {
        id,
        d: [await fixture.door()],
      });
      return id;
    },
  },
  {
    field: 'createDeviceCommand',
    action: 'device.command_created',
    run: async () => {
      const doorId = await fixture.door();
      const id = await fixture.device(doorId);
      await gql(
        'mutation($id: ID!, $d: ID!) { createDeviceCommand(deviceId: $id, type: "unlock", doorId: $d, durationSeconds: 5) { command { id } } }',
        { id, d: doorId },
      );
      return id;
    },
  },
  { field: 'createAccommodation', action: 'accommodation.created', run: () => fixture.accommodation() },
  {
    field: 'updateAccommodation',
    action: 'accommodation.updated',
    run: async () => {
      const id = await fixture.accommodation();
      await gql('mutation($id: ID!) { updateAccommodation(id: $id, name: "Renamed hall") { id } }', { id });
      return id;
    },
  },
  {
    field: 'deleteAccommodation',
    action: 'accommodation.deleted',
    run: async () => {
      const id = await fixture.accommodation();
      await gql('mutation($id: ID!) { deleteAccommodation(id: $id) }', { id });
      return id;
    },
  },
  { field: 'createObject', action: 'object.created', run: () => fixture.object() },
  {
    field: 'updateObject',
    action: 'object.updated',
    run: async () => {
      const id = await fixture.object();
      await gql('mutation($id: ID!) { updateObject(id: $id, pricePerHour: 1800) { id } }', { id });
      return id;
    },
  },
  {
    field: 'deleteObject',
    action: 'object.deleted',
    run: async () => {
      const id = await fixture.object();
      await gql('mutation($id: ID!) { deleteObject(id: $id) }', { id });
      return id;
    },
  },
  {
    field: 'setOpeningHours',
    action: 'object.opening_hours_changed',
    run: async () => {
      const id = await fixture.object();
      await gql(
        'mutation($id: ID!) { setOpeningHours(objectId: $id, schedule: { monday: { open: "08:00", close: "20:00" } }) { timeZone } }',
        { id },
      );
      return id;
    },
  },
  {
    field: 'setSpecialDate',
    action: 'object.special_date_set',
    run: async () => {
      const id = await fixture.object();
      await gql(
        'mutation($id: ID!) { setSpecialDate(objectId: $id, date: "2027-12-24", closed: true, reason: "Holiday") { timeZone } }',
        { id },
      );
      return id;
    },
  },
  {
    field: 'removeSpecialDate',
    action: 'object.special_date_removed',
    run: async () => {
      const id = await fixture.object();
      await gql(
        'mutation($id: ID!) { setSpecialDate(objectId: $id, date: "2027-12-24", closed: true, reason: "Holiday") { timeZone } }',
        { id },
      );
      await gql('mutation($id: ID!) { removeSpecialDate(objectId: $id, date: "2027-12-24") { timeZone } }', { id });
      return id;
    },
  },
  {
    field: 'setBookingRules',
    action: 'object.booking_rules_changed',
    run: async () => {
      const id = await fixture.object();
      await gql(
        'mutation($id: ID!) { setBookingRules(objectId: $id, rules: { minDurationMinutes: 60 }) { timeZone } }',
        {
          id,
        },
      );
      return id;
    },
  },
  { field: 'createDoor', action: 'door.created', run: () => fixture.door() },
  {
    field: 'updateDoor',
    action: 'door.updated',
    run: async () => {
      const id = await fixture.door();
      await gql('mutation($id: ID!) { updateDoor(id: $id, unlockDurationSeconds: 60) { id } }', { id });
      return id;
    },
  },
  {
    field: 'deleteDoor',
    action: 'door.deleted',
    run: async () => {
      const id = await fixture.door();
      await gql('mutation($id: ID!) { deleteDoor(id: $id) }', { id });
      return id;
    },
  },
  {
    field: 'setDoorOfflinePolicy',
    action: 'door.offline_policy_changed',
    run: async () => {
      await gql('mutation { setDoorOfflinePolicy(maxOfflineSeconds: 86400) { maxOfflineSeconds } }');
      return tenantId;
    },
  },
  {
    field: 'rotateDoorSigningKey',
    action: 'door.signing_key_rotated',
    run: async () => {
      await gql('mutation { rotateDoorSigningKey { kid } }');
      return tenantId;
    },
  },
  { field: 'createWebhook', action: 'webhook.created', run: () => fixture.webhook() },
  {
    field: 'updateWebhook',
    action: 'webhook.updated',
    run: async () => {
      const id = await fixture.webhook();
      await gql(
        'mutation($id: ID!) { updateWebhook(webhookId: $id, events: ["booking.cancelled"]) { webhook { id } } }',
        { id },
      );
      return id;
    },
  },
  {
    field: 'deleteWebhook',
    action: 'webhook.deleted',
    run: async () => {
      const id = await fixture.webhook();
      await gql('mutation($id: ID!) { deleteWebhook(webhookId: $id) { __typename } }', { id });
      return id;
    },
  },
  {
    field: 'rotateWebhookSecret',
    action: 'webhook.secret_rotated',
    run: async () => {
      const id = await fixture.webhook();
      await gql('mutation($id: ID!) { rotateWebhookSecret(webhookId: $id) { secret } }', { id });
      return id;
    },
  },
  { field: 'createOAuthApp', action: 'oauth_app.created', run: () => fixture.oauthApp() },
  {
    field: 'rotateOAuthAppSecret',
    action: 'oauth_app.secret_rotated',
    run: async () => {
      const id = await fixture.oauthApp();
      await gql('mutation($id: ID!) { rotateOAuthAppSecret(clientId: $id) { clientSecret } }', { id });
      return id;
    },
  },
  {
    field: 'deleteOAuthApp',
    action: 'oauth_app.deleted',
    run: async () => {
      const id = await fixture.oauthApp();
      await gql('mutation($id: ID!) { deleteOAuthApp(clientId: $id) }', { id });
      return id;
    },
  },
  {
    field: 'updateBookingGuest',
    action: 'booking.guest_updated',
    run: async () => {
      const id = await fixture.booking();
      await gql(
        'mutation($id: ID!) { updateBookingGuest(bookingId: $id, guestName: "Grace Hopper", guestPhone: "+49 30 1234567") { booking { id } } }',
        { id },
      );
      return id;
    },
  },
  {
    field: 'revokeConnectedApp',
    action: 'connected_app.revoked',
    run: async () => {
      const clientId = await fixture.oauthApp();
      const user = await buildUser(h, tenantId, 'admin');
      const flow = await runAuthorization(injectHttp(o.app.fastify), {
        url: authorizeUrl({
          clientId,
          redirectUri: 'https://audit.example.test/cb',
          scope: 'bookings:read',
          state: 's',
          challenge: pkce().challenge,
        }),
        origin: OWN_ORIGIN,
        email: user.email,
        password: user.password,
      });
      expect(flow.redirect?.searchParams.get('code')).toBeTruthy();
      await gql('mutation($id: ID!) { revokeConnectedApp(clientId: $id) }', { id: clientId });
      return clientId;
    },
  },
];

async function entriesOf(action: string, targetId: string) {
  return h.deps.database.db
    .selectFrom('audit_log')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('action', '=', action)
    .where('target_id', '=', targetId)
    .execute();
}

describe('audit sweep (issue #23, finding 4)', () => {
  it('finding 4: every Mutation field is either audited below or listed as not changing who can do what', () => {
    const sdl = parse(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8'));
    const mutation = sdl.definitions.find(
      (d): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === 'Mutation',
    );
    const fields = (mutation?.fields ?? []).map((f) => f.name.value).sort();
    const decided = [...MUTATIONS.map((m) => m.field), ...Object.keys(NOT_AUDITED)].sort();
    expect(decided).toEqual(fields);
  });

  it.each(MUTATIONS)(
    'finding 4: $field records $action with the actor (the API key), the address and the time',
    { timeout: 120_000 },
    async ({ action, run }) => {
      const before = h.deps.now();
      const targetId = await run();
      const entries = await entriesOf(action, targetId);
      expect(entries.length, `no ${action} entry for ${targetId}`).toBeGreaterThanOrEqual(1);
      const entry = entries[entries.length - 1];
      expect(entry.actor_type).toBe('apiKey');
      expect(entry.actor_id).toBe(keyId);
      expect(entry.ip).toBe(ADDRESS);
      expect(entry.occurred_at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    },
  );

  it(
    'finding 4: the REST routes record the same entries (webhook create and rotate-secret)',
    { timeout: 120_000 },
    async () => {
      const created = await o.request({
        method: 'POST',
        url: `/api/v1/tenants/${tenantId}/webhooks`,
        apiKey: adminKey,
        remoteAddress: ADDRESS,
        body: {
          url: 'https://hooks.audit.example.test/rest',
          events: ['booking.created'],
          secret: `audit-secret-${randomUUID()}`,
        },
      });
      expect(created.status).toBe(201);
      const id = (created.body as { webhook: { id: string } }).webhook.id;
      const rotated = await o.request({
        method: 'POST',
        url: `/api/v1/tenants/${tenantId}/webhooks/${id}/rotate-secret`,
        apiKey: adminKey,
        remoteAddress: ADDRESS,
        body: {},
      });
      expect(rotated.status).toBe(200);
      for (const action of ['webhook.created', 'webhook.secret_rotated']) {
        const [entry] = await entriesOf(action, id);
        expect(entry, action).toMatchObject({ actor_type: 'apiKey', actor_id: keyId, ip: ADDRESS });
      }
    },
  );

  it(
    '#23 finding 4: the REST webhook update and delete routes record webhook.updated and webhook.deleted',
    { timeout: 120_000 },
    async () => {
      const id = await fixture.webhook();
      const url = `/api/v1/tenants/${tenantId}/webhooks/${id}`;
      const before = h.deps.now();
      const updated = await o.request({
        method: 'PATCH',
        url,
        apiKey: adminKey,
        remoteAddress: ADDRESS,
        body: { events: ['booking.cancelled'] },
      });
      expect(updated.status, updated.text).toBe(200);
      const deleted = await o.request({ method: 'DELETE', url, apiKey: adminKey, remoteAddress: ADDRESS });
      expect(deleted.status, deleted.text).toBe(200);
      for (const action of ['webhook.updated', 'webhook.deleted']) {
        const entries = await entriesOf(action, id);
        expect(entries, action).toHaveLength(1);
        expect(entries[0], action).toMatchObject({ actor_type: 'apiKey', actor_id: keyId, ip: ADDRESS });
        expect(entries[0].occurred_at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
      }
    },
  );

  it(
    '#23 finding 4: activating a device (POST /api/devices/activate, which issues its key) records device.activated with the address and the time, never the key',
    { timeout: 120_000 },
    async () => {
      const registered = await gql(
        'mutation($d: ID!) { registerDevice(name: "Activated device", doorIds: [$d]) { activationCode device { id } } }',
        { d: await fixture.door() },
      );
      const deviceId = idOf(registered, 'registerDevice', 'device', 'id');
      const activationCode = idOf(registered, 'registerDevice', 'activationCode');
      const before = h.deps.now();
      const activated = await o.request({
        method: 'POST',
        url: '/api/devices/activate',
        remoteAddress: ADDRESS,
        body: { activation_code: activationCode, serial: 'SN-AUDIT-1', firmware_version: '1.0.0' },
      });
      expect(activated.status, activated.text).toBe(200);
      const deviceKey = (activated.body as { device_key: string }).device_key;
      const entries = await entriesOf('device.activated', deviceId);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ actor_type: 'anonymous', actor_label: 'activation code', ip: ADDRESS });
      expect(entries[0]?.details).toMatchObject({ serial: 'SN-AUDIT-1', firmwareVersion: '1.0.0' });
      expect(entries[0]?.occurred_at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
      expect(JSON.stringify(entries[0])).not.toContain(deviceKey);
      // A refused second use records nothing more.
      const again = await o.request({
        method: 'POST',
        url: '/api/devices/activate',
        remoteAddress: ADDRESS,
        body: { activation_code: activationCode, serial: 'SN-AUDIT-1', firmware_version: '1.0.0' },
      });
      expect(again.status).toBe(409);
      expect(await entriesOf('device.activated', deviceId)).toHaveLength(1);
    },
  );

  it(
    '#23: a mutation made with an OAuth access token records the OAuth app (acting for its user) as the actor, with the address and the time',
    { timeout: 120_000 },
    async () => {
      const redirectUri = 'https://audit.example.test/oauth-actor';
      const created = await gql(
        'mutation($r: String!) { createOAuthApp(name: "Acting app", redirectUris: [$r], scopes: ["webhooks:write"]) { app { clientId } clientSecret } }',
        { r: redirectUri },
      );
      const clientId = idOf(created, 'createOAuthApp', 'app', 'clientId');
      const clientSecret = idOf(created, 'createOAuthApp', 'clientSecret');
      const user = await buildUser(h, tenantId, 'admin');
      const http = injectHttp(o.app.fastify);
      const { verifier, challenge } = pkce();
      const flow = await runAuthorization(http, {
        url: authorizeUrl({ clientId, redirectUri, scope: 'webhooks:write', state: 'actor', challenge }),
        origin: OWN_ORIGIN,
        email: user.email,
        password: user.password,
      });
      const code = flow.redirect?.searchParams.get('code');
      expect(code, JSON.stringify(flow.pages)).toBeTruthy();
      const token = await formPost(
        http,
        '/oauth/token',
        { grant_type: 'authorization_code', code: code ?? '', redirect_uri: redirectUri, code_verifier: verifier },
        basic(clientId, clientSecret),
      );
      expect(token.status, JSON.stringify(token.body)).toBe(200);
      const accessToken = String(token.body.access_token);

      // Through GraphQL and through the REST route, with the app's access token.
      const before = h.deps.now();
      const viaGraphql = await o.request({
        method: 'POST',
        url: '/api/v1/graphql',
        apiKey: accessToken,
        remoteAddress: ADDRESS,
        body: {
          query:
            'mutation($s: String!) { createWebhook(url: "https://hooks.audit.example.test/oauth", events: ["booking.created"], secret: $s) { webhook { id } } }',
          variables: { s: `audit-secret-${randomUUID()}` },
        },
      });
      expect(viaGraphql.body.errors, viaGraphql.text).toBeUndefined();
      const viaRest = await o.request({
        method: 'POST',
        url: `/api/v1/tenants/${tenantId}/webhooks`,
        apiKey: accessToken,
        remoteAddress: ADDRESS,
        body: {
          url: 'https://hooks.audit.example.test/oauth-rest',
          events: ['booking.created'],
          secret: `audit-secret-${randomUUID()}`,
        },
      });
      expect(viaRest.status, viaRest.text).toBe(201);
      for (const id of [viaGraphql.body.data.createWebhook.webhook.id, viaRest.body.webhook.id] as string[]) {
        const entries = await entriesOf('webhook.created', id);
        expect(entries, id).toHaveLength(1);
        const [entry] = entries;
        // The actor is the app acting for the user who granted it: type oauth, the user's id, both named.
        expect(entry).toMatchObject({ actor_type: 'oauth', actor_id: user.userId, ip: ADDRESS });
        expect(entry.actor_label).toBe(`${user.email} through OAuth app ${clientId}`);
        expect(entry.actor_id).not.toBe(keyId);
        expect(entry.occurred_at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
        expect(entry.occurred_at.getTime()).toBeLessThanOrEqual(h.deps.now().getTime() + 1000);
      }
      // The audit log shows the same through the API.
      const ids = [viaGraphql.body.data.createWebhook.webhook.id, viaRest.body.webhook.id] as string[];
      const log = await gql(
        '{ auditLog(first: 20) { edges { node { action targetId ipAddress actor { type id label } } } } }',
      );
      const nodes = (log.auditLog as { edges: { node: { targetId: string | null } }[] }).edges
        .map((e) => e.node)
        .filter((n) => ids.includes(n.targetId ?? ''));
      const actor = { type: 'oauth', id: user.userId, label: `${user.email} through OAuth app ${clientId}` };
      expect(nodes).toEqual(
        [...ids].reverse().map((id) => ({ action: 'webhook.created', targetId: id, ipAddress: ADDRESS, actor })),
      );
    },
  );

  it(
    'finding 4: the OAuth pages record a failed sign-in (anonymous), and consent allowed and denied (the user)',
    { timeout: 120_000 },
    async () => {
      const clientId = await fixture.oauthApp();
      const user = await buildUser(h, tenantId, 'admin');
      const http = injectHttp(o.app.fastify);
      const url = (state: string) =>
        authorizeUrl({
          clientId,
          redirectUri: 'https://audit.example.test/cb',
          scope: 'bookings:read',
          state,
          challenge: pkce().challenge,
        });
      const wrong = await runAuthorization(http, {
        url: url('a'),
        origin: OWN_ORIGIN,
        email: user.email,
        password: 'wrong password!',
      });
      expect(wrong.last.status).toBe(401);
      const [failed] = await entriesOf('session.sign_in_failed', user.userId);
      expect(failed).toMatchObject({ actor_type: 'anonymous', details: { via: 'oauth_authorization' } });
      expect(failed.ip).toBeTruthy();

      const denied = await runAuthorization(http, {
        url: url('b'),
        origin: OWN_ORIGIN,
        email: user.email,
        password: user.password,
        decision: 'deny',
        jar: new CookieJar(),
      });
      expect(denied.redirect?.searchParams.get('error')).toBe('access_denied');
      const allowed = await runAuthorization(http, {
        url: url('c'),
        origin: OWN_ORIGIN,
        email: user.email,
        password: user.password,
        decision: 'allow',
      });
      expect(allowed.redirect?.searchParams.get('code')).toBeTruthy();
      for (const action of ['oauth.consent_denied', 'oauth.consent_allowed']) {
        const [entry] = await entriesOf(action, clientId);
        expect(entry, action).toMatchObject({ actor_type: 'user', actor_id: user.userId, actor_label: user.email });
        expect(entry.ip).toBeTruthy();
      }
    },
  );
});
