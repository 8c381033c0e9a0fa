import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  ADMIN,
  DashboardEnv,
  STAFF,
  UI_TIMEOUT,
  VIEWPORTS,
  screenshot,
  seriousViolations,
  signIn,
} from './dashboard-env.js';
import { startSmtpPeer, type ReceivedMail, type SmtpPeer } from '../peers/mail-peers.js';

// Staff accounts in a real Chromium at a phone's width (issue #43): "Forgot password?" from the
// sign-in page to the mailed link and a new password, and an admin's invitation by email to the
// invitee's own password. The real server (dist/) mails through SMTP to a local smtp-server peer.

const TEST_TIMEOUT = 240_000;
const NEW_PASSWORD = 'a fresh password for the desk';
const env = new DashboardEnv();
let smtp: SmtpPeer;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  // On the run's database: PGlite, or PostgreSQL when DATABASE_URL is set.
  await env.start(
    { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'team@riverside.example' },
    { runDatabase: true },
  );
}, 360_000);

afterAll(async () => {
  await env.stop();
  await smtp?.close();
});

async function mailTo(to: string): Promise<ReceivedMail> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = smtp.mails.find((m) => (m.parsed.to as { text: string } | undefined)?.text === to);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The mailed link, on the server under test. */
function linkIn(mail: ReceivedMail, page: string): string {
  const match = new RegExp(`https?://[^\\s]+${page}\\?token=[A-Za-z0-9_-]+`).exec(mail.parsed.text ?? '');
  if (!match) throw new Error(`no ${page} link in: ${mail.parsed.text}`);
  const link = new URL(match[0]);
  return `${env.url}${link.pathname}${link.search}`;
}

async function expectAccessible(page: Page, name: string): Promise<void> {
  expect(await seriousViolations(page), name).toEqual([]);
  // Nothing sideways: the page fits the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.mobile.width);
  await screenshot(page, name);
}

describe('staff accounts at 390 px', () => {
  it('forgot password → mail → new password → sign in', { timeout: TEST_TIMEOUT }, async () => {
    const { page, problems } = await env.newPage(VIEWPORTS.mobile);
    await page.goto(`${env.url}/dashboard/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?', level: 1 }).waitFor();
    await expectAccessible(page, 'staff-forgot-password-390');
    await page.getByLabel('Email').fill(STAFF.email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await expect
      .poll(() => page.getByRole('status').first().textContent(), { timeout: UI_TIMEOUT })
      .toContain('a link is on its way');
    await expectAccessible(page, 'staff-forgot-password-sent-390');

    const link = linkIn(await mailTo(STAFF.email), '/dashboard/reset-password');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password', level: 1 }).waitFor();
    await expectAccessible(page, 'staff-reset-password-390');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.waitForURL('**/dashboard/login');
    await expect
      .poll(() => page.getByRole('status').first().textContent(), { timeout: UI_TIMEOUT })
      .toContain('Your password is changed');
    await expectAccessible(page, 'staff-reset-done-390');
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe(STAFF.email);
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();

    // The link worked once.
    const again = await env.newPage(VIEWPORTS.mobile);
    await again.page.goto(link);
    await again.page.getByLabel('New password', { exact: true }).fill('yet another password 1');
    await again.page.getByLabel('New password again').fill('yet another password 1');
    await again.page.getByRole('button', { name: 'Set the new password' }).click();
    await expect
      .poll(() => again.page.getByRole('alert').textContent(), { timeout: UI_TIMEOUT })
      .toContain('invalid, has expired or was used already');
    expect([...problems, ...again.problems]).toEqual([]);
  });

  it('an admin invites by email; the invitee accepts and signs in', { timeout: TEST_TIMEOUT }, async () => {
    const invitee = 'new.member@club.example';
    const admin = await env.newPage(VIEWPORTS.mobile);
    await signIn(admin.page, env.url, ADMIN);
    await admin.page.goto(`${env.url}/dashboard/admin/team`);
    const form = admin.page.getByRole('form', { name: 'Invite by email' });
    await form.getByLabel('Email address').fill(invitee);
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await admin.page.getByText(`Invitation mailed to ${invitee}.`).waitFor();
    await admin.page.getByRole('region', { name: 'Pending invitations' }).getByText(invitee).waitFor();
    await expectAccessible(admin.page, 'staff-team-invitations-390');

    const link = linkIn(await mailTo(invitee), '/dashboard/accept-invite');
    const { page, problems } = await env.newPage(VIEWPORTS.mobile);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Join Riverside Tennis Club', level: 1 }).waitFor();
    await expectAccessible(page, 'staff-accept-invite-390');
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Accept and create my account' }).click();
    await page.waitForURL('**/dashboard/login');
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    expect([...problems, ...admin.problems]).toEqual([]);
  });
});
