import type { Transporter } from 'nodemailer';
import type { MailEnv } from '../../kernel/env.js';
import type { ComposedMail } from './message.js';

// The SMTP side (nodemailer): one transport per process, built by composeDeps from SMTP_URL, and
// nodemailer itself loaded with the first mail (a process that sends none keeps ~5 MB less heap,
// docs/performance.md round thirteen). The URL's password stays inside the transport; errors are reduced to what the server said, with any
// credential taken out, before they are stored or logged.

export const SMTP_TIMEOUT_MS = 30_000;

export interface OutgoingMail extends ComposedMail {
  to: string;
  /** The tenant's sender name, put before MAIL_FROM's address. */
  fromName: string | null;
  replyTo: string | null;
  /** Stable for one notification (and one resend of it), so a mail sent twice after a crash is recognisable. */
  messageId: string;
}

export interface Mailer {
  /** The From address (MAIL_FROM). */
  readonly from: string;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export function createMailer(env: MailEnv, options: { timeoutMs?: number } = {}): Mailer {
  const timeoutMs = options.timeoutMs ?? env.timeoutMs ?? SMTP_TIMEOUT_MS;
  const url = new URL(env.smtpUrl);
  const secrets = [url.password, decodeURIComponent(url.password)].filter((s) => s.length > 0);
  let transport: Promise<Transporter> | undefined;
  const open = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
        secure: url.protocol === 'smtps:',
        auth: url.username
          ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
          : undefined,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
        // Never log the conversation (it carries AUTH).
        logger: false,
        debug: false,
      }),
    ));
  return {
    from: env.from,
    async send(mail) {
      try {
        await (
          await open()
        ).sendMail({
          from: mail.fromName ? { name: mail.fromName, address: env.from } : env.from,
          to: mail.to,
          replyTo: mail.replyTo ?? undefined,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          attachments: mail.attachments,
          icalEvent: mail.icalEvent,
          messageId: mail.messageId,
          // Header values are built from settings checked for control characters; refuse any left.
          disableFileAccess: true,
          disableUrlAccess: true,
        });
      } catch (error) {
        throw new Error(redact(describeSmtpError(error), secrets), { cause: error });
      }
    },
    close: () => {
      void transport?.then((t) => t.close());
    },
  };
}

function describeSmtpError(error: unknown): string {
  const e = error as { responseCode?: number; response?: string; code?: string; message?: string };
  if (e.responseCode) return `SMTP ${e.responseCode}: ${(e.response ?? e.message ?? '').slice(0, 300)}`;
  return `${e.code ? `${e.code}: ` : ''}${(e.message ?? String(error)).slice(0, 300)}`;
}

export function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('***');
  return out;
}
