import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeExecutableSchema } from '@graphql-tools/schema';
import {
  resolversOf,
  assertEveryRootFieldHasAuth,
  buildSchema,
  loadTypeDefs,
} from '../src/transport/graphql/schema.js';
import { MODULES } from '../src/app/modules.js';
import { PRINTED_SCHEMA_FILE, printPublicSchema } from '../src/transport/graphql/printed.js';

describe('auth directives on root fields', () => {
  it('every root field of the schema declares @requiresScopes or @authenticated', () => {
    expect(() => buildSchema(MODULES)).not.toThrow();
  });

  it('a root field without one stops the start-up, naming the field', () => {
    const schema = makeExecutableSchema({
      typeDefs: [
        ...loadTypeDefs(),
        'extend type Query { leaky: String }',
        'extend type Mutation { open: Boolean @authenticated }',
      ],
    });
    expect(() => assertEveryRootFieldHasAuth(schema)).toThrow(
      'Root fields without @requiresScopes or @authenticated: Query.leaky',
    );
  });
});

describe('the printed schema (schema.graphql)', () => {
  it('equals what schema/ builds, printed deterministically', () => {
    const committed = readFileSync(new URL(`../${PRINTED_SCHEMA_FILE}`, import.meta.url), 'utf8');
    expect(committed).toBe(printPublicSchema(buildSchema(MODULES)));
  });

  it('prints the same text whatever order the type definitions come in', () => {
    const reversed = makeExecutableSchema({
      typeDefs: [loadTypeDefs()[0], ...loadTypeDefs().slice(1).reverse()],
      resolvers: resolversOf(MODULES) as never,
    });
    expect(printPublicSchema(reversed)).toBe(printPublicSchema(buildSchema(MODULES)));
  });

  it('keeps descriptions and the auth directive of each root field', () => {
    const printed = printPublicSchema(buildSchema(MODULES));
    expect(printed).toContain('"""Any valid API key of the tenant may call this field."""');
    // Arguments have descriptions, so the printer puts each on its own line.
    expect(printed).toMatch(
      /^ {2}bookings\(\n[\s\S]*?\n {2}\): \[Booking!\]! @requiresScopes\(scopes: \[\["bookings:read"\]\]\)$/m,
    );
  });
});
