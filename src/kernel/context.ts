import type { Kysely } from 'kysely';
import type { DB } from './db/types.js';
import type { AppDeps } from './deps.js';
import type { Principal } from './auth/principal.js';
import type { Loaders } from './deps.js';

/** The one context type of every resolver (codegen points at it). */
export interface GraphQLContext {
  deps: AppDeps;
  db: Kysely<DB>;
  principal: Principal | null;
  loaders: Loaders;
  /** generic-auth reads the principal from here. */
  currentUser: Principal | null;
  /** The client's address (fastify's req.ip), for the audit log. */
  clientAddress: string | null;
  /**
   * The cursor of the page after the one a list resolver answered, when its answer has no field
   * for it (a bare list): the REST bridge sends it as a `Link: <…>; rel="next"` header.
   */
  nextCursor?: string | null;
}

export function createContext(
  deps: AppDeps,
  principal: Principal | null,
  clientAddress: string | null = null,
): GraphQLContext {
  const db = deps.database.db;
  // Made on first use: many requests load nothing (a subscription replaces them per message).
  let loaders: Loaders | undefined;
  return {
    deps,
    db,
    principal,
    currentUser: principal,
    get loaders() {
      return (loaders ??= deps.createLoaders(db));
    },
    set loaders(replaced: Loaders) {
      loaders = replaced;
    },
    clientAddress,
  };
}
