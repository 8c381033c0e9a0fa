import type { Executor } from '../../kernel/db/index.js';
import type { AppDeps } from '../../kernel/deps.js';
import * as repo from './notifications.repository.js';
import { domainOf } from './sender.js';
import { escapeHtml } from './notification.rules.js';

/**
 * Sends a sample mail now, with the tenant's sender name and reply-to, so an admin sees how mail
 * arrives. Not queued: the answer says how the SMTP server took it.
 */
export async function sendTestEmail(
  db: Executor,
  deps: AppDeps,
  tenantId: string,
  to: string,
): Promise<{ success: boolean; error: string | null }> {
  // The environment's SMTP, else the venue's own set in the dashboard.
  const mailer = await deps.providers.mailer(tenantId);
  if (!mailer)
    return {
      success: false,
      error:
        'Email is not configured: set SMTP_URL and MAIL_FROM on the server, or the venue’s SMTP settings (Admin → Notifications)',
    };
  const settings = await repo.findSettings(db, tenantId);
  const name = settings?.sender_name ?? 'Portier';
  const text = `This is a test mail from ${name}. Guests get their booking confirmations, QR codes and calendar invitations from this sender.`;
  try {
    await mailer.send({
      to,
      fromName: name,
      replyTo: settings?.reply_to ?? null,
      subject: `Test mail from ${name}`,
      text,
      html: `<!doctype html><html lang="en"><body><p>${escapeHtml(text)}</p></body></html>`,
      attachments: [],
      messageId: `<test-${deps.now().getTime()}-${Math.random().toString(36).slice(2)}@${domainOf(mailer.from)}>`,
    });
    return { success: true, error: null };
  } catch (error) {
    return { success: false, error: (error as Error).message };
  }
}
