import { GraphQLError, GraphQLScalarType } from 'graphql';
import { DateTimeResolver } from 'graphql-scalars';
import { MAX_YEAR, MIN_YEAR, isStorableInstant } from '../input-guard.js';

const outOfRange = () =>
  new GraphQLError(`DateTime must lie between the years ${String(MIN_YEAR).padStart(4, '0')} and ${MAX_YEAR}`, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });

function storable(value: unknown): Date {
  if (value instanceof Date && !isStorableInstant(value)) throw outOfRange();
  return value as Date;
}

/**
 * graphql-scalars' DateTime, limited to the years 1–9999: JavaScript dates reach year 275760 and
 * year 0, which PostgreSQL's timestamptz refuses (22008). The check is in serialize too, which the
 * REST parameter check uses to test a value.
 */
export const DateTimeScalar = new GraphQLScalarType({
  ...DateTimeResolver.toConfig(),
  serialize: (value) => {
    const shown = DateTimeResolver.serialize(value);
    storable(new Date(shown));
    return shown;
  },
  parseValue: (value) => storable(DateTimeResolver.parseValue(value)),
  parseLiteral: (ast, variables) => storable(DateTimeResolver.parseLiteral(ast, variables)),
});
