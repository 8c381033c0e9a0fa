import { describe, expect, it } from 'vitest';
import { addDays, daysFrom } from './dates.js';
import { MAX_AVAILABILITY_DAYS, parseAvailabilityRequest } from './availability.commands.js';
import { DomainError } from '../../kernel/errors.js';

describe('addDays', () => {
  it.each([
    ['2026-03-28', 1, '2026-03-29'], // Berlin's spring change: calendar days, not 24-hour steps
    ['2026-03-29', 1, '2026-03-30'],
    ['2026-10-25', 1, '2026-10-26'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2027-02-28', 1, '2027-03-01'],
    ['2026-11-01', 30, '2026-12-01'],
    ['2026-11-01', -1, '2026-10-31'],
    ['0001-01-01', 1, '0001-01-02'],
    ['0099-12-31', 1, '0100-01-01'],
    ['9999-12-30', 1, '9999-12-31'],
  ])('%s + %i days is %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });
});

describe('daysFrom', () => {
  it.each([
    ['2026-11-20', '2026-11-20', 40, ['2026-11-20']],
    ['2026-11-20', '2026-11-22', 40, ['2026-11-20', '2026-11-21', '2026-11-22']],
    ['2026-03-28', '2026-03-30', 40, ['2026-03-28', '2026-03-29', '2026-03-30']],
    ['2026-11-22', '2026-11-20', 40, []],
    ['2026-11-01', '2026-12-31', 3, ['2026-11-01', '2026-11-02', '2026-11-03']],
  ])('from %s to %s (at most %i) is %j', (from, to, limit, expected) => {
    expect(daysFrom(from, to, limit)).toEqual(expected);
  });
});

describe('parseAvailabilityRequest', () => {
  const fieldsOf = (input: Record<string, unknown>) => {
    try {
      parseAvailabilityRequest(input);
    } catch (error) {
      if (error instanceof DomainError) return error.fieldErrors.map((f) => f.field);
      throw error;
    }
    return [];
  };

  it.each([
    [{ date: '2026-11-20' }, []],
    [{ from: '2026-11-20', to: '2026-11-20' }, []],
    [{ from: '2026-11-01', to: '2026-12-01' }, []], // 31 days
    [{}, ['date']],
    [{ date: 'tomorrow' }, ['date']],
    [{ from: '2026-11-01', to: '2026-12-02' }, ['to']], // 32 days
    [{ from: '2026-11-21', to: '2026-11-20' }, ['to']],
    [{ from: '2026-11-20' }, ['to']],
    [{ to: '2026-11-20' }, ['from']],
    [{ from: 'x', to: 'y' }, ['from', 'to']],
    [{ date: '2026-11-20', from: '2026-11-20', to: '2026-11-21' }, ['from']],
    [{ date: '2026-11-20', to: '2026-11-21' }, ['to']],
    [{ from: '2026-11-20', to: '2026-11-21', accommodationId: 'park' }, ['accommodationId']],
  ])('%j is refused on %j', (input, fields) => {
    expect(fieldsOf(input)).toEqual(fields);
  });

  it('lists the dates of a range', () => {
    const request = parseAvailabilityRequest({ from: '2026-11-01', to: '2026-12-01', objectId: null });
    expect(request.kind).toBe('range');
    if (request.kind !== 'range') return;
    expect(request.dates).toHaveLength(MAX_AVAILABILITY_DAYS);
    expect([request.dates[0], request.dates.at(-1)]).toEqual(['2026-11-01', '2026-12-01']);
  });
});
