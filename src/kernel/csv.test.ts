import { describe, expect, it } from 'vitest';
import { csvField, csvLine } from './csv.js';

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    [null, ''],
    [undefined, ''],
    [4500, '4500'],
    [-12.5, '-12.5'],
    [Number.NaN, ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    ['=SUM(A1:A2)', "'=SUM(A1:A2)"],
    ['+49 30 123', "'+49 30 123"],
    ['-1', "'-1"],
    ['@cmd', "'@cmd"],
    ['\tTab', '"\'\tTab"'],
    ['x;=1+1', '"x;\'=1+1"'],
    ['a;b', '"a;b"'],
    ['a\tb', '"a\tb"'],
    ['x\t+1', '"x\t\'+1"'],
    ['x,@SUM(1)', '"x,\'@SUM(1)"'],
    ['line\n-2', '"line\n\'-2"'],
    ['=1;=2', '"\'=1;\'=2"'],
    ['\rX', '"\'\rX"'],
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
    ['a=b', 'a=b'],
    ['Zoë 🎾', 'Zoë 🎾'],
  ] as const)('%j → %j', (cell, written) => {
    expect(csvField(cell)).toBe(written);
  });
});

describe('csvLine', () => {
  it('joins fields with commas and ends with CRLF', () => {
    expect(csvLine(['id', 'name, first', 3, null])).toBe('id,"name, first",3,\r\n');
  });
});
