import { describe, expect, it } from 'vitest';
import {
  escapeHtml,
  hasControlCharacters,
  headerSafe,
  localRange,
  MAX_NOTIFICATION_ATTEMPTS,
  nextNotificationAttempt,
  reminderDueAt,
} from './notification.rules.js';

describe('reminderDueAt', () => {
  it.each([
    // Europe/Berlin goes to summer time on 28 Mar 2027 and back on 31 Oct 2027.
    [
      '24 h across the spring change: same local time the day before (23 h)',
      '2027-03-28T08:00:00Z',
      24,
      'Europe/Berlin',
      '2027-03-27T09:00:00.000Z',
    ],
    [
      '24 h across the autumn change: same local time the day before (25 h)',
      '2027-10-31T09:00:00Z',
      24,
      'Europe/Berlin',
      '2027-10-30T08:00:00.000Z',
    ],
    ['2 h: elapsed time', '2026-11-25T10:00:00Z', 2, 'Europe/Berlin', '2026-11-25T08:00:00.000Z'],
    [
      '26 h: a calendar day and 2 elapsed hours',
      '2027-03-28T08:00:00Z',
      26,
      'Europe/Berlin',
      '2027-03-27T07:00:00.000Z',
    ],
    ['48 h in a zone without DST', '2026-11-25T10:00:00Z', 48, 'Asia/Tokyo', '2026-11-23T10:00:00.000Z'],
  ])('%s', (_, start, hours, zone, expected) => {
    expect(reminderDueAt(new Date(start), hours, zone).toISOString()).toBe(expected);
  });
});

describe('nextNotificationAttempt', () => {
  const now = new Date('2026-11-20T09:00:00Z');
  it.each([
    [1, 10_000],
    [2, 60_000],
    [3, 600_000],
    [4, 3_600_000],
    [5, 21_600_000],
  ])('after %i failed attempts waits %i ms', (attempts, delay) => {
    expect(nextNotificationAttempt(attempts, now)?.getTime()).toBe(now.getTime() + delay);
  });
  it('gives up after the last attempt', () => {
    expect(MAX_NOTIFICATION_ATTEMPTS).toBe(6);
    expect(nextNotificationAttempt(6, now)).toBeNull();
  });
});

describe('header and HTML safety', () => {
  it.each([
    ['Court\r\nBcc: x@example.com', 'Court Bcc: x@example.com'],
    ['A\u2028B', 'A B'],
    ['plain', 'plain'],
  ])('headerSafe(%j)', (input, expected) => {
    expect(headerSafe(input)).toBe(expected);
    expect(hasControlCharacters(headerSafe(input))).toBe(false);
  });
  it('escapes the characters HTML gives meaning to', () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&`)).toBe(
      '&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;',
    );
  });
  it('names the zone and the end date only when it differs', () => {
    expect(localRange('2026-11-21T10:00:00Z', '2026-11-21T11:30:00Z', 'Europe/Berlin')).toBe(
      'Sat 21 Nov 2026, 11:00–12:30 (Europe/Berlin)',
    );
    expect(localRange('2026-11-21T22:00:00Z', '2026-11-22T01:00:00Z', 'Europe/Berlin')).toBe(
      'Sat 21 Nov 2026, 23:00–Sun 22 Nov 2026, 02:00 (Europe/Berlin)',
    );
  });
});
