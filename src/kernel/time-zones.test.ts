import { DateTime, IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { zoneNamed } from './time-zones.js';

// The remembering zone must answer exactly what Luxon's IANA zone answers, at and around
// transitions (whole hours, half-hour DST in Lord Howe, +05:45 and +12:45 zones), asked once or
// many times, for instants and for local wall-clock times (gaps and repeated hours).
const TRANSITIONS: [string, string][] = [
  ['Europe/Berlin', '2026-03-29T01:00:00Z'],
  ['Europe/Berlin', '2026-10-25T01:00:00Z'],
  ['America/New_York', '2026-03-08T07:00:00Z'],
  ['America/New_York', '2026-11-01T06:00:00Z'],
  ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'],
  ['Australia/Lord_Howe', '2026-10-03T15:30:00Z'],
  ['Asia/Kathmandu', '2026-06-01T00:00:00Z'],
  ['Pacific/Chatham', '2026-04-04T14:00:00Z'],
  ['Pacific/Auckland', '2026-09-26T14:00:00Z'],
];

describe('zoneNamed', () => {
  it.each(TRANSITIONS)('gives %s the offsets Luxon gives around %s', (name, at) => {
    const iana = IANAZone.create(name);
    const zone = zoneNamed(name);
    if (typeof zone === 'string') throw new Error('expected a zone');
    const t = Date.parse(at);
    for (const delta of [-3_600_001, -60_001, -60_000, -1, 0, 1, 59_999, 60_000, 3_600_000, 86_400_000]) {
      for (let round = 0; round < 2; round += 1) expect(zone.offset(t + delta)).toBe(iana.offset(t + delta));
    }
  });

  it.each(TRANSITIONS)('reads local times in %s as Luxon does near %s', (name, at) => {
    const local = DateTime.fromISO(at, { zone: name });
    for (let minutes = -150; minutes <= 150; minutes += 15) {
      const wall = local.plus({ minutes }).toObject();
      const plain = DateTime.fromObject(wall, { zone: name });
      const remembered = DateTime.fromObject(wall, { zone: zoneNamed(name) });
      expect(remembered.toMillis()).toBe(plain.toMillis());
      expect(remembered.toFormat('yyyy-MM-dd HH:mm ZZ')).toBe(plain.toFormat('yyyy-MM-dd HH:mm ZZ'));
      expect(remembered.setLocale('en-GB').toLocaleString(DateTime.DATETIME_FULL)).toBe(
        plain.setLocale('en-GB').toLocaleString(DateTime.DATETIME_FULL),
      );
    }
  });

  it('is one instance per name, and passes an unknown name through for Luxon to refuse', () => {
    expect(zoneNamed('Europe/Berlin')).toBe(zoneNamed('Europe/Berlin'));
    expect(zoneNamed('Mars/Olympus')).toBe('Mars/Olympus');
    expect(DateTime.now().setZone(zoneNamed('Mars/Olympus')).isValid).toBe(false);
  });
});
