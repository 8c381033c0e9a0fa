import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';
import {
  INTEGER_PART,
  ISO_INSTANT,
  REST_CURSOR_PAGE,
  TEXT_PART,
  UUID_PART,
  cursorPageOf,
  cursorPageRows,
  decodeCursor,
  decodeListCursor,
  encodeCursor,
  encodeListCursor,
  instantCursor,
  positionCursor,
} from './paging.js';

const ID = '017ca05e-bb3b-4db2-9194-6dfe283429ca';

/** The fields a refusal names, or null when `run` does not throw a validation error. */
function refusedFields(run: () => unknown): string[] | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof DomainError) || error.kind !== 'BAD_USER_INPUT') throw error;
    return error.fieldErrors.map((e) => e.field);
  }
}

describe('encodeListCursor / decodeListCursor', () => {
  it.each([
    ['a name', ['Court 1', ID], [TEXT_PART, UUID_PART]],
    ['a name with the separator and escapes', ['A | B %7C 100%', ID], [TEXT_PART, UUID_PART]],
    ['non-ASCII text', ['Plätz 🎾 東京', ID], [TEXT_PART, UUID_PART]],
    ['a 200-character name of 4-byte characters', ['🎾'.repeat(200), ID], [TEXT_PART, UUID_PART]],
    ['a position', ['42', ID], [INTEGER_PART, UUID_PART]],
    ['a negative position', ['-3', ID], [INTEGER_PART, UUID_PART]],
    ['an instant', ['2027-07-01T10:00:00.000Z', ID], [ISO_INSTANT, UUID_PART]],
  ] as const)('round-trips %s', (_, parts, patterns) => {
    const cursor = encodeListCursor('list', parts);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeListCursor('list', cursor, patterns)).toEqual(parts);
  });

  const good = encodeListCursor('list', ['Court 1', ID]);
  it.each([
    ['garbage', 'garbage!'],
    ['the empty string', ''],
    ['base64 padding', `${good}=`],
    ['a character appended', `${good}A`],
    ['another kind', encodeListCursor('other', ['Court 1', ID])],
    ['a kind that only starts alike', encodeListCursor('listing', ['Court 1', ID])],
    ['too few parts', encodeListCursor('list', ['Court 1'])],
    ['too many parts', encodeListCursor('list', ['Court 1', ID, 'x'])],
    ['a part that fails its pattern', encodeListCursor('list', ['Court 1', 'not-a-uuid'])],
    ['an empty name', encodeListCursor('list', ['', ID])],
    ['a separator smuggled in raw', Buffer.from(`list:a|b|${ID}`).toString('base64url')],
    ['a broken escape', Buffer.from(`list:%E0%A4%A|${ID}`).toString('base64url')],
    ['a needless escape', Buffer.from(`list:%41|${ID}`).toString('base64url')],
    ['an over-long cursor', 'A'.repeat(5000)],
    ['a JSON object', Buffer.from('{"kind":"list"}').toString('base64url')],
  ])('refuses %s, naming after', (_, cursor) => {
    expect(refusedFields(() => decodeListCursor('list', cursor, [TEXT_PART, UUID_PART]))).toEqual(['after']);
  });
});

describe('decodeCursor (the connections’ cursors)', () => {
  it('round-trips, and refuses a character appended or another kind', () => {
    const cursor = encodeCursor('booking', ['2027-07-01T10:00:00.000Z', ID]);
    expect(decodeCursor('booking', cursor, [ISO_INSTANT, UUID_PART])).toEqual(['2027-07-01T10:00:00.000Z', ID]);
    for (const bad of [`${cursor}A`, encodeCursor('delivery', ['2027-07-01T10:00:00.000Z', ID])])
      expect(refusedFields(() => decodeCursor('booking', bad, [ISO_INSTANT, UUID_PART]))).toEqual(['after']);
  });
});

describe('positionCursor and instantCursor', () => {
  it.each([[{ position: 0, id: ID }], [{ position: 17, id: ID }], [{ position: 123456789, id: ID }]])(
    'a position cursor carries its key: %o',
    (row) => {
      const cursor = positionCursor('pricing-rule');
      expect(cursor.keyOf(cursor.of(row))).toEqual(row);
      expect(refusedFields(() => positionCursor('cancellation-policy').keyOf(cursor.of(row)))).toEqual(['after']);
    },
  );

  it.each([
    ['2027-07-01T10:00:00.123456Z', true],
    ['2027-07-01T10:00:00.000000Z', true],
    ['2027-07-01T10:00:00.123Z', false],
    ['2027-13-45T99:00:00.000000Z', false],
  ])('an instant cursor on %s: kept %s', (at, kept) => {
    const cursor = instantCursor('device');
    const text = cursor.of({ sort_at: at, id: ID });
    if (kept) expect(cursor.keyOf(text)).toEqual({ at, id: ID });
    else expect(refusedFields(() => cursor.keyOf(text))).toEqual(['after']);
  });
});

describe('cursorPageOf', () => {
  const decode = (cursor: string) => `key:${cursor}`;
  it.each([
    ['no cursor parameters: page numbers', {}, {}, null],
    ['page numbers only', {}, { page: 2, pageSize: 5 }, null],
    ['limit alone: the first page', { limit: 5 }, {}, { after: null, limit: 5 }],
    ['after alone: the default size', { after: 'c' }, {}, { after: 'key:c', limit: REST_CURSOR_PAGE.default }],
    ['both', { after: 'c', limit: 100 }, { page: null, pageSize: undefined }, { after: 'key:c', limit: 100 }],
  ])('%s', (_, args, pageArgs, expected) => {
    expect(cursorPageOf(args, pageArgs, REST_CURSOR_PAGE, decode)).toEqual(expected);
  });

  it.each([
    ['after with page', { after: 'c' }, { page: 2 }, ['after', 'page']],
    ['limit with pageSize', { limit: 2 }, { pageSize: 5 }, ['limit', 'pageSize']],
    ['limit with first', { limit: 2 }, { first: 5 }, ['limit', 'first']],
    ['a limit of 0', { limit: 0 }, {}, ['limit']],
    ['a limit past the maximum', { limit: 101 }, {}, ['limit']],
    ['a fractional limit', { limit: 1.5 }, {}, ['limit']],
    ['a cursor that is not text', { after: 12 }, {}, ['after']],
  ])('refuses %s', (_, args, pageArgs, fields) => {
    const named = refusedFields(() => cursorPageOf(args, pageArgs, REST_CURSOR_PAGE, decode));
    expect(new Set(named)).toEqual(new Set(fields));
  });
});

describe('cursorPageRows', () => {
  const cursorOf = (n: number) => `c${n}`;
  it.each([
    ['an empty page', [], 3, [], null],
    ['a short last page', [1, 2], 3, [1, 2], null],
    ['an exactly full last page', [1, 2, 3], 3, [1, 2, 3], null],
    ['a full page with more behind it', [1, 2, 3, 4], 3, [1, 2, 3], 'c3'],
  ])('%s', (_, rows, limit, items, next) => {
    expect(cursorPageRows(rows, limit, cursorOf)).toEqual({ items, next });
  });
});
