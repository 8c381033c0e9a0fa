import { describe, expect, it } from 'vitest';
import { defineTexts, fill, negotiateLocale, placeholdersOf } from './i18n.js';

describe('negotiateLocale', () => {
  it.each([
    [undefined, undefined, 'en'],
    ['', undefined, 'en'],
    ['de', undefined, 'de'],
    ['de-AT,de;q=0.9,en;q=0.8', undefined, 'de'],
    ['en-US,en;q=0.9,de;q=0.8', undefined, 'en'],
    ['fr-FR,fr;q=0.9,de;q=0.5', undefined, 'de'],
    ['fr-FR', undefined, 'en'],
    ['en;q=0.2,de;q=0.7', undefined, 'de'],
    ['de;q=0,en;q=0.1', undefined, 'en'],
    ['de;q=abc,en;q=0.1', undefined, 'en'],
    ['de;q=7', undefined, 'en'],
    ['*', undefined, 'en'],
    ['en', 'de', 'de'],
    ['en', 'DE', 'de'],
    ['de', 'xx', 'de'],
    [';;;,,,\u0000', undefined, 'en'],
  ])('Accept-Language %j with choice %j gives %s', (header, choice, expected) => {
    expect(negotiateLocale(header, { choice })).toBe(expected);
  });

  it('falls back to the venue default', () => {
    expect(negotiateLocale('fr', { fallback: 'de' })).toBe('de');
    expect(negotiateLocale('*', { fallback: 'de' })).toBe('de');
  });
});

describe('fill', () => {
  it.each([
    ['Hello {name}', { name: 'Ada' }, 'Hello Ada'],
    ['{a}{b}{a}', { a: 1, b: '2' }, '121'],
    ['Hello {missing}', { name: 'Ada' }, 'Hello {missing}'],
    ['{name}', { name: '{name}' }, '{name}'],
    ['No params', undefined, 'No params'],
    ['{constructor}', {}, '{constructor}'],
  ])('%j with %j gives %j', (template, params, expected) => {
    expect(fill(template, params)).toBe(expected);
  });

  it('lists placeholders once, sorted', () => {
    expect(placeholdersOf('{b} {a} {b}')).toEqual(['a', 'b']);
  });
});

describe('defineTexts', () => {
  it('answers in the locale asked, with placeholders filled', () => {
    const c = defineTexts('i18n-test', { hi: 'Hello {name}' }, { hi: 'Hallo {name}' });
    expect(c.t('de', 'hi', { name: 'Ada' })).toBe('Hallo Ada');
    expect(c.t('en', 'hi', { name: 'Ada' })).toBe('Hello Ada');
  });

  it('refuses a catalog name used twice', () => {
    defineTexts('i18n-twice', { a: 'a' }, { a: 'a' });
    expect(() => defineTexts('i18n-twice', { a: 'a' }, { a: 'a' })).toThrow(/defined twice/);
  });
});
