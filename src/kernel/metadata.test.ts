import { describe, expect, it } from 'vitest';
import { mergeMetadata, metadataErrors, metadataUnchanged } from './metadata.js';

const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));

describe('metadataErrors', () => {
  const cases: [string, unknown, boolean, string[]][] = [
    ['an empty map', {}, false, []],
    ['50 keys', keys(50), false, []],
    ['51 keys', keys(51), false, ['metadata']],
    ['a list', ['a'], true, ['metadata']],
    ['null itself', null, true, ['metadata']],
    ['a string', 'a=b', true, ['metadata']],
    ['a 40-character key', { ['k'.repeat(40)]: 'v' }, false, []],
    ['a 41-character key', { ['k'.repeat(41)]: 'v' }, false, [`metadata.${'k'.repeat(41)}`]],
    ['an empty key', { '': 'v' }, false, ['metadata.""']],
    ['a key with a newline', { 'a\nb': 'v' }, false, ['metadata."a\\nb"']],
    ['a key with DEL', { 'a\u007f': 'v' }, false, ['metadata."a\u007f"']],
    ['a 500-character value', { a: 'x'.repeat(500) }, false, []],
    ['a 501-character value', { a: 'x'.repeat(501) }, false, ['metadata.a']],
    ['a value with a newline', { a: 'line\nbreak' }, false, []],
    ['a value with NUL', { a: 'x\u0000' }, false, ['metadata.a']],
    ['a number', { a: 1 }, true, ['metadata.a']],
    ['a nested object', { a: { b: 'c' } }, true, ['metadata.a']],
    ['null in an update', { a: null }, true, []],
    ['null in a filter', { a: null }, false, ['metadata.a']],
    ['two bad keys', { a: 1, b: 2, c: 'ok' }, false, ['metadata.a', 'metadata.b']],
  ];
  it.each(cases)('%s', (_name, value, nulls, fields) => {
    expect(metadataErrors(value, 'metadata', nulls).map((e) => e.field)).toEqual(fields);
  });
});

describe('mergeMetadata', () => {
  const cases: [string, Record<string, string>, Record<string, string | null>, Record<string, string>][] = [
    ['sets a new key after the others', { a: '1' }, { b: '2' }, { a: '1', b: '2' }],
    ['replaces a value', { a: '1' }, { a: '2' }, { a: '2' }],
    ['deletes on null', { a: '1', b: '2' }, { a: null }, { b: '2' }],
    ['ignores deleting a missing key', { a: '1' }, { z: null }, { a: '1' }],
    ['keeps what the patch does not name', { a: '1', b: '2' }, {}, { a: '1', b: '2' }],
  ];
  it.each(cases)('%s', (_name, current, patch, merged) => {
    expect(mergeMetadata(current, patch)).toEqual(merged);
    expect(current).not.toBe(merged);
  });

  it('refuses more than 50 keys after the merge, and allows a swap at 50', () => {
    expect(() => mergeMetadata(keys(50), { extra: 'x' })).toThrow(/metadata: would hold 51 keys/);
    expect(Object.keys(mergeMetadata(keys(50), { k0: null, extra: 'x' }))).toHaveLength(50);
  });

  it('keeps a key named __proto__ as a key', () => {
    const merged = mergeMetadata({}, JSON.parse('{"__proto__":"x"}') as Record<string, string>);
    expect(Object.keys(merged)).toEqual(['__proto__']);
    expect(JSON.stringify(merged)).toBe('{"__proto__":"x"}');
  });

  it('says when a patch changes nothing', () => {
    expect(metadataUnchanged({ a: '1' }, { a: '1', z: null })).toBe(true);
    expect(metadataUnchanged({ a: '1' }, { a: '2' })).toBe(false);
    expect(metadataUnchanged({ a: '1' }, { a: null })).toBe(false);
  });
});
