import type { NotificationData, NotificationKind } from '../../kernel/db/types.js';
import type { GuestFacts } from './guest-facts.js';

// The shapes of a guest mail being composed (message.ts, series-message.ts): types only, so the
// two composers share them without importing each other.

export interface GuestKey {
  qrToken: string;
  smsCode: string;
}

export interface MailInput {
  kind: NotificationKind;
  data: NotificationData;
  sequence: number;
  /** The credentials as they are now; absent for a cancellation, a "pay here" and a receipt. */
  key?: GuestKey;
  /** The booking's reference, language and links as they are now. */
  facts: GuestFacts;
  /** A series_confirmed mail: each booked occurrence's reference and manage link now, by booking id. */
  occurrences?: Record<string, { reference: string; manageUrl: string }>;
  recipient: string;
  fromAddress: string;
  stamp: Date;
  domain: string;
}

export interface MailAttachment {
  filename: string;
  content: Buffer | string;
  contentType: string;
  cid?: string;
  contentDisposition?: 'inline' | 'attachment';
}

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
  /** The calendar part as nodemailer's `icalEvent` (text/calendar; method=…), when there is one. */
  icalEvent?: { method: 'REQUEST' | 'CANCEL'; filename: string; content: string };
}
