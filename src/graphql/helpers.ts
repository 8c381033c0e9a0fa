import type { Transaction } from 'kysely';
import type { DB } from '../db/types.js';
import type { GraphQLContext } from '../context.js';

/** Entry points open the transaction and pass it down (PGlite: never use the root handle inside it). */
export function inTransaction<T>(ctx: GraphQLContext, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return ctx.db.transaction().execute(work);
}

export const nonNull = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`${what} vanished while loading`);
  return value;
};
