import { sql, type RawBuilder } from 'kysely';

// SQL that writes values the way the GraphQL executor and JSON.stringify would, for the answers
// read without executing their operation (src/modules/bookings/fast-paths).

/**
 * An instant as Date.prototype.toISOString writes it (the DateTime scalar's output): UTC,
 * milliseconds truncated as pg's own timestamp parser truncates them.
 */
export const isoInstant = (column: string): RawBuilder<string> =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
