import { describe, expect, it } from 'vitest';
import { countryOfTimeZone, e164, isPhoneCountry, normalisePhone } from './phone.js';

describe('normalisePhone', () => {
  it.each([
    // International, whatever the venue's country.
    ['+49 30 1234567', undefined, '+49301234567'],
    ['+49 (30) 123-4567', 'DE', '+49301234567'],
    ['0049 30 1234567', undefined, '+49301234567'],
    ['+44 20 7946 0958', 'DE', '+442079460958'],
    ['+1 415 555 2671', undefined, '+14155552671'],
    ['+49 170 1234567', undefined, '+491701234567'],
    // Local, read in the venue's country.
    ['030 1234567', 'DE', '+49301234567'],
    ['(030) 1234567', 'DE', '+49301234567'],
    ['0170 1234567', 'de', '+491701234567'],
    ['0151 23456789', 'DE', '+4915123456789'],
    ['020 7946 0958', 'GB', '+442079460958'],
    ['01 234 56 78', 'AT', '+4312345678'],
  ] as const)('%j in %s → %s', (raw, country, expected) => {
    expect(normalisePhone(raw, country)).toEqual({ ok: true, e164: expected });
  });

  it.each([
    ['12', 'DE', 'invalid', /not a valid phone number of DE/],
    ['not a number', 'DE', 'invalid', /not a valid phone number of DE/],
    ['+49 30', 'DE', 'invalid', /not a valid phone number of DE/],
    ['+49 12', undefined, 'invalid', /not a valid international phone number/],
    ['', 'DE', 'invalid', /is not a phone number/],
    ['1'.repeat(60), 'DE', 'invalid', /is not a phone number/],
    ['030 1234567', undefined, 'needs_country_code', /country code/],
    ['0170 1234567', null, 'needs_country_code', /country code/],
    ['030 1234567', 'XX', 'unknown_country', /not a country code libphonenumber knows: XX/],
  ] as const)('refuses %j in %s (%s)', (raw, country, reason, message) => {
    const result = normalisePhone(raw, country);
    expect(result).toMatchObject({ ok: false, reason });
    expect(result.ok ? '' : result.message).toMatch(message);
  });
});

describe('e164 (a stored number)', () => {
  it.each([
    ['+49 30 1234567', '+49301234567'],
    ['+49 (30) 1234-567', '+49301234567'],
    ['0049 30 1234567', '+49301234567'],
    // Not in libphonenumber's plan (555), but shaped as E.164: an SMS may still be tried.
    ['+1.555.000.1111', '+15550001111'],
    ['030 1234567', null],
    ['+0 30 1234567', null],
    ['+49 30 1', null],
    ['+4930123456789012', null],
    ['+12', null],
    ['', null],
    [null, null],
  ])('%j → %s', (input, expected) => expect(e164(input)).toBe(expected));
});

describe('countryOfTimeZone, isPhoneCountry', () => {
  it('reads the venue’s country from its zone, none for an unlisted zone', () => {
    expect(countryOfTimeZone('Europe/Berlin')).toBe('DE');
    expect(countryOfTimeZone('Europe/London')).toBe('GB');
    expect(countryOfTimeZone('Antarctica/Troll')).toBeUndefined();
  });
  it.each([
    ['DE', true],
    ['de', true],
    ['XX', false],
  ])('%s → %s', (code, known) => expect(isPhoneCountry(code)).toBe(known));
});
