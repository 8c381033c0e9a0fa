import { describe, expect, it } from 'vitest';
import pino from 'pino';
import type { GraphQLContext } from '../context.js';
import type { Loaders } from '../deps.js';
import { LiveHub } from './hub.js';
import { loopback } from './loopback.test-support.js';
import { liveStream } from './live.js';
import { SubscriptionSlots } from './slots.js';
import { StreamGuard } from './guard.js';

/** A subscriber's context: the tenant's API key, the hub, and loaders that count how often they are made. */
function contexts(count: number, hub: LiveHub) {
  const made: Loaders[] = [];
  const db = {};
  const deps = {
    live: {
      hub,
      slots: new SubscriptionSlots(100),
      guard: new StreamGuard(async (ps) => ps.map((p) => ({ scopes: p.scopes })), pino({ level: 'silent' }), 60_000),
    },
    log: pino({ level: 'silent' }),
    createLoaders: () => {
      const loaders = { n: made.length } as unknown as Loaders;
      made.push(loaders);
      return loaders;
    },
  };
  const ctxs = Array.from(
    { length: count },
    (_, i) =>
      ({
        deps,
        db,
        principal: { kind: 'apiKey', keyId: `k${i}`, tenantId: 't1', scopes: [], rateLimitPerMinute: null },
      }) as unknown as GraphQLContext,
  );
  return { ctxs, made };
}

describe('liveStream', () => {
  it('maps each message with loaders made for it, shared by every subscriber of that message', async () => {
    const hub = new LiveHub(loopback(), pino({ level: 'silent' }));
    const { ctxs, made } = contexts(3, hub);
    const seen = new Map<unknown, Loaders[]>();
    const streams = await Promise.all(
      ctxs.map((ctx) =>
        liveStream(ctx, 'access', (data) => {
          seen.set(data.n, [...(seen.get(data.n) ?? []), ctx.loaders]);
          return data.n;
        }),
      ),
    );
    hub.publish({ topic: 'access', tenantId: 't1', data: { n: 0 } });
    expect(await Promise.all(streams.map((s) => s.next()))).toEqual(Array(3).fill({ value: 0, done: false }));
    hub.publish({ topic: 'access', tenantId: 't1', data: { n: 1 } });
    expect(await Promise.all(streams.map((s) => s.next()))).toEqual(Array(3).fill({ value: 1, done: false }));
    // One set per message (fresh: a later message never reads from an earlier one's cache), not one per subscriber.
    expect(made).toHaveLength(2);
    expect(seen.get(0)).toEqual(Array(3).fill(made[0]));
    expect(seen.get(1)).toEqual(Array(3).fill(made[1]));
    expect(made[0]).not.toBe(made[1]);
    for (const s of streams) await s.return?.();
    await hub.close();
  });
});
