import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { send, startServerProcess, type ServerProcess } from './server-process.js';
import { slotInDays } from './builders.js';

// Issue 17's "the replay survives a process restart", with real processes: a create with an
// Idempotency-Key on one server process, SIGTERM, a new process on the same (embedded) database,
// and the retry is the replay of the first answer — no second booking. (test/idempotency.test.ts
// covers the same with a second app in-process, on both databases.)

const dir = mkdtempSync(join(tmpdir(), 'portier-idem-restart-'));
const servers: ServerProcess[] = [];

afterAll(async () => {
  for (const server of servers) await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<ServerProcess> {
  const server = await startServerProcess({ PGLITE_DIR: dir, RATE_LIMIT_PER_MINUTE: '1000000' });
  servers.push(server);
  return server;
}

describe('Idempotency-Key across a process restart', () => {
  it(
    'a retry on the restarted process replays the first answer and books nothing new',
    { timeout: 600_000 },
    async () => {
      const first = await start();
      // The banner is printed before the "listening" line, but through another pipe.
      for (let waited = 0; waited < 30_000 && !first.stdout.join('').includes('objects:'); waited += 50)
        await new Promise((r) => setTimeout(r, 50));
      const banner = first.stdout.join('');
      const apiKey = /apiKey:\s+(svc_\S+)/.exec(banner)?.[1];
      const tenantId = /tenantId:\s+(\S+)/.exec(banner)?.[1];
      const objectId = /objects:\s+([0-9a-f-]{36})/.exec(banner)?.[1];
      expect(apiKey && tenantId && objectId, `demo banner: ${banner}`).toBeTruthy();

      const body = JSON.stringify({ objectId, guestName: 'Ada', guestEmail: 'ada@example.com', ...slotInDays(3) });
      const create = (server: ServerProcess, id: string) =>
        send(`${server.url}/api/v1/tenants/${tenantId}/bookings`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': 'restart-order-1' },
          body,
          id,
        });
      const original = await create(first, 'before-restart');
      expect(original.status, original.body).toBe(201);
      expect(original.headers?.['idempotent-replayed']).toBeUndefined();

      expect(await first.stop()).toBe(0);
      const second = await start();
      const retry = await create(second, 'after-restart');
      expect(retry.status).toBe(201);
      expect(retry.headers?.['idempotent-replayed']).toBe('true');
      expect(retry.body).toBe(original.body);

      const list = await send(`${second.url}/api/v1/tenants/${tenantId}/bookings`, {
        headers: { authorization: `Bearer ${apiKey}` },
        id: 'list',
      });
      const bookings = (JSON.parse(list.body ?? '{}') as { bookings: { id: string }[] }).bookings;
      expect(bookings.map((b) => b.id)).toEqual([
        (JSON.parse(original.body ?? '{}') as { booking: { id: string } }).booking.id,
      ]);
    },
  );
});
