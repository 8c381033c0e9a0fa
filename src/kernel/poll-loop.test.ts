import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PollLoop } from './poll-loop.js';

// The poll loop shared by the refund worker and the notification sender (src/kernel/poll-loop.ts).

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A pass that takes `ms` (fake time) and records when it started and ended. */
function timedPasses(ms: number, fail: (n: number) => boolean = () => false) {
  const log: string[] = [];
  let n = 0;
  let running = 0;
  let overlapped = false;
  const pass = async () => {
    const i = (n += 1);
    running += 1;
    overlapped ||= running > 1;
    log.push(`start ${i} @${Date.now()}`);
    await new Promise((resolve) => setTimeout(resolve, ms));
    running -= 1;
    log.push(`end ${i} @${Date.now()}`);
    if (fail(i)) throw new Error(`pass ${i} failed`);
  };
  return { pass, log, overlapped: () => overlapped, count: () => n };
}

describe('PollLoop', () => {
  it.each([
    { passMs: 0, intervalMs: 100, until: 350, passes: 4 },
    { passMs: 50, intervalMs: 100, until: 500, passes: 4 },
    { passMs: 300, intervalMs: 10, until: 1000, passes: 4 },
  ])(
    'pass of $passMs ms, interval $intervalMs ms: the next pass starts $intervalMs ms after the last one ended, never overlapping',
    async ({ passMs, intervalMs, until, passes }) => {
      vi.setSystemTime(0);
      const p = timedPasses(passMs);
      const loop = new PollLoop({ pass: p.pass, intervalMs, onError: () => undefined });
      loop.start();
      await vi.advanceTimersByTimeAsync(until);
      expect(p.count()).toBe(passes);
      expect(p.overlapped()).toBe(false);
      const starts = p.log.filter((l) => l.startsWith('start')).map((l) => Number(l.split('@')[1]));
      const ends = p.log.filter((l) => l.startsWith('end')).map((l) => Number(l.split('@')[1]));
      expect(starts[0]).toBe(0);
      for (let i = 1; i < starts.length; i += 1)
        expect((starts[i] ?? Number.NaN) - (ends[i - 1] ?? Number.NaN)).toBe(intervalMs);
      const stopping = loop.stop(); // waits for a pass still running
      await vi.advanceTimersByTimeAsync(passMs);
      await stopping;
    },
  );

  it('reports a failing pass and goes on polling', async () => {
    const errors: string[] = [];
    const p = timedPasses(0, (i) => i % 2 === 1);
    const loop = new PollLoop({ pass: p.pass, intervalMs: 10, onError: (e) => errors.push((e as Error).message) });
    loop.start();
    await vi.advanceTimersByTimeAsync(35);
    expect(p.count()).toBe(4);
    expect(errors).toEqual(['pass 1 failed', 'pass 3 failed']);
    await loop.stop();
  });

  it('starts once however often start() is called', async () => {
    const p = timedPasses(0);
    const loop = new PollLoop({ pass: p.pass, intervalMs: 10, onError: () => undefined });
    loop.start();
    loop.start();
    expect(loop.running).toBe(true);
    await vi.advanceTimersByTimeAsync(5);
    expect(p.count()).toBe(1);
    await loop.stop();
  });

  it('stop() waits for the pass in progress, and no pass runs after it', async () => {
    const p = timedPasses(100);
    const loop = new PollLoop({ pass: p.pass, intervalMs: 10, onError: () => undefined });
    loop.start();
    await vi.advanceTimersByTimeAsync(1); // the first pass is running
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(50);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(60);
    await stopping;
    expect(p.log.at(-1)).toMatch(/^end 1/);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(p.count()).toBe(1);
    expect(loop.running).toBe(false);
  });

  it('stop() before the first pass runs none; start() after stop() polls again', async () => {
    const p = timedPasses(0);
    const loop = new PollLoop({ pass: p.pass, intervalMs: 10, onError: () => undefined });
    loop.start();
    await loop.stop();
    await vi.advanceTimersByTimeAsync(100);
    expect(p.count()).toBe(0);
    loop.start();
    await vi.advanceTimersByTimeAsync(1);
    expect(p.count()).toBe(1);
    await loop.stop();
  });

  it('makes the first timer through schedule (e.g. detached from the caller’s trace context)', async () => {
    const p = timedPasses(0);
    const scheduled: string[] = [];
    const loop = new PollLoop({
      pass: p.pass,
      intervalMs: 10,
      onError: () => undefined,
      schedule: (makeTimer) => (scheduled.push('first timer'), makeTimer()),
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(25);
    expect(scheduled).toEqual(['first timer']);
    expect(p.count()).toBe(3);
    await loop.stop();
  });
});
