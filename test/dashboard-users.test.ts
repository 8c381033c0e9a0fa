import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildDoor, buildVenue } from './builders.js';
import { buildUser, OWN_ORIGIN, PASSWORD, sessionGraphql, signIn, type SignedIn } from './dashboard.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

/** A tenant with one signed-in admin. */
async function adminSession() {
  const { tenantId, apiKey } = await h.tenant('Team tenant');
  const admin = await buildUser(h, tenantId, 'admin');
  const session = await signIn(h.request, admin.email);
  return {
    tenantId,
    apiKey,
    admin,
    session,
    gql: (query: string, variables?: Record<string, unknown>) => sessionGraphql(h.request, session, query, variables),
  };
}

const whoAmI = (s: SignedIn) =>
  h.request({ method: 'GET', url: '/dashboard/api/session', headers: { cookie: s.cookie } });
const USER_FIELDS = 'id email role scopes createdAt passwordChangedAt';

async function auditActions(gql: (q: string) => ReturnType<typeof sessionGraphql>) {
  const res = await gql(
    '{ auditLog(first: 100) { edges { node { action actor { type id label } targetType targetId details ipAddress } } } }',
  );
  expect(res.status).toBe(200);
  return (res.body.data.auditLog.edges as Array<{ node: Record<string, unknown> }>).map((e) => e.node).reverse();
}

describe('users', () => {
  it('an admin invites a user with an initial password; the user signs in and sees themself', async () => {
    const t = await adminSession();
    const email = `New.Person-${Date.now()}@Example.test`;
    const created = await t.gql(
      `mutation($e: String!, $p: String!) { createUser(email: $e, password: $p, role: STAFF) { ${USER_FIELDS} } }`,
      {
        e: email,
        p: 'initial password 123',
      },
    );
    expect(created.status).toBe(200);
    const user = created.body.data.createUser;
    expect(user).toMatchObject({ email, role: 'STAFF' });
    expect(user.scopes).not.toContain('admin');
    const list = await t.gql('{ users { email role } }');
    expect(list.body.data.users).toEqual([
      { email: t.admin.email, role: 'ADMIN' },
      { email, role: 'STAFF' },
    ]);
    const theirs = await signIn(h.request, email.toLowerCase(), 'initial password 123');
    const me = await sessionGraphql(h.request, theirs, '{ viewerUser { id role } }');
    expect(me.body.data.viewerUser).toEqual({ id: user.id, role: 'STAFF' });
  });

  it('role defaults to ADMIN; a taken email (any case), a short password or a bad email are refused naming the field', async () => {
    const t = await adminSession();
    const ok = await t.gql('mutation($e: String!) { createUser(email: $e, password: "twelve chars!") { role } }', {
      e: `default-${Date.now()}@example.test`,
    });
    expect(ok.body.data.createUser.role).toBe('ADMIN');
    const taken = await t.gql('mutation($e: String!) { createUser(email: $e, password: "twelve chars!") { id } }', {
      e: t.admin.email.toUpperCase(),
    });
    expect(taken.status).toBe(200);
    expect(taken.body.errors[0].extensions.reason).toBe('email_taken');
    const short = await t.gql('mutation { createUser(email: "short@example.test", password: "eleven char") { id } }');
    expect(short.status).toBe(200);
    expect(short.body.errors[0].extensions.fields).toEqual([
      { field: 'password', message: 'must be at least 12 characters long' },
    ]);
    const badEmail = await t.gql('mutation { createUser(email: "not-an-email", password: "twelve chars!") { id } }');
    expect(badEmail.status).toBe(200);
    expect(badEmail.body.errors[0].extensions.fields).toEqual([
      { field: 'email', message: 'must be an email address' },
    ]);
  });

  it('the last admin can be neither demoted nor removed; with a second admin both work', async () => {
    const t = await adminSession();
    const demote = await t.gql('mutation($id: ID!) { updateUserRole(id: $id, role: STAFF) { role } }', {
      id: t.admin.userId,
    });
    expect(demote.status).toBe(200);
    expect(demote.body.errors[0].extensions.reason).toBe('last_admin');
    const remove = await t.gql('mutation($id: ID!) { removeUser(id: $id) { removedUserId } }', { id: t.admin.userId });
    expect(remove.status).toBe(200);
    const second = await buildUser(h, t.tenantId, 'staff');
    const promoted = await t.gql('mutation($id: ID!) { updateUserRole(id: $id, role: ADMIN) { role } }', {
      id: second.userId,
    });
    expect(promoted.body.data.updateUserRole.role).toBe('ADMIN');
    const selfDemote = await t.gql('mutation($id: ID!) { updateUserRole(id: $id, role: STAFF) { role scopes } }', {
      id: t.admin.userId,
    });
    expect(selfDemote.body.data.updateUserRole.role).toBe('STAFF');
    // now staff: the next request is refused
    expect((await t.gql('{ users { id } }')).status).toBe(403);
  });

  it("removing a user ends their sessions; another tenant's user is not found", async () => {
    const t = await adminSession();
    const leaver = await buildUser(h, t.tenantId, 'staff');
    const theirs = await signIn(h.request, leaver.email);
    const removed = await t.gql('mutation($id: ID!) { removeUser(id: $id) { removedUserId } }', { id: leaver.userId });
    expect(removed.body.data.removeUser).toEqual({ removedUserId: leaver.userId });
    expect((await whoAmI(theirs)).status).toBe(401);
    expect((await sessionGraphql(h.request, theirs, '{ viewer { id } }')).status).toBe(401);
    const other = await h.tenant();
    const stranger = await buildUser(h, other.tenantId);
    const foreign = await t.gql('mutation($id: ID!) { removeUser(id: $id) { removedUserId } }', {
      id: stranger.userId,
    });
    expect(foreign.status).toBe(200);
    const foreignRole = await t.gql('mutation($id: ID!) { updateUserRole(id: $id, role: STAFF) { id } }', {
      id: stranger.userId,
    });
    expect(foreignRole.status).toBe(200);
    expect((await signIn(h.request, stranger.email)).res.status).toBe(200);
  });

  it('an admin API key manages users too; staff keys and sessions cannot', async () => {
    const t = await adminSession();
    const byKey = await h.graphql(t.apiKey, '{ users { email } viewerUser { id } }');
    expect(byKey.body.data).toEqual({ users: [{ email: t.admin.email }], viewerUser: null });
    const readOnly = await h.key(t.tenantId, ['bookings:read']);
    expect((await h.graphql(readOnly, '{ users { email } }')).status).toBe(403);
  });
});

describe('changePassword', () => {
  it('needs the current password, signs out the other sessions and keeps this one', async () => {
    const t = await adminSession();
    const user = await buildUser(h, t.tenantId, 'staff');
    const here = await signIn(h.request, user.email);
    const elsewhere = await signIn(h.request, user.email);
    const change = (current: string, next: string) =>
      sessionGraphql(
        h.request,
        here,
        'mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) { user { id } signedOutSessions } }',
        {
          c: current,
          n: next,
        },
      );
    const wrong = await change('not my password', 'a brand new password');
    expect(wrong.status).toBe(200);
    expect(wrong.body.errors[0].extensions.fields).toEqual([
      { field: 'currentPassword', message: 'is not your current password' },
    ]);
    const short = await change(PASSWORD, 'short');
    expect(short.status).toBe(200);
    expect(short.body.errors[0].extensions.fields[0].field).toBe('newPassword');
    expect((await whoAmI(elsewhere)).status).toBe(200);

    const ok = await change(PASSWORD, 'a brand new password');
    expect(ok.body.data.changePassword).toEqual({ user: { id: user.userId }, signedOutSessions: 1 });
    expect((await whoAmI(elsewhere)).status).toBe(401);
    expect((await whoAmI(here)).status).toBe(200);
    const old = await h.request({
      method: 'POST',
      url: '/dashboard/api/session',
      body: { email: user.email, password: PASSWORD },
      headers: { origin: OWN_ORIGIN },
    });
    expect(old.status).toBe(401);
    expect((await signIn(h.request, user.email, 'a brand new password')).res.status).toBe(200);
  });

  it('is refused for an API key (a person changes their own password)', async () => {
    const t = await adminSession();
    const res = await h.graphql(
      t.apiKey,
      'mutation { changePassword(currentPassword: "x", newPassword: "twelve chars!") { signedOutSessions } }',
    );
    expect(res.status).toBe(200);
    expect(res.body.errors[0].extensions.reason).toBe('session_required');
  });
});

describe('audit log', () => {
  it('records sign-ins (and failed ones), key and device changes, user changes and sign-outs, with the acting user', async () => {
    const t = await adminSession();
    const venue = await buildVenue(h); // another tenant: its events never show here
    const door = await buildDoor(h, t.tenantId, []);
    const staff = await buildUser(h, t.tenantId, 'staff');
    await h.request({
      method: 'POST',
      url: '/dashboard/api/session',
      body: { email: staff.email, password: 'wrong password!' },
      headers: { origin: OWN_ORIGIN },
    });
    const key = (
      await t.gql('mutation { createApiKey(name: "Booking sync", scopes: ["bookings:read"]) { apiKeyInfo { id } } }')
    ).body.data.createApiKey.apiKeyInfo.id;
    await t.gql('mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: key });
    await t.gql('mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: key }); // again: nothing new
    const device = (
      await t.gql('mutation($d: [ID!]!) { registerDevice(name: "Gate", doorIds: $d) { device { id } } }', {
        d: [door.id],
      })
    ).body.data.registerDevice.device.id;
    await t.gql('mutation($id: ID!) { revokeDevice(id: $id) { id } }', { id: device });
    await t.gql('mutation($id: ID!) { updateUserRole(id: $id, role: ADMIN) { id } }', { id: staff.userId });
    await t.gql('mutation($id: ID!) { removeUser(id: $id) { removedUserId } }', { id: staff.userId });
    await h.graphql(venue.apiKey, 'mutation { createApiKey(name: "elsewhere", scopes: ["admin"]) { apiKey } }');
    const byKey = await h.graphql(
      t.apiKey,
      'mutation { createApiKey(name: "by key", scopes: ["catalog:read"]) { apiKey } }',
    );
    expect(byKey.status).toBe(200);
    const other = await signIn(h.request, t.admin.email);
    await h.request({
      method: 'DELETE',
      url: '/dashboard/api/session',
      headers: { cookie: other.cookie, 'x-csrf-token': other.csrfToken, origin: OWN_ORIGIN },
    });

    const entries = await auditActions(t.gql);
    const me = { type: 'user', id: t.admin.userId, label: t.admin.email };
    expect(entries.map((e) => e.action)).toEqual([
      'session.signed_in',
      'session.sign_in_failed',
      'api_key.created',
      'api_key.revoked',
      'device.registered',
      'device.revoked',
      'user.role_changed',
      'user.removed',
      'api_key.created',
      'session.signed_in',
      'session.signed_out',
    ]);
    expect(entries[0]).toMatchObject({
      actor: me,
      targetType: 'user',
      targetId: t.admin.userId,
      ipAddress: '127.0.0.1',
    });
    expect(entries[1]).toMatchObject({
      actor: { type: 'anonymous', id: null },
      targetType: 'user',
      targetId: staff.userId,
      ipAddress: '127.0.0.1',
    });
    expect(entries[2]).toMatchObject({
      actor: me,
      targetType: 'apiKey',
      targetId: key,
      details: { name: 'Booking sync', scopes: ['bookings:read'] },
    });
    expect(entries[4]).toMatchObject({
      actor: me,
      targetType: 'device',
      targetId: device,
      details: { name: 'Gate', doorIds: [door.id] },
    });
    expect(entries[6]).toMatchObject({ actor: me, details: { from: 'staff', to: 'admin', email: staff.email } });
    expect(entries[8]).toMatchObject({
      actor: { type: 'apiKey', label: 'API key "Initial admin key"' },
      details: { name: 'by key' },
    });
    expect(JSON.stringify(entries)).not.toMatch(/svc_[A-Za-z0-9_-]{20,}/);
  });

  it('pages newest first with cursors', async () => {
    const t = await adminSession();
    for (const name of ['one', 'two', 'three'])
      await t.gql(`mutation { createApiKey(name: "${name}", scopes: ["catalog:read"]) { apiKey } }`);
    const page = (after?: string) =>
      t.gql(
        'query($a: String) { auditLog(first: 2, after: $a) { edges { cursor node { action details } } pageInfo { hasNextPage endCursor } } }',
        { a: after },
      );
    const first = (await page()).body.data.auditLog;
    expect(first.edges.map((e: { node: { details: { name: string } } }) => e.node.details.name)).toEqual([
      'three',
      'two',
    ]);
    expect(first.pageInfo).toEqual({ hasNextPage: true, endCursor: first.edges[1].cursor });
    const second = (await page(first.pageInfo.endCursor)).body.data.auditLog;
    expect(second.edges.map((e: { node: { action: string } }) => e.node.action)).toEqual([
      'api_key.created',
      'session.signed_in',
    ]);
    expect(second.pageInfo.hasNextPage).toBe(false);
    const bad = await page('not-a-cursor');
    expect(bad.status).toBe(200);
    expect(bad.body.errors[0].extensions.fields[0].field).toBe('after');
    const tooMany = await t.gql('{ auditLog(first: 101) { edges { cursor } } }');
    expect(tooMany.status).toBe(200);
  });
});
