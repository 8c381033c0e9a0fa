import { describe, expect, it } from 'vitest';
import { slotTimes, type ScheduledSlot, type SlotView } from '../availability/index.js';
import {
  accentColours,
  contrastRatio,
  durationLabel,
  durationsOf,
  freeStarts,
  includedVat,
  originOf,
  pageCsp,
  policyLines,
} from './page.rules.js';

const H = 3_600_000;
const T0 = Date.UTC(2030, 0, 7, 8);
function day(free: boolean[], hours = 1): { grid: ScheduledSlot[]; slots: SlotView[] } {
  const grid = free.map((_, i) => ({
    start: T0 + i * hours * H,
    end: T0 + (i + 1) * hours * H,
    startLabel: `${String(9 + i).padStart(2, '0')}:00`,
    endLabel: `${String(10 + i).padStart(2, '0')}:00`,
  }));
  return {
    grid,
    slots: grid.map((g, i) => ({
      start: g.startLabel,
      end: g.endLabel,
      available: free[i] ?? false,
      ...slotTimes(g, null),
    })),
  };
}

describe('durationsOf', () => {
  it.each([
    [{ min_duration_minutes: 60, max_duration_minutes: 180, slot_increment_minutes: 60 }, [60, 120, 180]],
    [{ min_duration_minutes: 45, max_duration_minutes: 120, slot_increment_minutes: 30 }, [60, 90, 120]],
    [{ min_duration_minutes: 60, max_duration_minutes: 60, slot_increment_minutes: 30 }, [60]],
    [
      { min_duration_minutes: 30, max_duration_minutes: 1440, slot_increment_minutes: 30 },
      [30, 60, 90, 120, 150, 180, 210, 240],
    ],
    [{ min_duration_minutes: 90, max_duration_minutes: 60, slot_increment_minutes: 60 }, [120]],
  ])('%j offers %j', (rules, expected) => {
    expect(durationsOf(rules)).toEqual(expected);
  });
});

describe('freeStarts', () => {
  it('offers each start of a free slot for one slot', () => {
    const { grid, slots } = day([true, false, true]);
    expect(freeStarts(grid, slots, 60).map((s) => s.startLabel)).toEqual(['09:00', '11:00']);
  });
  it('offers a longer booking only where consecutive slots are all free', () => {
    const { grid, slots } = day([true, true, false, true, true, true]);
    const starts = freeStarts(grid, slots, 120);
    expect(starts.map((s) => `${s.startLabel}-${s.endLabel}`)).toEqual(['09:00-11:00', '12:00-14:00', '13:00-15:00']);
    expect(starts[0]?.end.getTime()).toBe(T0 + 2 * H);
  });
  it('offers nothing for a duration off the grid, or when the grid does not match the slots', () => {
    const { grid, slots } = day([true, true]);
    expect(freeStarts(grid, slots, 90)).toEqual([]);
    expect(freeStarts(grid.slice(1), slots, 60)).toEqual([]);
  });
  it('never joins slots with a gap between them', () => {
    const { grid, slots } = day([true, true]);
    const [first, second] = grid;
    if (!first || !second) throw new Error('two slots expected');
    const gap = [first, { ...second, start: second.start + H, end: second.end + H }];
    expect(freeStarts(gap, slots, 120)).toEqual([]);
  });
});

describe('presentation rules', () => {
  it('labels durations', () => {
    expect([45, 60, 90, 120].map(durationLabel)).toEqual(['45 min', '1 h', '1 h 30 min', '2 h']);
  });
  it('keeps text on the accent readable (WCAG AA)', () => {
    for (const accent of ['#0f766e', '#ffff00', '#000000', '#3b82f6', '#f59e0b', null, 'red']) {
      const { accent: fill, onAccent, link } = accentColours(accent);
      expect(contrastRatio(fill, onAccent)).toBeGreaterThanOrEqual(3);
      expect(contrastRatio(link, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    }
  });
  it('sorts policy tiers by notice, largest first', () => {
    expect(
      policyLines([
        { hoursBeforeStart: 24, refundPercent: 50 },
        { hoursBeforeStart: 48, refundPercent: 100 },
      ]),
    ).toEqual([
      { hoursBeforeStart: 48, refundPercent: 100 },
      { hoursBeforeStart: 24, refundPercent: 50 },
    ]);
  });
  it('computes the VAT a gross price includes', () => {
    expect(includedVat(2000, 1900)).toBe(319);
    expect(includedVat(2000, 0)).toBe(0);
  });
  it.each([
    ['https://club.example', 'https://club.example'],
    ['http://127.0.0.1:8080/page', 'http://127.0.0.1:8080'],
    ['javascript:alert(1)', undefined],
    ['not a url', undefined],
  ])('reads the origin of %s', (value, origin) => {
    expect(originOf(value)).toBe(origin);
  });
  it('frames the page only for the allowed origins', () => {
    expect(pageCsp('n', null)).toContain("frame-ancestors 'none'");
    expect(pageCsp('n', [])).toContain("frame-ancestors 'none'");
    expect(pageCsp('n', ['https://a.example', 'https://b.example'])).toContain(
      'frame-ancestors https://a.example https://b.example',
    );
    expect(pageCsp('n', null)).toContain("style-src 'self' 'nonce-n'");
    expect(pageCsp('n', null)).not.toMatch(/unsafe|\*/);
  });
});
