import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, requester, type Harness, type TestResponse } from './harness.js';
import { buildUser, OWN_ORIGIN, PASSWORD, signIn, sessionGraphql } from './dashboard.js';
import { startSmtpPeer, type ReceivedMail, type SmtpPeer } from './peers/mail-peers.js';
import { composeDeps, type AppDeps } from '../src/app/deps.js';
import { buildApp, type App } from '../src/transport/http/app.js';
import { PASSWORD_RESET_LIMITS, PASSWORD_RESET_TTL_MS, INVITATION_TTL_MS } from '../src/modules/users/index.js';

// Staff accounts (issue #43, docs/dashboard.md "Forgotten passwords and invitations"): password
// reset and invitations by mail, against a real SMTP peer (smtp-server) in this process.

let h: Harness;
let smtp: SmtpPeer;
let deps: AppDeps;
let app: App;
let request: ReturnType<typeof requester>;
let tenantId: string;
let apiKey: string;

beforeAll(async () => {
  h = await harness();
  smtp = await startSmtpPeer();
  deps = composeDeps({
    database: h.deps.database,
    env: {
      ...h.deps.env,
      mail: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: 'portier@venue.example', timeoutMs: 20_000 },
    },
    secret: h.deps.secret,
    log: h.deps.log,
    limits: h.deps.limits,
    now: h.clock.now,
    metrics: h.deps.metrics,
  });
  app = await buildApp(deps, { loadShedding: { maxEventLoopDelay: 0 } });
  await app.fastify.ready();
  request = requester(app.fastify);
  ({ tenantId, apiKey } = await h.tenant('Sportpark Nord'));
}, 120_000);

afterAll(async () => {
  await app?.fastify.close();
  await smtp?.close();
});
beforeEach(() => {
  smtp.mode = 'accept';
});
afterEach(() => h.clock.set(null));

const NEW_PASSWORD = 'a brand new password 42';
let nextAddress = 1;
// Random per run: with REDIS_URL the counters outlive the run.
const RUN = `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
/** Each call its own client address, so the per-address throttle of one test spares the others. */
const address = () => `${RUN}.${nextAddress++}`;

const gql = (key: string, query: string, variables?: Record<string, unknown>) =>
  request({ method: 'POST', url: '/api/v1/graphql', apiKey: key, body: { query, variables } });

function askReset(email: string, remoteAddress: string, headers: Record<string, string> = {}) {
  return request({
    method: 'POST',
    url: '/dashboard/api/password-reset',
    body: { email },
    headers: { origin: OWN_ORIGIN, ...headers },
    remoteAddress,
  });
}
const post = (url: string, body: unknown) => request({ method: 'POST', url, body, headers: { origin: OWN_ORIGIN } });

/** The mails to `to` that arrived so far. */
const mailsTo = (to: string): ReceivedMail[] =>
  smtp.mails.filter((m) => (m.parsed.to as { text: string } | undefined)?.text.toLowerCase() === to.toLowerCase());

async function mailTo(to: string, count = 1): Promise<ReceivedMail> {
  await deps.staffAccounts.idle();
  const deadline = Date.now() + 30_000;
  while (mailsTo(to).length < count) {
    if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return mailsTo(to)[count - 1];
}

function tokenOf(mail: ReceivedMail, page: string): string {
  const match = new RegExp(`http://portier\\.test${page}\\?token=([A-Za-z0-9_-]+)`).exec(mail.parsed.text ?? '');
  if (!match) throw new Error(`no ${page} link in: ${mail.parsed.text}`);
  return match[1];
}

const auditActions = async (target: string) =>
  (
    await h.deps.database.db
      .selectFrom('audit_log')
      .select(['action', 'details', 'actor_type'])
      .where('target_id', '=', target)
      .orderBy('id')
      .execute()
  ).map((row) => row.action);

const shape = (res: TestResponse) => ({ status: res.status, body: res.body, cache: res.headers['cache-control'] });

describe('forgot password', () => {
  it('answers a known and an unknown email alike, and mails a link only to the user', async () => {
    const user = await buildUser(h, tenantId, 'staff');
    const unknown = `nobody-${Date.now()}@example.test`;
    const known = await askReset(user.email, address());
    const stranger = await askReset(unknown, address());
    expect(shape(known)).toEqual({ status: 202, body: { accepted: true }, cache: 'no-store' });
    expect(shape(stranger)).toEqual(shape(known));
    expect(Object.keys(stranger.headers).sort()).toEqual(Object.keys(known.headers).sort());
    const mail = await mailTo(user.email);
    expect(mail.parsed.subject).toBe('Reset your Portier password');
    expect(mail.parsed.text).toContain('Sportpark Nord');
    expect(mail.parsed.html).toContain('/dashboard/reset-password?token=');
    expect(mailsTo(unknown)).toHaveLength(0);
    // Only the token's hash is stored.
    const token = tokenOf(mail, '/dashboard/reset-password');
    const rows = await h.deps.database.db
      .selectFrom('password_resets')
      .selectAll()
      .where('user_id', '=', user.userId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('mails in German when the browser asks for it', async () => {
    const user = await buildUser(h, tenantId, 'staff');
    await askReset(user.email, address(), { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    const mail = await mailTo(user.email);
    expect(mail.parsed.subject).toBe('Ihr Portier-Passwort zurücksetzen');
  });

  it('the link sets a new password once, ends every session and signs nothing in', async () => {
    const user = await buildUser(h, tenantId, 'staff');
    const first = await signIn(request, user.email);
    const second = await signIn(request, user.email);
    await askReset(user.email, address());
    const token = tokenOf(await mailTo(user.email), '/dashboard/reset-password');

    const tooShort = await post('/dashboard/api/password-reset/confirm', { token, password: 'short' });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.errors[0].field).toBe('password');

    const done = await post('/dashboard/api/password-reset/confirm', { token, password: NEW_PASSWORD });
    expect(done.status).toBe(200);
    expect(done.body.user).toEqual({ id: user.userId, email: user.email, role: 'staff' });
    expect(done.headers['set-cookie']).toBeUndefined();
    for (const s of [first, second]) {
      const who = await request({ method: 'GET', url: '/dashboard/api/session', headers: { cookie: s.cookie } });
      expect(who.status).toBe(401);
    }
    await expect(signIn(request, user.email)).rejects.toThrow(/401/);
    await signIn(request, user.email, NEW_PASSWORD);
    expect(await auditActions(user.userId)).toContain('user.password_reset');

    const again = await post('/dashboard/api/password-reset/confirm', { token, password: 'yet another password 9' });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('invalid_link');
  });

  it('refuses an expired link, one replaced by a newer, and one issued before a password change', async () => {
    const user = await buildUser(h, tenantId, 'staff');
    h.clock.set('2026-12-03T09:00:00Z');
    await askReset(user.email, address());
    const old = tokenOf(await mailTo(user.email), '/dashboard/reset-password');
    h.clock.set(new Date(Date.parse('2026-12-03T09:00:00Z') + PASSWORD_RESET_TTL_MS + 1000).toISOString());
    const expired = await post('/dashboard/api/password-reset/confirm', { token: old, password: NEW_PASSWORD });
    expect(expired.body.code).toBe('invalid_link');

    await askReset(user.email, address());
    const replaced = tokenOf(await mailTo(user.email, 2), '/dashboard/reset-password');
    await askReset(user.email, address());
    const newest = tokenOf(await mailTo(user.email, 3), '/dashboard/reset-password');
    expect(
      (await post('/dashboard/api/password-reset/confirm', { token: replaced, password: NEW_PASSWORD })).body.code,
    ).toBe('invalid_link');
    // A password change after the link was mailed voids it.
    h.clock.set(new Date(h.clock.now().getTime() + 60_000).toISOString());
    const s = await signIn(request, user.email);
    const changed = await sessionGraphql(
      request,
      s,
      'mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) { signedOutSessions } }',
      { c: PASSWORD, n: 'changed in the meantime 1' },
    );
    expect(changed.body.errors).toBeUndefined();
    expect(
      (await post('/dashboard/api/password-reset/confirm', { token: newest, password: NEW_PASSWORD })).body.code,
    ).toBe('invalid_link');
  });

  it('throttles per email (known or not alike) and per client address', async () => {
    const user = await buildUser(h, tenantId, 'staff');
    const unknown = `nobody-${Date.now()}@example.test`;
    const max = PASSWORD_RESET_LIMITS.perEmail[0].maxFailures;
    for (const email of [user.email, unknown]) {
      for (let i = 0; i < max; i++) expect((await askReset(email, address())).status).toBe(202);
      const refused = await askReset(email.toUpperCase(), address());
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('password_reset_throttled');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    const one = address();
    const perAddress = PASSWORD_RESET_LIMITS.perAddress[0].maxFailures;
    for (let i = 0; i < perAddress; i++)
      expect((await askReset(`a${i}-${Date.now()}@example.test`, one)).status).toBe(202);
    expect((await askReset(`last-${Date.now()}@example.test`, one)).status).toBe(429);
    await deps.staffAccounts.idle();
    expect(mailsTo(user.email)).toHaveLength(max);
  });

  it('is refused from a foreign origin', async () => {
    const res = await request({
      method: 'POST',
      url: '/dashboard/api/password-reset',
      body: { email: 'x@example.test' },
      headers: { origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf_failed');
  });

  it('without a mail transport answers 202 all the same and sends nothing', async () => {
    const user = await buildUser(h, tenantId, 'staff');
    const res = await h.request({
      method: 'POST',
      url: '/dashboard/api/password-reset',
      body: { email: user.email },
      headers: { origin: OWN_ORIGIN },
      remoteAddress: address(),
    });
    expect(res.status).toBe(202);
    await h.deps.staffAccounts.idle();
    const rows = await h.deps.database.db
      .selectFrom('password_resets')
      .selectAll()
      .where('user_id', '=', user.userId)
      .execute();
    expect(rows).toHaveLength(0);
  });
});

const INVITE = `mutation($email: String!, $role: UserRole, $locale: Locale) {
  inviteUser(email: $email, role: $role, locale: $locale) { id email role locale invitedBy expiresAt expired }
}`;
const INVITATIONS = '{ userInvitations { id email role } }';
const REVOKE = 'mutation($id: ID!) { revokeUserInvitation(id: $id) { revokedInvitationId } }';

describe('invitations', () => {
  it('invite → mail → accept → sign in', async () => {
    const email = `invitee-${Date.now()}@example.test`;
    const invited = await gql(apiKey, INVITE, { email, role: 'STAFF' });
    expect(invited.body.errors).toBeUndefined();
    const invitation = invited.body.data.inviteUser;
    expect(invitation).toMatchObject({ email, role: 'STAFF', locale: 'EN', expired: false });
    expect(Date.parse(invitation.expiresAt) - Date.now()).toBeGreaterThan(INVITATION_TTL_MS - 60_000);
    const listed = await gql(apiKey, INVITATIONS);
    expect(listed.body.data.userInvitations).toContainEqual({ id: invitation.id, email, role: 'STAFF' });

    const mail = await mailTo(email);
    expect(mail.parsed.subject).toBe('You are invited to Sportpark Nord on Portier');
    const token = tokenOf(mail, '/dashboard/accept-invite');
    const read = await post('/dashboard/api/invitation', { token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ email, role: 'staff', tenant: { name: 'Sportpark Nord' } });

    const accepted = await post('/dashboard/api/invitation/accept', { token, password: NEW_PASSWORD });
    expect(accepted.status).toBe(201);
    expect(accepted.body.user).toMatchObject({ email, role: 'staff' });
    expect(accepted.headers['set-cookie']).toBeUndefined();
    const session = await signIn(request, email, NEW_PASSWORD);
    expect(session.res.body.tenant.id).toBe(tenantId);
    expect(await auditActions(invitation.id)).toEqual(['user.invited']);
    expect(await auditActions(accepted.body.user.id)).toContain('user.created');
    // Spent: the link works once, and the invitation is no longer pending.
    const twice = await post('/dashboard/api/invitation/accept', { token, password: NEW_PASSWORD });
    expect(twice.body.code).toBe('invalid_link');
    expect(
      (await gql(apiKey, INVITATIONS)).body.data.userInvitations.map((i: { email: string }) => i.email),
    ).not.toContain(email);
  });

  it('mails in German when asked', async () => {
    const email = `einladung-${Date.now()}@example.test`;
    expect((await gql(apiKey, INVITE, { email, locale: 'DE' })).body.errors).toBeUndefined();
    const mail = await mailTo(email);
    expect(mail.parsed.subject).toBe('Einladung zu Sportpark Nord bei Portier');
    expect(mail.parsed.text).toContain('Mitarbeiter');
  });

  it('re-inviting replaces the earlier link', async () => {
    const email = `again-${Date.now()}@example.test`;
    const first = (await gql(apiKey, INVITE, { email })).body.data.inviteUser;
    const firstToken = tokenOf(await mailTo(email), '/dashboard/accept-invite');
    const second = (await gql(apiKey, INVITE, { email: email.toUpperCase(), role: 'ADMIN' })).body.data.inviteUser;
    const secondToken = tokenOf(await mailTo(email, 2), '/dashboard/accept-invite');
    expect(second.id).not.toBe(first.id);
    const pending = (await gql(apiKey, INVITATIONS)).body.data.userInvitations.filter(
      (i: { email: string }) => i.email.toLowerCase() === email,
    );
    expect(pending).toEqual([{ id: second.id, email: email.toUpperCase(), role: 'ADMIN' }]);
    expect((await post('/dashboard/api/invitation', { token: firstToken })).body.code).toBe('invalid_link');
    const ok = await post('/dashboard/api/invitation/accept', { token: secondToken, password: NEW_PASSWORD });
    expect(ok.body.user.role).toBe('admin');
  });

  it('a revoked invitation is refused', async () => {
    const email = `revoked-${Date.now()}@example.test`;
    const invitation = (await gql(apiKey, INVITE, { email })).body.data.inviteUser;
    const token = tokenOf(await mailTo(email), '/dashboard/accept-invite');
    const revoked = await gql(apiKey, REVOKE, { id: invitation.id });
    expect(revoked.body.data.revokeUserInvitation.revokedInvitationId).toBe(invitation.id);
    expect(await auditActions(invitation.id)).toEqual(['user.invited', 'user.invitation_revoked']);
    const refused = await post('/dashboard/api/invitation/accept', { token, password: NEW_PASSWORD });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('invalid_link');
    expect((await gql(apiKey, REVOKE, { id: invitation.id })).body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('an expired invitation is refused', async () => {
    const email = `expired-${Date.now()}@example.test`;
    h.clock.set('2026-12-03T09:00:00Z');
    expect((await gql(apiKey, INVITE, { email })).body.errors).toBeUndefined();
    const token = tokenOf(await mailTo(email), '/dashboard/accept-invite');
    h.clock.set(new Date(Date.parse('2026-12-03T09:00:00Z') + INVITATION_TTL_MS + 1000).toISOString());
    expect((await post('/dashboard/api/invitation/accept', { token, password: NEW_PASSWORD })).body.code).toBe(
      'invalid_link',
    );
    const listed = await gql(apiKey, '{ userInvitations { email expired } }');
    expect(listed.body.data.userInvitations).toContainEqual({ email, expired: true });
  });

  it('refuses an email that is a user already, and a staff member cannot invite', async () => {
    const user = await buildUser(h, tenantId, 'staff');
    const taken = await gql(apiKey, INVITE, { email: user.email });
    expect(taken.body.errors[0].extensions.code).toBe('CONFLICT');
    const staff = await signIn(request, user.email);
    const refused = await sessionGraphql(request, staff, INVITE, { email: `x-${Date.now()}@example.test` });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const list = await sessionGraphql(request, staff, INVITATIONS);
    expect(list.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('without a mail transport the invitation is refused, naming it', async () => {
    const res = await h.graphql(apiKey, INVITE, { email: `nomail-${Date.now()}@example.test` });
    expect(res.body.errors[0].message).toMatch(/SMTP_URL and MAIL_FROM/);
    expect(res.body.errors[0].extensions.code).toBe('UNPROCESSABLE');
    expect((await h.graphql(apiKey, INVITATIONS)).body.data.userInvitations).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ email: expect.stringMatching(/^nomail-/) })]),
    );
  });
});
