import { afterEach, describe, expect, it } from 'vitest';
import { guardMemoryUsage } from './load-shedding.js';

// Issue #23, finding 7: under-pressure reads process.memoryUsage() from a timer; while every
// descriptor is in use that read throws EMFILE, and a throw from a timer ends the process.

const original = process.memoryUsage;
afterEach(() => {
  process.memoryUsage = original;
});

function emfile(): never {
  throw Object.assign(new Error('EMFILE: too many open files, uv_resident_set_memory'), { code: 'EMFILE' });
}

describe('guardMemoryUsage', () => {
  it('keeps the last reading (heap figures current) while reading the resident set size throws EMFILE', () => {
    let failing = false;
    const reading = { rss: 123, heapTotal: 1, heapUsed: 1, external: 0, arrayBuffers: 0 };
    const fake = Object.assign(() => (failing ? emfile() : reading), { rss: () => (failing ? emfile() : reading.rss) });
    process.memoryUsage = fake;
    guardMemoryUsage();
    expect(process.memoryUsage()).toEqual(reading);
    failing = true;
    const during = process.memoryUsage();
    expect(during.rss).toBe(123);
    expect(during.heapUsed).toBeGreaterThan(1);
    expect(process.memoryUsage.rss()).toBe(123);
    guardMemoryUsage(); // a second call does not wrap again
    expect(() => process.memoryUsage()).not.toThrow();
  });
});
