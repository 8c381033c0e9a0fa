import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../kernel/deps.js';
import type { Locale } from '../../kernel/i18n.js';
import { DomainError } from '../../kernel/errors.js';
import type { Role } from './roles.js';
import { staffMailTexts as texts } from './staff-mail.texts.js';

// The mails of staff accounts: a password-reset link and an invitation link. Sent through the
// tenant's mail transport (the environment's SMTP, else the venue's own, deps.providers), the
// transport guest mail uses.

export const RESET_PAGE = '/dashboard/reset-password';
export const INVITE_PAGE = '/dashboard/accept-invite';

export interface StaffMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** A link of PUBLIC_URL with the token in its query. */
export function linkOf(publicUrl: string, page: string, token: string): string {
  const url = new URL(page, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`);
  url.searchParams.set('token', token);
  return url.toString();
}

function compose(
  locale: Locale,
  to: string,
  parts: { subject: string; greeting: string; body: string; button: string; ignore: string },
  link: string,
): StaffMail {
  const text = [parts.greeting, '', parts.body, '', link, '', parts.ignore, ''].join('\n');
  const html = `<!doctype html><html lang="${locale}"><body style="font-family:system-ui,sans-serif;line-height:1.5">
<p>${escapeHtml(parts.greeting)}</p>
<p>${escapeHtml(parts.body)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(parts.button)}</a></p>
<p style="word-break:break-all;color:#555">${escapeHtml(link)}</p>
<p style="color:#555">${escapeHtml(parts.ignore)}</p>
</body></html>`;
  return { to, subject: parts.subject, text, html };
}

export function passwordResetMail(
  locale: Locale,
  input: { to: string; tenant: string; link: string; minutes: number },
): StaffMail {
  const p = { email: input.to, tenant: input.tenant, minutes: input.minutes };
  return compose(
    locale,
    input.to,
    {
      subject: texts.t(locale, 'reset.subject'),
      greeting: texts.t(locale, 'reset.greeting'),
      body: texts.t(locale, 'reset.body', p),
      button: texts.t(locale, 'reset.button'),
      ignore: texts.t(locale, 'reset.ignore'),
    },
    input.link,
  );
}

export function invitationMail(
  locale: Locale,
  input: { to: string; tenant: string; inviter: string; role: Role; link: string; days: number },
): StaffMail {
  const p = {
    tenant: input.tenant,
    inviter: input.inviter,
    role: texts.t(locale, input.role === 'admin' ? 'role.admin' : 'role.staff'),
    days: input.days,
  };
  return compose(
    locale,
    input.to,
    {
      subject: texts.t(locale, 'invite.subject', p),
      greeting: texts.t(locale, 'invite.greeting'),
      body: texts.t(locale, 'invite.body', p),
      button: texts.t(locale, 'invite.button'),
      ignore: texts.t(locale, 'invite.ignore'),
    },
    input.link,
  );
}

export const mailNotConfigured = () =>
  new DomainError(
    'UNPROCESSABLE',
    'mail_not_configured',
    'Email is not configured: set SMTP_URL and MAIL_FROM on the server, or the venue’s SMTP settings (Admin → Notifications); invitations are sent by email',
  );

/**
 * Sends a staff mail through the tenant's transport. False when the tenant has none (the caller
 * decides whether that is an error); a failed send throws the transport's (redacted) error.
 */
export async function sendStaffMail(
  deps: AppDeps,
  tenantId: string,
  fromName: string,
  mail: StaffMail,
): Promise<boolean> {
  const mailer = await deps.providers.mailer(tenantId);
  if (!mailer) return false;
  const domain = mailer.from.split('@')[1] ?? 'portier.invalid';
  await mailer.send({
    ...mail,
    fromName,
    replyTo: null,
    attachments: [],
    messageId: `<staff-${randomUUID()}@${domain}>`,
  });
  return true;
}
