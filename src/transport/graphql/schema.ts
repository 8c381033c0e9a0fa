import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { getDirectiveExtensions, MapperKind, mapSchema, pruneSchema } from '@graphql-tools/utils';
import { GraphQLSchema } from 'graphql';
import { JSONObjectResolver, JSONResolver } from 'graphql-scalars';
import {
  DateTimeScalar,
  EmailAddressScalar,
  LocalDateScalar,
  LocalTimeScalar,
  URLScalar,
  UUIDScalar,
} from './scalars.js';
import { API_SCOPE_VALUES, WEBHOOK_EVENT_TYPE_VALUES } from './wire-enums.js';
import type { PortierModule } from '../../kernel/module.js';

const schemaDir = fileURLToPath(new URL('../../../schema/', import.meta.url));
/** The schema of the last release, kept beside the sources for the breaking-change gate; never served. */
export const RELEASED_SCHEMA_FILE = 'released.graphql';

export function loadTypeDefs(): string[] {
  return readdirSync(schemaDir)
    .filter((f) => f.endsWith('.graphql') && f !== RELEASED_SCHEMA_FILE)
    .sort((a, b) => (a === 'base.graphql' ? -1 : b === 'base.graphql' ? 1 : a.localeCompare(b)))
    .map((f) => readFileSync(schemaDir + f, 'utf8'));
}

/**
 * Every root field must declare its auth (@requiresScopes or @authenticated), so auth cannot be
 * forgotten: a schema that misses one does not start.
 */
export function assertEveryRootFieldHasAuth(schema: GraphQLSchema): void {
  const missing: string[] = [];
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    if (!root) continue;
    for (const field of Object.values(root.getFields())) {
      const directives = getDirectiveExtensions(field, schema);
      if (!directives.requiresScopes && !directives.authenticated) missing.push(`${root.name}.${field.name}`);
    }
  }
  if (missing.length) {
    throw new Error(`Root fields without @requiresScopes or @authenticated: ${missing.join(', ')}`);
  }
}

/** The scalars' resolvers, then every module's (makeExecutableSchema merges the list). */
export function resolversOf(modules: readonly PortierModule[]): object[] {
  const scalars = {
    DateTime: DateTimeScalar,
    LocalDate: LocalDateScalar,
    LocalTime: LocalTimeScalar,
    EmailAddress: EmailAddressScalar,
    URL: URLScalar,
    UUID: UUIDScalar,
    // The wire-string enums: each value's internal value is the string clients send over REST (docs/schema.md).
    ApiScope: API_SCOPE_VALUES,
    WebhookEventType: WEBHOOK_EVENT_TYPE_VALUES,
    JSON: JSONResolver,
    JSONObject: JSONObjectResolver,
  };
  return [scalars, ...modules.flatMap((m) => (m.resolvers ? [m.resolvers] : []))];
}

/** The executable schema: the SDL of schema/ with the modules' resolvers. */
export function buildSchema(modules: readonly PortierModule[]): GraphQLSchema {
  const schema = makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers: resolversOf(modules) as never });
  assertEveryRootFieldHasAuth(schema);
  return schema;
}

/** The directive that keeps a REST-only root field out of the published schema (schema/base.graphql). */
export const REST_ONLY_DIRECTIVE = 'restOnly';

/** The root fields marked @restOnly, as `Query.field` coordinates. */
export function restOnlyFields(schema: GraphQLSchema): string[] {
  const found: string[] = [];
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    if (!root) continue;
    for (const field of Object.values(root.getFields())) {
      if (getDirectiveExtensions(field, schema)[REST_ONLY_DIRECTIVE]) found.push(`${root.name}.${field.name}`);
    }
  }
  return found;
}

/**
 * The published schema: the full one (which the REST bridge and the OpenAPI document read)
 * without the @restOnly root fields, the types only they reach, and the directive itself. The
 * GraphQL endpoint serves it (so introspection does not show them) and schema.graphql prints it.
 * Resolvers are kept.
 */
export function publicSchemaOf(schema: GraphQLSchema): GraphQLSchema {
  const hidden = new Set(restOnlyFields(schema));
  if (!hidden.size) return schema;
  const mapped = mapSchema(schema, {
    [MapperKind.ROOT_FIELD]: (field, fieldName, typeName) => (hidden.has(`${typeName}.${fieldName}`) ? null : field),
  });
  const pruned = pruneSchema(mapped);
  const config = pruned.toConfig();
  return new GraphQLSchema({ ...config, directives: config.directives.filter((d) => d.name !== REST_ONLY_DIRECTIVE) });
}
