import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';

/**
 * Limits every GraphQL document must keep (docs/operations.md). They are checked while the
 * document is parsed and validated, so an oversized query is refused before any resolver runs.
 * Recursive introspection (`__schema { types { fields { type { fields … } } } }`) is bounded by
 * graphql-js's own MaxIntrospectionDepthRule, which yoga applies with the standard rules.
 */
export const GRAPHQL_LIMITS = {
  /** Nesting of fields (fragments are flattened, so spreading one adds no depth). */
  maxDepth: 10,
  /** Aliased fields per operation (`__typename` excluded). */
  maxAliases: 15,
  /** Directives per operation. */
  maxDirectives: 20,
  /** Lexical tokens per document. */
  maxTokens: 1_000,
  /**
   * graphql-armor's cost: scalar 1, object 2, each level ×1.5, and a list argument `first: N`
   * multiplies its subtree by N.
   */
  maxCost: 5_000,
} as const;

export function armorPlugin() {
  return EnvelopArmorPlugin({
    maxDepth: { n: GRAPHQL_LIMITS.maxDepth, flattenFragments: true },
    maxAliases: { n: GRAPHQL_LIMITS.maxAliases },
    maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives },
    maxTokens: { n: GRAPHQL_LIMITS.maxTokens },
    costLimit: {
      maxCost: GRAPHQL_LIMITS.maxCost,
      objectCost: 2,
      scalarCost: 1,
      depthCostFactor: 1.5,
      flattenFragments: true,
    },
    blockFieldSuggestion: { enabled: true },
  });
}
