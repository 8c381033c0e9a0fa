import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DB, NotificationRow } from '../../kernel/db/types.js';
import type { AppDeps } from '../../kernel/deps.js';
import { getCredentials } from '../access/index.js';
import * as repo from './notifications.repository.js';
import { composeMail, composeSms, type GuestKey } from './message.js';
import type { GuestFacts } from './guest-facts.js';
import { MAX_NOTIFICATION_ATTEMPTS, nextNotificationAttempt } from './notification.rules.js';
import { SMTP_TIMEOUT_MS, type Mailer } from './mailer.js';
import { SMS_TIMEOUT_MS, type SmsClient } from './sms.js';
import { detached, inSpan, SpanKind, SpanStatusCode, type Span } from '../../kernel/tracing.js';
import { PollLoop } from '../../kernel/poll-loop.js';

// The notification sender: claims due notifications (FOR UPDATE SKIP LOCKED, with a lease), sends
// them, and records each outcome. It runs beside the webhook dispatcher, in the API process and in
// `npm run worker`; several may run on one database. Delivery is at most once: a send is recorded
// as 'sending' (committed) before it leaves, so when its outcome cannot be recorded (the database
// connection broke, the process died) it is never sent again on its own; the sweep makes it
// 'unknown' for staff when the lease ends (docs/notifications.md, "Delivery").

/** The kinds that carry the guest's key (QR code and door code): the booking is, or stays, confirmed. */
const KEYED_KINDS: ReadonlySet<NotificationRow['kind']> = new Set(['confirmed', 'rescheduled', 'reminder']);

export interface NotificationSenderOptions {
  deps: AppDeps;
  /** Replaces deps.mailer (tests: a short timeout). */
  mailer?: Mailer | null;
  /** Replaces deps.smsClient. */
  sms?: SmsClient | null;
  /** How long one step of a send may take; the lease is three times that plus 10 s. */
  timeoutMs?: number;
  /** Sends in flight at once in this process. */
  concurrency?: number;
  pollIntervalMs?: number;
}

export interface SenderSummary {
  attempted: number;
  sent: number;
  failed: number;
}

export class NotificationSender {
  private readonly db: Kysely<DB>;
  private readonly log: Logger;
  /** Set when a test (or the caller) gave one: it replaces every tenant's. */
  private readonly mailer: Mailer | null | undefined;
  private readonly sms: SmsClient | null | undefined;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly pollIntervalMs: number;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly loop: PollLoop;

  constructor(private readonly options: NotificationSenderOptions) {
    const { deps } = options;
    this.db = deps.database.db;
    this.log = deps.log;
    this.mailer = options.mailer;
    this.sms = options.sms;
    const timeoutMs =
      options.timeoutMs ?? Math.max(deps.env.mail?.timeoutMs ?? SMTP_TIMEOUT_MS, deps.env.sms ? SMS_TIMEOUT_MS : 0);
    // A send ends within three of its timeouts (connect, greeting, a reply); the margin is for recording it.
    this.leaseMs = 3 * timeoutMs + 10_000;
    this.concurrency = options.concurrency ?? 8;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.loop = new PollLoop({
      // A pass claims and starts what is due; the sends run on while the next pass waits.
      pass: () => this.startDue().then((started) => void Promise.allSettled(started)),
      intervalMs: this.pollIntervalMs,
      onError: (error) => this.log.error({ err: error }, 'notification sender pass failed'),
      // Started by whoever starts it (a server, a test): the sends trace on their own.
      schedule: detached,
    });
  }

  private get now(): Date {
    return this.options.deps.now();
  }

  /** Claims what is due up to the free capacity and starts sending it. */
  private async startDue(): Promise<Promise<'sent' | 'failed' | 'retry' | null>[]> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return [];
    const now = this.now;
    const leaseUntil = new Date(now.getTime() + this.leaseMs);
    await this.sweep(now);
    const rows = await this.db.transaction().execute((trx) => repo.claimDue(trx, now, leaseUntil, free));
    return rows.map((row) => {
      const attempt = this.attempt(row, leaseUntil).catch((error: unknown) => {
        // Before the send was recorded as started: the row is still 'pending' and is tried again
        // when its lease ends. After: it stays 'sending' and the sweep makes it 'unknown'.
        this.log.error({ err: error, notificationId: row.id }, 'recording a notification attempt failed');
        return null;
      });
      const tracked = attempt.finally(() => this.inFlight.delete(tracked));
      this.inFlight.add(tracked);
      return attempt;
    });
  }

  private async sweep(now: Date): Promise<void> {
    try {
      const swept = await repo.sweepUnknownSends(this.db, now);
      // Counted here, once per notification, when its outcome is given up on (the attempt itself could not record it).
      for (const { channel } of swept) this.options.deps.metrics?.observeNotification(channel, 'unknown');
      if (swept.length > 0)
        this.log.warn(
          { unknown: swept.length },
          'notification sends whose outcome was never recorded are now UNKNOWN (not resent)',
        );
    } catch (error) {
      this.log.error({ err: error }, 'sweeping unrecorded notification sends failed');
    }
  }

  private attempt(row: NotificationRow, leaseUntil: Date): Promise<'sent' | 'failed' | 'retry'> {
    const tracing = this.options.deps.tracing;
    if (!tracing) return this.attemptOnce(row, leaseUntil, undefined);
    // A CLIENT span around the send and the recording of its outcome (docs/operations.md#traces).
    return inSpan(
      tracing.tracer,
      'notification delivery',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'portier.tenant.id': row.tenant_id,
          'portier.notification.id': row.id,
          'portier.notification.channel': row.channel,
          'portier.notification.kind': row.kind,
          'portier.notification.attempt': row.attempts + 1,
        },
      },
      (span) => this.attemptOnce(row, leaseUntil, span),
    );
  }

  private async attemptOnce(
    row: NotificationRow,
    leaseUntil: Date,
    span: Span | undefined,
  ): Promise<'sent' | 'failed' | 'retry'> {
    let error: string | null = null;
    let send: (() => Promise<void>) | undefined;
    try {
      send = await this.prepare(row);
    } catch (e) {
      error = (e as Error).message || 'send failed';
    }
    if (send) {
      // Committed before the message leaves (at most once): if it is not, nothing is sent.
      if (!(await repo.markSending(this.db, row, leaseUntil))) throw new Error('the notification claim was lost');
      try {
        await send();
      } catch (e) {
        error = (e as Error).message || 'send failed';
      }
    }
    const at = this.now;
    const attempts = row.attempts + 1;
    const next =
      error === null ? null : attempts >= MAX_NOTIFICATION_ATTEMPTS ? null : nextNotificationAttempt(attempts, at);
    const status = error === null ? 'sent' : next ? 'pending' : 'failed';
    await repo.settle(this.db, row, leaseUntil, send ? 'sending' : 'pending', {
      status,
      error,
      nextAttemptAt: next,
      at,
    });
    const outcome = status === 'sent' ? 'success' : status === 'failed' ? 'given_up' : 'failure';
    this.options.deps.metrics?.observeNotification(row.channel, outcome);
    if (span) {
      span.setAttribute('portier.delivery.outcome', outcome);
      if (error !== null) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    }
    if (error !== null) {
      this.log.warn(
        { notificationId: row.id, channel: row.channel, kind: row.kind, attempts, error, final: status === 'failed' },
        'notification not sent',
      );
    }
    return status === 'sent' ? 'sent' : status === 'failed' ? 'failed' : 'retry';
  }

  /** The guest's key as GET …/credentials gives it now (credentials are issued if missing). */
  private async keyOf(row: NotificationRow): Promise<GuestKey> {
    if (!row.booking_id) throw new Error('the notification has no booking');
    const bookingId = row.booking_id;
    const credentials = await this.db
      .transaction()
      .execute((trx) => getCredentials(trx, this.options.deps, row.tenant_id, bookingId));
    return { qrToken: credentials.qrCode.token, smsCode: credentials.sms.code };
  }

  /** The booking's reference, language and links as they are now (a raised link version is never mailed). */
  private async factsOf(row: NotificationRow): Promise<GuestFacts> {
    if (!row.booking_id) throw new Error('the notification has no booking');
    const facts = await this.options.deps.guestFacts(this.db, row.tenant_id, row.booking_id);
    if (!facts) throw new Error('the booking of the notification was not found');
    return facts;
  }

  /** A series mail's occurrences' references and manage links as they are now (one that is gone is left out). */
  private async occurrencesOf(row: NotificationRow): Promise<Record<string, { reference: string; manageUrl: string }>> {
    const out: Record<string, { reference: string; manageUrl: string }> = {};
    for (const { bookingId } of row.data.series?.booked ?? []) {
      const facts = await this.options.deps.guestFacts(this.db, row.tenant_id, bookingId);
      if (facts) out[bookingId] = { reference: facts.reference, manageUrl: facts.manageUrl };
    }
    return out;
  }

  /**
   * Everything a send needs before it talks to the peer (the guest's key, the booking's links, the
   * settings, the mail): a failure here sent nothing, so it is retried. Returns the send itself.
   */
  private async prepare(row: NotificationRow): Promise<() => Promise<void>> {
    const keyed = KEYED_KINDS.has(row.kind);
    if (row.channel === 'sms') {
      // The environment's SMS sender, else the venue's own (dashboard), resolved now: no restart.
      const sms = this.sms !== undefined ? this.sms : await this.options.deps.providers.sms(row.tenant_id);
      if (!sms) throw new Error('SMS is not configured on this installation (SMS_ACCOUNT_SID) nor for the venue');
      const body = composeSms(row.kind, row.data, await this.factsOf(row), keyed ? await this.keyOf(row) : undefined);
      return () => sms.send(row.recipient, body);
    }
    const mailer = this.mailer !== undefined ? this.mailer : await this.options.deps.providers.mailer(row.tenant_id);
    if (!mailer) throw new Error('email is not configured on this installation (SMTP_URL) nor for the venue');
    const settings = await repo.findSettings(this.db, row.tenant_id);
    const domain = domainOf(mailer.from);
    const mail = await composeMail({
      kind: row.kind,
      data: row.data,
      sequence: row.sequence,
      key: keyed ? await this.keyOf(row) : undefined,
      facts: await this.factsOf(row),
      ...(row.kind === 'series_confirmed' ? { occurrences: await this.occurrencesOf(row) } : {}),
      recipient: row.recipient,
      fromAddress: mailer.from,
      stamp: row.created_at,
      domain,
    });
    const outgoing = {
      ...mail,
      to: row.recipient,
      fromName: settings?.sender_name ?? row.data.accommodation.name,
      replyTo: settings?.reply_to ?? null,
      messageId: `<notification-${row.id}.${row.resends}@${domain}>`,
    };
    return () => mailer.send(outgoing);
  }

  /** One pass: send what is due (up to the concurrency) and wait for those attempts. Tests drive it. */
  async runOnce(): Promise<SenderSummary> {
    const outcomes = (await Promise.all(await this.startDue())).filter((o) => o !== null);
    return {
      attempted: outcomes.length,
      sent: outcomes.filter((o) => o === 'sent').length,
      failed: outcomes.filter((o) => o !== 'sent').length,
    };
  }

  /** Passes until nothing due is left (tests). */
  async drain(): Promise<SenderSummary> {
    const total: SenderSummary = { attempted: 0, sent: 0, failed: 0 };
    for (;;) {
      const pass = await this.runOnce();
      total.attempted += pass.attempted;
      total.sent += pass.sent;
      total.failed += pass.failed;
      if (pass.attempted === 0) return total;
    }
  }

  /** Polls in the background until stop(). */
  start(): void {
    this.loop.start();
  }

  /** Stops polling and waits for the sends in flight, so their outcomes are recorded. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.inFlight]);
  }
}

export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase() || 'portier.invalid';
}
