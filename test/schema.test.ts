import { describe, expect, it } from 'vitest';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { assertEveryRootFieldHasAuth, buildSchema, loadTypeDefs } from '../src/graphql/schema.js';

describe('auth directives on root fields', () => {
  it('every root field of the schema declares @requiresScopes or @authenticated', () => {
    expect(() => buildSchema()).not.toThrow();
  });

  it('a root field without one stops the start-up, naming the field', () => {
    const schema = makeExecutableSchema({
      typeDefs: [...loadTypeDefs(), 'extend type Query { leaky: String }', 'extend type Mutation { open: Boolean @authenticated }'],
    });
    expect(() => assertEveryRootFieldHasAuth(schema)).toThrow('Root fields without @requiresScopes or @authenticated: Query.leaky');
  });
});
