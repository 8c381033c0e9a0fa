import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { LiveHub, MAX_QUEUED_MESSAGES, type LiveMessage, type LiveTransport } from './hub.js';
import { loopback } from './loopback.test-support.js';
import { SubscriptionSlots } from './slots.js';

const log = pino({ level: 'silent' });

describe('LiveHub', () => {
  it('hands a published message to its tenant’s subscribers of its topic only', async () => {
    const hub = new LiveHub(loopback(), log);
    const mine = await hub.subscribe('t1', 'access');
    const other = await hub.subscribe('t2', 'access');
    const events = await hub.subscribe('t1', 'event');
    hub.publish({ topic: 'access', tenantId: 't1', data: { n: 1 } });
    expect(await mine.next()).toEqual({ value: { n: 1 }, done: false });
    await Promise.all([other.return(), events.return()]);
    expect(hub.size).toBe(1);
    await hub.close();
    expect(await mine.next()).toEqual({ value: undefined, done: true });
  });

  it('publishes one batch after another: a slow first publish is not overtaken by the next tick’s', async () => {
    // As NOTIFY on two pooled connections: each publish delivers when it commits, and the first is slow.
    const listeners = new Set<(m: LiveMessage) => void>();
    let calls = 0;
    const transport: LiveTransport = {
      name: 'postgres-notify',
      async publish(messages) {
        const delay = calls++ === 0 ? 30 : 0;
        await new Promise((resolve) => setTimeout(resolve, delay));
        for (const m of messages) for (const l of listeners) l(m);
      },
      listen(onMessage) {
        listeners.add(onMessage);
        return Promise.resolve(() => Promise.resolve());
      },
    };
    const hub = new LiveHub(transport, log);
    const stream = await hub.subscribe('t1', 'access');
    hub.publish({ topic: 'access', tenantId: 't1', data: { n: 1 } });
    await new Promise((resolve) => setImmediate(resolve));
    hub.publish({ topic: 'access', tenantId: 't1', data: { n: 2 } });
    expect(await stream.next()).toEqual({ value: { n: 1 }, done: false });
    expect(await stream.next()).toEqual({ value: { n: 2 }, done: false });
    expect(calls).toBe(2);
    await hub.close();
  });

  it('return() ends a waiting next() at once and drops the subscriber', async () => {
    const hub = new LiveHub(loopback(), log);
    const stream = await hub.subscribe('t1', 'event');
    const waiting = stream.next();
    await stream.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(hub.size).toBe(0);
    expect(hub.watching('event')).toEqual([]);
  });

  it('listens from the first subscription on and stops on close', async () => {
    const transport = loopback();
    const hub = new LiveHub(transport, log);
    expect(transport.listening).toBe(0);
    await hub.subscribe('t1', 'event');
    expect(transport.listening).toBe(1);
    await hub.close();
    expect(transport.listening).toBe(0);
  });

  it(`ends a subscriber that falls ${MAX_QUEUED_MESSAGES} messages behind, with an error`, async () => {
    const hub = new LiveHub(loopback(), log);
    const stream = await hub.subscribe('t1', 'event');
    for (let i = 0; i <= MAX_QUEUED_MESSAGES; i += 1) hub.deliver({ topic: 'event', tenantId: 't1', data: { i } });
    await expect(stream.next()).rejects.toThrow(/fell 1000 messages behind/);
    expect(hub.size).toBe(0);
  });

  it('skips the messages a filter refuses before they queue: a burst of other events neither wakes nor ends its subscribers', async () => {
    const hub = new LiveHub(loopback(), log);
    let asked = 0;
    const isBooking = (data: Record<string, unknown>) => {
      asked += 1;
      return String(data.type).startsWith('booking.');
    };
    const bookings = await Promise.all([1, 2, 3].map(() => hub.subscribe('t1', 'event', isBooking)));
    const everything = await hub.subscribe('t1', 'event');
    // More device events than a subscriber may have waiting, then one booking event.
    for (let i = 0; i < 3 * MAX_QUEUED_MESSAGES; i += 1)
      hub.deliver({ topic: 'event', tenantId: 't1', data: { type: 'device.offline', i } });
    hub.deliver({ topic: 'event', tenantId: 't1', data: { type: 'booking.created' } });
    for (const stream of bookings)
      expect(await stream.next()).toEqual({ value: { type: 'booking.created' }, done: false });
    // Asked once per message for all three, not once per subscriber.
    expect(asked).toBe(3 * MAX_QUEUED_MESSAGES + 1);
    // The unfiltered subscriber fell behind and was ended; the filtered ones still listen.
    await expect(everything.next()).rejects.toThrow(/fell 1000 messages behind/);
    expect(hub.size).toBe(3);
    const [first] = bookings;
    await first?.return();
    expect(hub.size).toBe(2);
    await hub.close();
    expect(hub.size).toBe(0);
  });

  it('names the tenants watching a topic, or only those with a subscriber that would be handed a probe', async () => {
    const hub = new LiveHub(loopback(), log);
    const bookingsOnly = (data: Record<string, unknown>) => String(data.type).startsWith('booking.');
    const presenceOnly = (data: Record<string, unknown>) => String(data.type).startsWith('device.');
    await hub.subscribe('bookings', 'event', bookingsOnly);
    await hub.subscribe('both', 'event', bookingsOnly);
    const presence = await hub.subscribe('both', 'event', presenceOnly);
    await hub.subscribe('everything', 'event');
    await hub.subscribe('access', 'access');
    const probes = [{ type: 'device.offline' }, { type: 'device.online' }];
    // One table of (probes, tenants): none given is every tenant of the topic.
    const cases: [readonly Record<string, unknown>[] | undefined, string[]][] = [
      [undefined, ['bookings', 'both', 'everything']],
      [probes, ['both', 'everything']],
      [[{ type: 'booking.created' }], ['bookings', 'both', 'everything']],
      [[], []],
    ];
    for (const [given, tenants] of cases) expect(hub.watching('event', given).sort()).toEqual(tenants);
    await presence.return();
    expect(hub.watching('event', probes)).toEqual(['everything']);
    await hub.close();
  });

  it('tells its sources which tenants it watches', async () => {
    const watched: string[] = [];
    const hub = new LiveHub(loopback(), log, [
      {
        start: () => Promise.resolve(() => Promise.resolve()),
        watch: (tenantId) => {
          watched.push(`+${tenantId}`);
          return Promise.resolve();
        },
        unwatch: (tenantId) => watched.push(`-${tenantId}`),
      },
    ]);
    const a = await hub.subscribe('t1', 'event');
    const b = await hub.subscribe('t1', 'event');
    await a.return();
    await b.return();
    expect(watched).toEqual(['+t1', '-t1']);
  });
});

describe('SubscriptionSlots', () => {
  it.each([
    { limit: 1, taken: 0, refused: false },
    { limit: 1, taken: 1, refused: true },
    { limit: 3, taken: 2, refused: false },
    { limit: 3, taken: 3, refused: true },
  ])('limit $limit with $taken taken: one more refused = $refused', ({ limit, taken, refused }) => {
    const slots = new SubscriptionSlots(limit);
    for (let i = 0; i < taken; i += 1) slots.take('k');
    const more = () => slots.take('k');
    if (refused)
      expect(more).toThrow(
        `already holds ${limit} open subscriptions, the most MAX_SUBSCRIPTIONS_PER_KEY (${limit}) allows`,
      );
    else expect(more).not.toThrow();
  });

  it('a released slot is free again (once, however often released); holders count apart', () => {
    const slots = new SubscriptionSlots(1);
    const release = slots.take('a');
    expect(() => slots.take('a')).toThrow(/MAX_SUBSCRIPTIONS_PER_KEY/);
    expect(() => slots.take('b')).not.toThrow();
    release();
    release();
    expect(slots.heldBy('a')).toBe(0);
    slots.take('a');
    expect(slots.heldBy('a')).toBe(1);
  });
});
