import type { GraphQLContext } from '../../kernel/context.js';

/**
 * A route's answer written without executing its operation (e.g. by PostgreSQL): the same bytes
 * JSON.stringify gives the operation's result, for the selection named here (checked at start-up
 * against the operation SOFA derives, so a schema change cannot silently change one path only).
 */
export interface DirectAnswer {
  /** The root field's selection set, as graphql's stripIgnoredCharacters prints it. */
  selection: string;
  /** The response body, from the coerced variables. Throwing runs the operation instead (and its errors answer). */
  answer(context: GraphQLContext, variables: Record<string, unknown>): Promise<string>;
}
