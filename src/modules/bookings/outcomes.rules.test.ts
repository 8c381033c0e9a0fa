import { describe, expect, it } from 'vitest';
import { cancellationReasonOf, noShowRefusal } from './outcomes.rules.js';

describe('cancellationReasonOf', () => {
  const long = 'x'.repeat(501);
  it.each([
    [{ status: 'CANCELLED' }, null],
    [
      { status: 'CANCELLED', reasonCode: 'WEATHER' },
      { code: 'WEATHER', text: null },
    ],
    [
      { status: 'CANCELLED', reasonCode: 'WEATHER', reason: '  Storm  ' },
      { code: 'WEATHER', text: 'Storm' },
    ],
    [
      { status: 'CANCELLED', reason: 'Broken net' },
      { code: 'OTHER', text: 'Broken net' },
    ],
    [
      { status: 'CANCELLED', reasonCode: 'GUEST_REQUEST', reason: '' },
      { code: 'GUEST_REQUEST', text: null },
    ],
    [
      { status: 'CANCELLED', reason: 'Zeile 1\nZeile 2\t✓ 🎾' },
      { code: 'OTHER', text: 'Zeile 1\nZeile 2\t✓ 🎾' },
    ],
    [
      { status: 'CANCELLED', reason: '🎾'.repeat(500) },
      { code: 'OTHER', text: '🎾'.repeat(500) },
    ],
    [
      { status: 'CONFIRMED', reasonCode: 'WEATHER' },
      { field: 'reasonCode', code: 'validation_failed' },
    ],
    [
      { status: undefined, reason: 'x' },
      { field: 'reason', code: 'validation_failed' },
    ],
    [
      { status: 'CANCELLED', reasonCode: 'RAIN' },
      { field: 'reasonCode', contains: 'GUEST_REQUEST' },
    ],
    [
      { status: 'CANCELLED', reasonCode: 'OTHER' },
      { field: 'reason', contains: 'OTHER' },
    ],
    [{ status: 'CANCELLED', reasonCode: 'OTHER', reason: '   ' }, { field: 'reason' }],
    [
      { status: 'CANCELLED', reason: long },
      { field: 'reason', contains: 'at most 500' },
    ],
    [
      { status: 'CANCELLED', reason: 'a\u0000b' },
      { field: 'reason', contains: 'control' },
    ],
    [
      { status: 'CANCELLED', reason: 42 },
      { field: 'reason', message: 'must be a string' },
    ],
  ] as const)('%j → %j', (input, expected: Record<string, string | null> | null) => {
    const result = cancellationReasonOf(input);
    if (expected === null) {
      expect(result).toBeNull();
      return;
    }
    const { contains, ...exact } = expected;
    expect(result).toMatchObject(exact);
    if (contains) expect(result && 'message' in result ? result.message : '').toContain(contains);
  });
});

describe('noShowRefusal', () => {
  const start = new Date('2026-11-20T10:00:00Z');
  it.each([
    ['CONFIRMED', null, '2026-11-20T10:00:00Z', null],
    ['CONFIRMED', null, '2026-11-20T12:00:00Z', null],
    ['CONFIRMED', null, '2026-11-20T09:59:59Z', 'no_show_before_start'],
    ['PENDING', null, '2026-11-20T11:00:00Z', 'invalid_transition'],
    ['CANCELLED', null, '2026-11-20T11:00:00Z', 'invalid_transition'],
    ['COMPLETED', null, '2026-11-20T11:00:00Z', 'invalid_transition'],
    ['CONFIRMED', new Date('2026-11-20T10:30:00Z'), '2026-11-20T11:00:00Z', 'already_no_show'],
  ] as const)('%s, marked %s, at %s → %s', (status, marked, now, code) => {
    const refusal = noShowRefusal({ status, start_time: start, no_show_at: marked }, new Date(now));
    if (code === null) expect(refusal).toBeNull();
    else expect(refusal?.code).toBe(code);
  });
});
