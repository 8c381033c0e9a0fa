import type { GraphQLField, GraphQLSchema } from 'graphql';
import type { FastifyRequest } from 'fastify';
import { invalid, type FieldError } from '../../kernel/errors.js';

// The REST bridge (src/transport/rest/bridge.ts) reads each parameter as SOFA did, with its scalar's
// serialize(), which on failure says only the scalar's message ("DateTime cannot represent …").
// This check runs first, picks each argument the same way (path, then query, then body) and names
// the parameter in a problem+json 400.

const HINTS: Record<string, string> = {
  Int: 'must be a whole number',
  Float: 'must be a number',
  DateTime: 'must be an ISO 8601 timestamp with a time zone offset, such as 2026-11-20T10:00:00Z',
};

// Duck-typed on the printed type ("[ID!]!") and the named type's methods, because the schema's
// classes may come from the other module format of graphql-js (instanceof would fail).
function problemOf(schema: GraphQLSchema, typeRef: string, value: unknown): string | undefined {
  const ref = typeRef.endsWith('!') ? typeRef.slice(0, -1) : typeRef;
  if (ref.startsWith('[')) {
    for (const item of Array.isArray(value) ? value : [value]) {
      const problem = problemOf(schema, ref.slice(1, -1), item);
      if (problem) return problem;
    }
    return undefined;
  }
  const named = schema.getType(ref) as
    | { name: string; serialize?: (v: unknown) => unknown; getValues?: () => { name: string }[]; getFields?: unknown }
    | undefined;
  if (named?.getValues) {
    const names = named.getValues().map((v) => v.name);
    return typeof value === 'string' && names.includes(value)
      ? undefined
      : `must be one of ${names.join(', ')} (got ${JSON.stringify(value)?.slice(0, 100)})`;
  }
  // SOFA turns any value into a Boolean; input objects are checked by GraphQL, which names them.
  if (!named?.serialize || named.getFields || named.name === 'Boolean') return undefined;
  try {
    named.serialize(value);
    return undefined;
  } catch (error) {
    const shown = JSON.stringify(value)?.slice(0, 100);
    return `${HINTS[named.name] ?? (error as Error).message} (got ${shown})`;
  }
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/**
 * The scalar and enum parameters of a bridged route, each checked as SOFA would read it (path,
 * then query, then body), so that a bad one is a 400 naming it. Runs after the auth check
 * (src/transport/rest/bridge.ts, authorize).
 */
export function checkParameters(
  schema: GraphQLSchema,
  field: GraphQLField<unknown, unknown>,
  req: FastifyRequest,
): void {
  const params = asRecord(req.params);
  const query = asRecord(req.query);
  const body = asRecord(req.body);
  const errors: FieldError[] = [];
  for (const arg of field.args) {
    const value = arg.name in params ? params[arg.name] : query[arg.name] || body[arg.name];
    if (value == null) continue;
    const problem = problemOf(schema, String(arg.type), value);
    if (problem) errors.push({ field: arg.name, message: problem });
  }
  if (errors.length) throw invalid(errors);
}
