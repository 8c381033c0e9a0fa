import { describe, expect, it } from 'vitest';
import { generateActivationCode, normalizeActivationCode } from './activation-code.js';

describe('activation codes', () => {
  it('are 7 groups of 4 Crockford base32 symbols and differ each time', () => {
    const a = generateActivationCode();
    expect(a).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){6}$/);
    expect(generateActivationCode()).not.toBe(a);
  });

  it.each([
    ['ABCD-EFGH-JKMN-PQRS-TVWX-YZ01-2345', 'ABCDEFGHJKMNPQRSTVWXYZ012345'],
    ['abcd efgh jkmn pqrs tvwx yz01 2345', 'ABCDEFGHJKMNPQRSTVWXYZ012345'],
    ['OOOO-IIII-LLLL-0000-1111-2222-3333', '0000111111110000111122223333'],
    ['ABCD-EFGH', undefined],
    ['ABCD-EFGH-JKMN-PQRS-TVWX-YZ01-234U', undefined],
    ['ABCD-EFGH-JKMN-PQRS-TVWX-YZ01-2345-6', undefined],
    ['', undefined],
  ])('%j normalizes to %j', (input, expected) => {
    expect(normalizeActivationCode(input)).toBe(expected);
  });

  it('normalizes every generated code to itself without dashes', () => {
    const code = generateActivationCode();
    expect(normalizeActivationCode(code)).toBe(code.replace(/-/g, ''));
  });
});
