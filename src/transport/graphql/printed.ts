import { lexicographicSortSchema, type GraphQLSchema } from 'graphql';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { publicSchemaOf } from './schema.js';

export const PRINTED_SCHEMA_FILE = 'schema.graphql';

const HEADER = `# The whole public GraphQL schema of Portier, printed from schema/*.graphql by \`npm run codegen\`.
# Do not edit: change schema/ and run \`npm run codegen\`. CI checks this file is up to date, and
# compares it with schema/released.graphql for breaking changes (scripts/schema-gate.ts).
`;

/**
 * The public SDL, printed deterministically: types, fields, arguments and enum values sorted by
 * name, descriptions and directive uses (requiresScopes, deprecated) kept, so a diff of this
 * file is a review of the API change. @restOnly root fields are left out (publicSchemaOf).
 */
export function printPublicSchema(schema: GraphQLSchema): string {
  return `${HEADER}\n${printSchemaWithDirectives(lexicographicSortSchema(publicSchemaOf(schema)))}\n`;
}
