import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readEnv } from '../../src/kernel/env.js';
import { closeRuntime, startRuntime } from '../../src/app/runtime.js';
import type { AppDeps } from '../../src/app/deps.js';
import { createTenant } from '../../src/modules/tenants/tenants.service.js';
import { createAccommodation, createObject } from '../../src/modules/catalog/catalog.service.js';
import { parseCreateAccommodation, parseCreateObject } from '../../src/modules/catalog/catalog.commands.js';
import { createBooking, parseCreateBooking, updateBookingStatus } from '../../src/modules/bookings/index.js';
import { databaseSettings } from '../processes.js';
import { startServerProcess, type ServerProcess } from '../server-process.js';
import { EVERY_DAY_8_TO_22 } from '../builders.js';
import { startSmtpPeer, type SmtpPeer } from '../peers/mail-peers.js';

// Issue 25's "0 lost and 0 duplicated notifications under kill -9 with 50 pending", with real
// processes on the database this run uses (PGlite in a directory, or PostgreSQL): 50 confirmed
// bookings wait in the outbox; a server sends 10, then the SMTP server stops answering and the
// server is killed (-9) while 8 mails are in the middle of their DATA (not taken: the server never
// said 250). A new server process sends the rest. Since issue #42 delivery is at most once: the 8
// were recorded as SENDING before they left, so they are never sent again on their own; when their
// lease ends they are UNKNOWN (what staff see, to resend by hand). Every other booking's
// confirmation arrives exactly once; none twice.

const servers: ServerProcess[] = [];
let smtp: SmtpPeer | undefined;
let pgliteDir: string | undefined;
afterAll(async () => {
  for (const server of servers)
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  await smtp?.close();
  if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
});

async function until(what: string, check: () => boolean | Promise<boolean>, limitMs = 240_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A tenant with 50 CONFIRMED bookings whose confirmation mails are queued (no sender runs here). */
async function queueFifty(deps: AppDeps): Promise<string[]> {
  const db = deps.database.db;
  const { tenant } = await db.transaction().execute((trx) => createTenant(trx, 'Crash test'));
  const accommodation = await createAccommodation(
    db,
    tenant.id,
    parseCreateAccommodation({
      name: 'Sportpark Crash',
      address: 'Teststrasse 1, 10115 Berlin',
      timeZone: 'Europe/Berlin',
    }),
  );
  const object = await createObject(
    db,
    tenant.id,
    parseCreateObject({
      accommodationId: accommodation.id,
      name: 'Court 1',
      pricePerHour: 2000,
      openingHours: EVERY_DAY_8_TO_22,
    }),
  );
  const ids: string[] = [];
  const day0 = new Date();
  day0.setUTCHours(0, 0, 0, 0);
  for (let i = 0; i < 50; i += 1) {
    const start = new Date(day0.getTime() + (2 + Math.floor(i / 10)) * 86_400_000 + (7 + (i % 10)) * 3_600_000);
    const id = await db.transaction().execute(async (trx) => {
      const booking = await createBooking(
        trx,
        deps,
        tenant.id,
        parseCreateBooking({
          objectId: object.id,
          guestName: `Guest ${i}`,
          guestEmail: `guest-${i}@example.com`,
          startTime: start.toISOString(),
          endTime: new Date(start.getTime() + 3_600_000).toISOString(),
        }),
      );
      await updateBookingStatus(trx, deps, tenant.id, booking.id, { status: 'CONFIRMED' });
      return booking.id;
    });
    ids.push(id);
  }
  return ids;
}

describe('guest mail across kill -9', () => {
  it(
    '50 pending confirmations, the sender killed mid-send: after a restart 42 are sent exactly once, the 8 cut off are UNKNOWN, none twice',
    { timeout: 900_000 },
    async () => {
      smtp = await startSmtpPeer();
      const settings = await databaseSettings();
      pgliteDir = settings.pgliteDir;
      const mailEnv = {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'bookings@venue.example',
        SMTP_TIMEOUT_SECONDS: '2',
      };
      const env = { ...settings.env, ...mailEnv, RATE_LIMIT_PER_MINUTE: '1000000' };

      const deps = await startRuntime(readEnv({ ...env, LOG_LEVEL: 'silent' }), {
        logLevel: 'silent',
        sharedLimits: false,
      });
      let bookingIds: string[];
      let bookingOfMessage = new Map<string, string>();
      const ours = () => smtp!.mails.filter((m) => bookingOfMessage.has(m.parsed.messageId ?? ''));
      try {
        bookingIds = await queueFifty(deps);
        const pending = await deps.database.db
          .selectFrom('notifications')
          .select(['id', 'booking_id'])
          .where('booking_id', 'in', bookingIds)
          .where('status', '=', 'pending')
          .execute();
        expect(pending).toHaveLength(50);
        // The Message-ID each confirmation is sent with (a database shared with other tests may hold other mail).
        bookingOfMessage = new Map(
          pending.map((r) => [`<notification-${r.id}.0@venue.example>`, r.booking_id as string]),
        );
      } finally {
        await closeRuntime(deps);
      }

      // The first server: 10 mails are taken, then the SMTP server holds every DATA unanswered.
      smtp.acceptLimit = 10;
      const first = await startServerProcess(env);
      servers.push(first);
      await until('10 mails taken and 8 held', () => ours().length >= 10 && smtp!.held >= 8);
      first.child.kill('SIGKILL');
      const killedAt = Date.now();
      await first.exited;
      expect(ours()).toHaveLength(10);

      // The second server sends what is left; the 8 cut off become UNKNOWN when their lease
      // (3 × 2 s + 10 s) ends, at its sender's next pass after that.
      smtp.acceptLimit = null;
      const second = await startServerProcess(env);
      servers.push(second);
      await until('42 mails', () => ours().length >= 42);
      await until('the leases ended and a pass swept', () => Date.now() > killedAt + 16_000 + 5_000);
      expect(await second.stop()).toBe(0);

      const after = await startRuntime(readEnv({ ...env, LOG_LEVEL: 'silent' }), {
        logLevel: 'silent',
        sharedLimits: false,
      });
      try {
        const rows = await after.database.db
          .selectFrom('notifications')
          .select(['id', 'booking_id', 'status', 'attempts', 'last_error', 'next_attempt_at'])
          .where('booking_id', 'in', bookingIds)
          .execute();
        const ids = ours().map((m) => m.parsed.messageId);
        const diagnosis = JSON.stringify({
          notSent: rows.filter((r) => r.status !== 'sent'),
          repeated: ids.filter((id, i) => ids.indexOf(id) !== i),
        });
        const mailsPerBooking = new Map<string, number>();
        for (const mail of ours()) {
          const booking = bookingOfMessage.get(mail.parsed.messageId ?? '')!;
          mailsPerBooking.set(booking, (mailsPerBooking.get(booking) ?? 0) + 1);
        }
        const sent = rows.filter((r) => r.status === 'sent');
        const unknown = rows.filter((r) => r.status === 'unknown');
        expect(sent.length + unknown.length, diagnosis).toBe(50);
        expect(unknown, diagnosis).toHaveLength(8);
        expect(ours()).toHaveLength(42);
        expect(sent.map((r) => mailsPerBooking.get(r.booking_id!))).toEqual(Array(42).fill(1));
        expect(unknown.map((r) => mailsPerBooking.get(r.booking_id!) ?? 0)).toEqual(Array(8).fill(0));
        expect(unknown.every((r) => r.next_attempt_at === null && /never recorded/.test(r.last_error ?? ''))).toBe(
          true,
        );
      } finally {
        await closeRuntime(after);
      }
    },
  );
});
