import { describe, expect, it } from 'vitest';
import { erasableTexts, mergedFields, normaliseEmail, searchPattern, type MergeableFields } from './customers.rules.js';

describe('normaliseEmail', () => {
  it.each([
    ['Ada@Example.COM', 'ada@example.com'],
    ['  ada@example.com ', 'ada@example.com'],
    ['ÄDA@example.com', 'äda@example.com'],
  ])('%s → %s', (input, expected) => expect(normaliseEmail(input)).toBe(expected));
});

describe('searchPattern', () => {
  it.each([
    ['Ada', { text: 'ada%', phone: null }],
    ['  ADA l ', { text: 'ada l%', phone: null }],
    ['50%_\\', { text: '50\\%\\_\\\\%', phone: null }],
    ['+49 30', { text: '+49 30%', phone: '+4930%' }],
    ['004930', { text: '004930%', phone: '+4930%' }],
    ['4', { text: '4%', phone: null }],
  ])('%s', (input, expected) => expect(searchPattern(input)).toEqual(expected));
});

const base = (over: Partial<MergeableFields>): MergeableFields => ({
  name: 'Ada',
  email: null,
  phone: null,
  notes: '',
  metadata: {},
  marketing_consent: false,
  marketing_consent_at: null,
  created_at: new Date('2026-01-10T00:00:00Z'),
  ...over,
});

describe('mergedFields', () => {
  it('keeps the target, fills what it lacks from the first source that has it', () => {
    const merged = mergedFields(base({ email: 'ada@example.com', metadata: { a: 'target' } }), [
      base({ name: 'A. L.', email: 'other@example.com', phone: '+49301234567', metadata: { a: 's1', b: 's1' } }),
      base({ phone: '+14155552671', metadata: { b: 's2', c: 's2' }, created_at: new Date('2025-05-01T00:00:00Z') }),
    ]);
    expect(merged).toMatchObject({
      name: 'Ada',
      email: 'ada@example.com',
      phone: '+49301234567',
      metadata: { a: 'target', b: 's1', c: 's2' },
      created_at: new Date('2025-05-01T00:00:00Z'),
    });
  });

  it('joins distinct notes, target first, within the limit', () => {
    expect(mergedFields(base({ notes: 'VIP' }), [base({ notes: ' VIP ' }), base({ notes: 'Left-handed' })]).notes).toBe(
      'VIP\n\nLeft-handed',
    );
    expect(mergedFields(base({ notes: 'x'.repeat(4000) }), [base({ notes: 'y'.repeat(4000) })]).notes).toHaveLength(
      5000,
    );
  });

  it.each([
    [true, new Date('2026-02-01T00:00:00Z'), [false], new Date('2026-02-01T00:00:00Z')],
    [false, null, [true, true], new Date('2026-01-01T00:00:00Z')],
    [false, null, [false], null],
  ] as const)('consent: target %s, sources %j', (consent, at, sources, expectedAt) => {
    const merged = mergedFields(
      base({ marketing_consent: consent, marketing_consent_at: at }),
      sources.map((c, i) =>
        base({ marketing_consent: c, marketing_consent_at: c ? new Date(Date.UTC(2026, 0, 1 + i)) : null }),
      ),
    );
    expect(merged.marketing_consent).toBe(expectedAt !== null);
    expect(merged.marketing_consent_at).toEqual(expectedAt);
  });
});

describe('erasableTexts', () => {
  it('lists each value in its stored forms, longest first, leaving out short ones', () => {
    expect(erasableTexts(['Zoë "Z" Test', 'Zoe@Example.com', '+49 30 1234567', 'Al', null])).toEqual([
      'Zoe@Example.com',
      'zoe@example.com',
      '+49 30 1234567',
      'Zoë \\"Z\\" Test',
      'zoë \\"z\\" test',
      '+49301234567',
      'Zoë "Z" Test',
      'zoë "z" test',
    ]);
  });
});
