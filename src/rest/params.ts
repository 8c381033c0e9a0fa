import type { GraphQLSchema } from 'graphql';
import type { FastifyRequest } from 'fastify';
import { getDirectiveExtensions } from '@graphql-tools/utils';
import { forbidden, invalid, type FieldError } from '../errors.js';
import { tenantOf } from '../auth/principal.js';
import type { RestRoute } from './routes.js';

// SOFA coerces each REST parameter with its scalar's serialize() and, when that throws, answers 400
// with the scalar's message alone ("DateTime cannot represent …"), without the parameter's name.
// This check runs first, picks each argument the way SOFA does (path, then query, then body) and
// names the parameter in a problem+json 400.

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
  const named = schema.getType(ref) as { name: string; serialize?: (v: unknown) => unknown; getValues?: () => { name: string }[]; getFields?: unknown } | undefined;
  if (named?.getValues) {
    const names = named.getValues().map((v) => v.name);
    return typeof value === 'string' && names.includes(value) ? undefined : `must be one of ${names.join(', ')} (got ${JSON.stringify(value)?.slice(0, 100)})`;
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

const asRecord = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/**
 * A fastify preHandler for one bridged route. The key's scope (403 missing_scope, from the field's
 * @requiresScopes, as GraphQL checks it) and then its tenant (403 tenant_mismatch) are checked
 * before the parameters and body are looked at; then the scalar parameters are checked.
 */
export function restParamCheck(schema: GraphQLSchema, route: RestRoute) {
  const [rootName, fieldName] = route.field.split('.');
  const root = rootName === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const field = root?.getFields()[fieldName];
  if (!field) throw new Error(`REST route ${route.method} ${route.path} names ${route.field}, which the schema lacks`);
  const scopeSets = getDirectiveExtensions<{ requiresScopes: { scopes: string[][] } }>(field, schema).requiresScopes?.[0]?.scopes ?? [];
  return async (req: FastifyRequest): Promise<void> => {
    const params = asRecord(req.params);
    const principal = req.principal;
    if (principal?.kind === 'apiKey') {
      if (scopeSets.length && !scopeSets.some((set) => set.every((s) => principal.scopes.includes(s)))) {
        const names = scopeSets.map((set) => set.join(' + ')).join(' or ');
        throw forbidden(`This API key lacks the scope ${names} needed for ${fieldName}`, 'missing_scope');
      }
      if (typeof params.tenantId === 'string') tenantOf(principal, params.tenantId);
    }
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
  };
}
