import { GraphQLError, GraphQLScalarType, Kind, type GraphQLScalarTypeConfig } from 'graphql';
import {
  DateTimeResolver,
  EmailAddressResolver,
  LocalDateResolver,
  LocalTimeResolver,
  URLResolver,
  UUIDResolver,
} from 'graphql-scalars';
import { MAX_YEAR, MIN_YEAR, isStorableInstant } from '../../kernel/input-guard.js';
import { isEmail, isHhmm, isLocalDate, isUuid } from '../../kernel/validation.js';

const outOfRange = () =>
  new GraphQLError(`DateTime must lie between the years ${String(MIN_YEAR).padStart(4, '0')} and ${MAX_YEAR}`, {
    extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
  });

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

/**
 * A string scalar with a format: graphql-scalars' name and JSON Schema (the OpenAPI document shows
 * its format), checked with the same predicate the services check their input with, and passed
 * through unchanged. The description is ours (it says what the predicate accepts) and is the one
 * the schema shows: a resolver's description replaces the SDL's, so schema/base.graphql repeats
 * it word for word (test/typed-graph.test.ts compares them). graphql-scalars' own serializers are not used because some
 * rewrite the value (URL appends a `/` to a bare origin; LocalTime refuses 24:00), and the JSON a
 * field answers must stay byte for byte what it was when the field was a String.
 */
function formatScalar(
  base: GraphQLScalarType,
  valid: (value: string) => boolean,
  what: string,
  description: string,
  overrides: Partial<GraphQLScalarTypeConfig<string, string>> = {},
): GraphQLScalarType<string, string> {
  const check = (value: unknown): string => {
    if (typeof value !== 'string' || !valid(value)) {
      const shown = JSON.stringify(value)?.slice(0, 100) ?? String(value);
      throw new GraphQLError(`${base.name} must be ${what} (got ${shown})`, {
        extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
      });
    }
    return value;
  };
  const { name, extensions } = base.toConfig();
  return new GraphQLScalarType<string, string>({
    name,
    description,
    extensions,
    serialize: check,
    parseValue: check,
    parseLiteral: (ast) => {
      if (ast.kind !== Kind.STRING)
        throw new GraphQLError(`${base.name} must be a string`, {
          nodes: [ast],
          extensions: { code: 'BAD_USER_INPUT' },
        });
      return check(ast.value);
    },
    ...overrides,
  });
}

/** A calendar date without a time zone, YYYY-MM-DD (years 0001–9999). */
export const LocalDateScalar = formatScalar(
  LocalDateResolver,
  isLocalDate,
  'a calendar date YYYY-MM-DD',
  'A calendar date without a time zone, YYYY-MM-DD (years 0001–9999); the field says whose local calendar it is.',
);

/** A wall-clock time HH:MM without a time zone; 24:00 is the end of the day. */
export const LocalTimeScalar = formatScalar(
  LocalTimeResolver,
  (v) => isHhmm(v, true),
  'a local time HH:MM (00:00–24:00)',
  "A wall-clock time HH:MM (24-hour, no seconds, no time zone); 24:00 is the end of the day. The field says which time zone it is read in (for the catalog and pricing: the accommodation's).",
  {
    extensions: {
      codegenScalarType: 'string',
      jsonSchema: { type: 'string', pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$' },
    },
  },
);

/** An email address as Portier accepts one (something@domain.tld, at most 254 characters). */
export const EmailAddressScalar = formatScalar(
  EmailAddressResolver,
  isEmail,
  'an email address',
  'An email address (local@domain.tld, at most 254 characters), returned as it was given.',
);

function isAbsoluteUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** An absolute URL (RFC 3986), kept exactly as it was given. */
export const URLScalar = formatScalar(
  URLResolver,
  isAbsoluteUrl,
  'an absolute URL',
  'An absolute URL (RFC 3986), returned exactly as it was given.',
  {
    extensions: { codegenScalarType: 'string', jsonSchema: { type: 'string', format: 'uri' } },
  },
);

/** RFC 9562's text form of a UUID, the one Portier's ids have (PostgreSQL uuid columns). */
export const UUID_SPECIFIED_BY = 'https://www.rfc-editor.org/rfc/rfc9562';

/**
 * A UUID in its text form (8-4-4-4-12 hexadecimal digits, either case), passed through unchanged.
 * Used by arguments and fields added since ID was chosen for ids (docs/schema.md, "UUID").
 */
export const UUIDScalar = formatScalar(
  UUIDResolver,
  isUuid,
  'a UUID (8-4-4-4-12 hexadecimal digits)',
  'A UUID (RFC 9562) in its text form, 8-4-4-4-12 hexadecimal digits, returned as it was given.',
  {
    specifiedByURL: UUID_SPECIFIED_BY,
    extensions: { codegenScalarType: 'string', jsonSchema: { type: 'string', format: 'uuid' } },
  },
);
