import { sql, type RawBuilder } from 'kysely';

// Keyset pagination on a timestamp column (newest first, then id): a cursor must carry the
// timestamp to the microsecond PostgreSQL stores, or rows sharing the millisecond of a page's
// last row would be skipped. The key travels as text and is cast back in the comparison.

/** The column as UTC text with microseconds (2026-11-24T10:00:00.123456Z): a cursor's time part. */
export const microsecondKey = (column: string): RawBuilder<string> =>
  sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** What microsecondKey writes. */
export const MICROSECOND_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** Rows after the key in (time desc, id desc) order: (time, id) < (key time, key id). */
export const olderThan = (
  timeColumn: string,
  idColumn: string,
  key: { at: string; id: string },
  idType: 'uuid' | 'bigint',
): RawBuilder<boolean> =>
  sql<boolean>`(${sql.ref(timeColumn)}, ${sql.ref(idColumn)}) < (${key.at}::timestamptz, ${key.id}::${sql.raw(idType)})`;

/** Rows after the key in (time asc, id asc) order: (time, id) > (key time, key id). */
export const newerThan = (timeColumn: string, idColumn: string, key: { at: string; id: string }): RawBuilder<boolean> =>
  sql<boolean>`(${sql.ref(timeColumn)}, ${sql.ref(idColumn)}) > (${key.at}::timestamptz, ${key.id}::uuid)`;

/** Rows after the key in (time desc, id asc) order: an earlier time, or the same time and a larger id. */
export const olderThenIdAfter = (
  timeColumn: string,
  idColumn: string,
  key: { at: string; id: string },
): RawBuilder<boolean> =>
  sql<boolean>`(${sql.ref(timeColumn)} < ${key.at}::timestamptz or (${sql.ref(timeColumn)} = ${key.at}::timestamptz and ${sql.ref(idColumn)} > ${key.id}::uuid))`;

/** Rows after the key in (position asc, id asc) order. */
export const afterPosition = (
  positionColumn: string,
  idColumn: string,
  key: { position: number; id: string },
): RawBuilder<boolean> =>
  sql<boolean>`(${sql.ref(positionColumn)}, ${sql.ref(idColumn)}) > (${key.position}::bigint, ${key.id}::uuid)`;
