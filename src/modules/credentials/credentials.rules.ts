import type { Env, MailEnv, SmsEnv } from '../../kernel/env.js';

// A venue's own provider credentials (docs/payments.md, "Credentials in the dashboard"): what is
// stored, what may be shown again, and how the environment's names map to the input's fields.
// Pure: table-driven tests beside it.

export const PROVIDER_KINDS = ['stripe', 'smtp', 'sms'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** What is sealed per kind (JSON). apiBase as a string: a URL does not survive JSON. */
export interface StoredStripe {
  secretKey: string;
  webhookSecret: string;
  apiBase: string | null;
}
export type StoredSmtp = Pick<MailEnv, 'smtpUrl' | 'from'>;
export type StoredSms = SmsEnv;
export interface StoredByKind {
  stripe: StoredStripe;
  smtp: StoredSmtp;
  sms: StoredSms;
}

/** The last 4 characters of a secret, behind an ellipsis: enough to tell two keys apart. */
export const lastFour = (secret: string) => `…${secret.slice(-4)}`;

/** What the dashboard may show of stored credentials again: never a secret, nor a password. */
export function hintOf<K extends ProviderKind>(kind: K, stored: StoredByKind[K]): string {
  if (kind === 'stripe') return lastFour((stored as StoredStripe).secretKey);
  if (kind === 'sms') {
    const sms = stored as StoredSms;
    return `${sms.accountSid.slice(0, 2)}${lastFour(sms.accountSid)} · ${sms.from}`;
  }
  const smtp = stored as StoredSmtp;
  const url = new URL(smtp.smtpUrl);
  return `${url.hostname}${url.port ? `:${url.port}` : ''} · ${smtp.from}`;
}

/** Whether the environment sets this provider (then it wins over anything stored). */
export function environmentSets(env: Pick<Env, 'stripe' | 'mail' | 'sms'>, kind: ProviderKind): boolean {
  if (kind === 'stripe') return Boolean(env.stripe);
  if (kind === 'smtp') return env.mail !== null;
  return env.sms !== null;
}

/** The environment variables the env parser names, as the input's fields. */
const FIELD_OF: Record<string, string> = {
  STRIPE_SECRET_KEY: 'secretKey',
  STRIPE_WEBHOOK_SECRET: 'webhookSecret',
  STRIPE_API_BASE: 'apiBase',
  STRIPE_REFUND_TIMEOUT_MS: 'apiBase',
  SMTP_URL: 'smtpUrl',
  MAIL_FROM: 'from',
  SMTP_TIMEOUT_SECONDS: 'smtpUrl',
  SMS_ACCOUNT_SID: 'accountSid',
  SMS_AUTH_TOKEN: 'authToken',
  SMS_FROM: 'from',
  SMS_API_BASE: 'apiBase',
};

/**
 * An env parser's message as a field error: the first variable it names is the field, and every
 * variable name in it is replaced by its field's name ("STRIPE_SECRET_KEY needs
 * STRIPE_WEBHOOK_SECRET" → webhookSecret: "secretKey needs webhookSecret").
 */
export function fieldErrorOf(message: string, fallback: string): { field: string; message: string } {
  const names = [...message.matchAll(/\b[A-Z][A-Z0-9_]{3,}\b/g)].map((m) => m[0]).filter((n) => n in FIELD_OF);
  const text = message.replace(/\b[A-Z][A-Z0-9_]{3,}\b/g, (name) => FIELD_OF[name] ?? name);
  // "X needs Y" is about Y missing; otherwise the first name is the one at fault.
  const needs = /\bneeds?\b/.test(message) && names.length > 1 ? names[1] : names[0];
  return { field: needs ? (FIELD_OF[needs] ?? fallback) : fallback, message: text };
}

/** A Stripe test-mode key (sk_test_…, rk_test_…): the only kind a sandbox tenant stores (docs/test-mode.md). */
export const isStripeTestKey = (secretKey: string): boolean => /^(sk|rk)_test_/.test(secretKey);
