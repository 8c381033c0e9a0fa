import type { FieldNode, GraphQLField, GraphQLSchema } from 'graphql';
import type { GraphQLContext } from './context.js';

// What a module offers the compiled execution (src/transport/graphql/compiled-execution.ts): a root
// field planned in one step. A kernel type so modules plan fields without importing transport.

/** A root field's value computed from its arguments in one step (e.g. one SQL statement writing its JSON). */
export interface FieldPlan {
  /** The field's value, ready to serialise. Throwing hands the operation to ordinary execution, whose errors answer. */
  run(context: GraphQLContext, args: Record<string, unknown>): Promise<unknown>;
}

/**
 * Plans a root field from its node when its whole selection can be computed by a FieldPlan, or
 * returns undefined (then the operation executes as usual). Keyed 'Query.<field>'.
 */
export type FieldPlanner = (
  field: FieldNode,
  definition: GraphQLField<unknown, unknown>,
  schema: GraphQLSchema,
) => FieldPlan | undefined;
export type PlannedFields = Partial<Record<`Query.${string}`, FieldPlanner>>;
