import { describe, expect, it } from 'vitest';
import { isReference, referenceOfSearch, REFERENCE_ALPHABET } from './reference.js';

describe('referenceOfSearch', () => {
  it.each([
    ['PRT-7KQ2M', 'PRT-7KQ2M'],
    ['prt-7kq2m', 'PRT-7KQ2M'],
    ['7KQ2M', 'PRT-7KQ2M'],
    ['  7kq2m ', 'PRT-7KQ2M'],
    ['PRT 7KQ2M', 'PRT-7KQ2M'],
    ['PRT7KQ2M', 'PRT-7KQ2M'],
    ['PRT-7KQ2MX', 'PRT-7KQ2MX'],
    // Not a reference: too short, an ambiguous character, something else around it.
    ['7KQ2', null],
    ['PRT-7KQ0M', null],
    ['PRT-7KQOM', null],
    ['PRT-7KQ1M', null],
    ['PRT-7KQIM', null],
    ['PRT-7KQLM', null],
    ['PRT-7KQUM', null],
    ['PRT--7KQ2M', null],
    ['Ada Lovelace', null],
    ['ada@example.com', null],
    ['', null],
    ['%', null],
    ['PRT-', null],
  ])('%j → %j', (fragment, expected) => {
    expect(referenceOfSearch(fragment)).toBe(expected);
  });

  it('a name the alphabet can spell is a reference too (the search also matches names)', () => {
    expect(referenceOfSearch('Maxx7')).toBe('PRT-MAXX7');
  });
});

describe('the alphabet', () => {
  it('has 30 characters, none ambiguous, none twice', () => {
    expect(REFERENCE_ALPHABET).toHaveLength(30);
    expect(new Set(REFERENCE_ALPHABET).size).toBe(30);
    for (const c of '01OILU') expect(REFERENCE_ALPHABET).not.toContain(c);
  });

  it.each([
    ['PRT-7KQ2M', true],
    ['PRT-7KQ2MA', true],
    ['PRT-7KQ2', false],
    ['XYZ-7KQ2M', false],
    ['prt-7kq2m', false],
  ])('isReference(%j) is %j', (value, expected) => {
    expect(isReference(value)).toBe(expected);
  });
});
