import type { Kysely, Transaction } from 'kysely';
import type { DB } from './types.js';

/** A repository takes either the root handle or an open transaction (PGlite: always the latter inside one). */
export type Executor = Kysely<DB> | Transaction<DB>;
export type { DB } from './types.js';
