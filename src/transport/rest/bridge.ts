import {
  getLocation,
  getNamedType,
  isAbstractType,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  Kind,
  OperationTypeNode,
  parse,
  print,
  stripIgnoredCharacters,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type TypeNode,
  type VariableDefinitionNode,
} from 'graphql';
import { buildOperationNodeForField, getDirectiveExtensions } from '@graphql-tools/utils';
import { getVariableValues } from 'graphql/execution/values.js';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { parse as parseQueryString } from 'qs';
import { createSofa } from 'sofa-api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import { createContext, type GraphQLContext } from '../../kernel/context.js';
import { missingScope, requireApiKey, tenantOf } from '../../kernel/auth/principal.js';
import { credentialName } from '../../kernel/auth/challenge.js';
import { holdsOneOf } from '../../kernel/auth/scopes.js';
import type { FieldError } from '../../kernel/errors.js';
import { withoutSuggestions } from '../graphql/input-rules.js';
import { REST_BASE } from '../graphql/yoga.js';
import { REST_ROUTES, type RestRoute } from './routes.js';
import type { DirectAnswer } from './direct-answer.js';
import { sofaExtraModels, sofaIgnore } from './ignore.js';
import { checkParameters } from './params.js';
import {
  PROBLEM_JSON,
  parameterProblem,
  problemOfErrors,
  unreadableParameter,
  type RestProblem,
} from './problem-handler.js';

// The REST bridge: each route of REST_ROUTES is its own fastify route, and fastify's match is the
// only one. A request is parsed once (fastify's JSON parser), authorized once (scope and tenant,
// here, before its parameters are looked at), and runs its GraphQL operation — built the way SOFA
// builds it, compiled once by graphql-jit at start-up — directly, without a second router, a
// second body parse or the GraphQL endpoint's validation and auth plugins. Responses are what SOFA
// answered: the field's value as JSON, or one problem+json.

const JSON_TYPE = 'application/json; charset=utf-8';

export type { DirectAnswer } from './direct-answer.js';

/** One bridged route, ready to run. */
export interface RestOperation {
  route: RestRoute;
  fieldName: string;
  field: GraphQLField<unknown, unknown>;
  /** The operation SOFA would send, parsed (so its variables have locations). */
  document: DocumentNode;
  variables: readonly VariableDefinitionNode[];
  /** Alternatives of the field's @requiresScopes (one set must be held in full). */
  scopeSets: string[][];
  /** `:tenantId` is in the path: the edge checks it, and the operation runs without it. */
  tenantInPath: boolean;
  run: (context: GraphQLContext, variables: Record<string, unknown>) => Promise<ExecutionResult> | ExecutionResult;
  direct?: DirectAnswer;
  /** The variable a coercion error is about, by the location graphql-jit gives it. */
  variableAt(error: { locations?: ReadonlyArray<{ line: number; column: number }> }): string | undefined;
}

const AUTH_DIRECTIVES = ['requiresScopes', 'authenticated'];

/** The object types a field's value may be: its named type, or each member of an interface or union. */
function selectedTypeNames(schema: GraphQLSchema, type: GraphQLOutputType): string[] {
  const named = getNamedType(type);
  return isAbstractType(named) ? schema.getPossibleTypes(named).map((t) => t.name) : [named.name];
}

/**
 * The bridge checks the root field's scopes only; an auth directive on anything the operation
 * selects below it would go unchecked, so such a route is refused at start-up.
 */
function assertNoNestedAuth(schema: GraphQLSchema, document: DocumentNode, route: RestRoute): void {
  const typeInfo = new TypeInfo(schema);
  let depth = 0;
  const guarded = (node: Parameters<typeof getDirectiveExtensions>[0] | undefined) =>
    !!node && Object.keys(getDirectiveExtensions(node, schema)).some((d) => AUTH_DIRECTIVES.includes(d));
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: {
        enter() {
          depth += 1;
          const field = typeInfo.getFieldDef();
          if (!field) return;
          if (
            (depth > 1 && guarded(field)) ||
            selectedTypeNames(schema, field.type).some((name) => guarded(schema.getType(name)))
          ) {
            throw new Error(
              `REST route ${route.method} ${route.path}: ${route.field} selects ${field.name}, which carries an auth directive the REST bridge does not check`,
            );
          }
        },
        leave() {
          depth -= 1;
        },
      },
    }),
  );
}

/** The root field's selection set of a bridged operation, compact. */
export function rootSelectionOf(document: DocumentNode): string {
  const operation = document.definitions[0] as OperationDefinitionNode;
  const root = operation.selectionSet.selections[0];
  return root?.kind === Kind.FIELD && root.selectionSet ? stripIgnoredCharacters(print(root.selectionSet)) : '';
}

export function compileRestOperation(
  schema: GraphQLSchema,
  route: RestRoute,
  models: string[],
  direct?: DirectAnswer,
): RestOperation {
  const [rootName, fieldName] = route.field.split('.') as ['Query' | 'Mutation', string];
  const root = rootName === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const field = root?.getFields()[fieldName];
  if (!field) throw new Error(`REST route ${route.method} ${route.path} names ${route.field}, which the schema lacks`);
  const node = buildOperationNodeForField({
    schema,
    kind: rootName === 'Query' ? OperationTypeNode.QUERY : OperationTypeNode.MUTATION,
    field: fieldName,
    models,
    ignore: sofaIgnore,
    circularReferenceDepth: 1,
  });
  // Printed and parsed again: graphql-jit reports a variable's coercion error at its definition's location.
  const document = parse(print({ kind: Kind.DOCUMENT, definitions: [node] }));
  const operation = document.definitions[0] as OperationDefinitionNode;
  assertNoNestedAuth(schema, document, route);
  const compiled = compileQuery(schema, document, operation.name?.value);
  if (!isCompiledQuery(compiled))
    throw new Error(
      `REST route ${route.method} ${route.path}: ${route.field} does not compile: ${JSON.stringify(compiled.errors)}`,
    );
  const variables = operation.variableDefinitions ?? [];
  const byLocation = new Map<string, string>();
  for (const definition of variables) {
    if (!definition.loc) continue;
    const { line, column } = getLocation(definition.loc.source, definition.loc.start);
    byLocation.set(`${line}:${column}`, definition.variable.name.value);
  }
  if (direct && rootSelectionOf(document) !== direct.selection) {
    throw new Error(
      `REST route ${route.method} ${route.path}: its direct answer writes ${direct.selection}, but the operation selects ${rootSelectionOf(document)}`,
    );
  }
  const scopeSets =
    getDirectiveExtensions<{ requiresScopes: { scopes: string[][] } }>(field, schema).requiresScopes?.[0]?.scopes ?? [];
  return {
    route,
    fieldName,
    field,
    document,
    variables,
    scopeSets,
    tenantInPath: route.path.includes('/:tenantId'),
    run: (context, values) => compiled.query(undefined, context, values),
    direct,
    variableAt: (error) => {
      const at = error.locations?.[0];
      return at ? byLocation.get(`${at.line}:${at.column}`) : undefined;
    },
  };
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/**
 * The one auth check of a REST call: the key holds one of the field's scope sets (403
 * missing_scope, worded as GraphQL words it), then the path's tenant is the key's own (403
 * tenant_mismatch). Runs before the parameters are looked at.
 */
export function authorize(op: RestOperation, req: FastifyRequest): void {
  const principal = requireApiKey(req.principal);
  const held = principal.scopes;
  if (!holdsOneOf(held, op.scopeSets)) {
    const names = op.scopeSets.map((set) => set.join(' + ')).join(' or ');
    throw missingScope(
      principal,
      op.scopeSets,
      `This ${credentialName(principal)} lacks the scope ${names} needed for ${op.fieldName}`,
    );
  }
  const requested = asRecord(req.params).tenantId;
  if (op.tenantInPath && typeof requested === 'string') tenantOf(principal, requested);
}

/** A variable's value from a REST parameter, read as SOFA reads it (scalars through serialize()). */
function readValue(schema: GraphQLSchema, type: TypeNode, value: unknown): unknown {
  if (type.kind === Kind.NON_NULL_TYPE) return readValue(schema, type.type, value);
  if (type.kind === Kind.LIST_TYPE)
    return (Array.isArray(value) ? value : [value]).map((item) => readValue(schema, type.type, item));
  const named = schema.getType(type.name.value);
  if (named && 'serialize' in named && !('getValues' in named))
    return named.serialize(named.name === 'Boolean' ? value === 'true' || value === true : value);
  if (named && 'getFields' in named && !('serialize' in named)) return inputObjectOf(value);
  return value;
}

/** A parameter that is not the JSON object its input type needs: its field is named in the 400. */
class NotAnObject extends Error {}

function inputObjectOf(value: unknown): unknown {
  if (value && typeof value === 'object') return value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(value));
  } catch {
    throw new NotAnObject('must be a JSON object');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new NotAnObject('must be a JSON object');
  return parsed;
}

/** The named type of a variable's type (`JSONObject` of `JSONObject!`). */
const namedTypeOf = (type: TypeNode): string =>
  type.kind === Kind.NAMED_TYPE ? type.name.value : namedTypeOf(type.type);

type Picked = { ok: true; values: Record<string, unknown> } | { ok: false; problem: RestProblem };

/**
 * The operation's variables: each from the path, else the query string, else the JSON body (in
 * that order, as SOFA picks them); null and absent values are left out. The query string is read
 * with `qs`, as SOFA read it (brackets make arrays and objects).
 */
export function pickVariables(schema: GraphQLSchema, op: RestOperation, req: FastifyRequest): Picked {
  const params = asRecord(req.params);
  const queryText = req.url.split('?')[1];
  const query = queryText ? (parseQueryString(queryText) as Record<string, unknown>) : {};
  // An object parameter (metadata[key]=value) is read without arrays, so that numeric keys
  // (metadata[10]=x) stay keys instead of becoming a list's indices.
  let objects: Record<string, unknown> | undefined;
  const objectQuery = () => (objects ??= queryText ? parseQueryString(queryText, { parseArrays: false }) : {});
  const body = req.method !== 'GET' && req.method !== 'HEAD' ? asRecord(req.body) : {};
  const values: Record<string, unknown> = {};
  for (const definition of op.variables) {
    const name = definition.variable.name.value;
    if (name === 'tenantId' && op.tenantInPath) continue; // checked by authorize(); the resolver takes the key's tenant
    const fromQuery = namedTypeOf(definition.type) === 'JSONObject' ? objectQuery()[name] : query[name];
    const raw = name in params ? params[name] : fromQuery || body[name];
    if (raw === null || raw === undefined) continue;
    try {
      const value = readValue(schema, definition.type, raw);
      if (value !== undefined) values[name] = value;
    } catch (error) {
      if (error instanceof NotAnObject)
        return { ok: false, problem: parameterProblem([{ field: name, message: error.message }]) };
      return {
        ok: false,
        problem: unreadableParameter(error instanceof Error ? error.message || String(error) : String(error)),
      };
    }
  }
  return { ok: true, values };
}

/** The problem of a result without data: graphql-jit refused variables; each error is attributed by its location. */
function coercionProblem(
  op: RestOperation,
  errors: ReadonlyArray<{ message: string; locations?: ReadonlyArray<{ line: number; column: number }> }>,
  values: Record<string, unknown>,
): RestProblem {
  const fields: FieldError[] = [];
  for (const error of errors) {
    const name = op.variableAt(error);
    if (!name) return unreadableParameter(withoutSuggestions(error.message));
    const definition = op.variables.find((v) => v.variable.name.value === name);
    const missing =
      definition?.type.kind === Kind.NON_NULL_TYPE && !definition.defaultValue && values[name] === undefined;
    fields.push({ field: name, message: missing ? 'is required' : withoutSuggestions(error.message) });
  }
  return parameterProblem(fields);
}

function sendProblem(reply: FastifyReply, p: RestProblem) {
  for (const [name, value] of Object.entries(p.headers)) reply.header(name, value);
  return reply.status(p.status).type(PROBLEM_JSON).send(JSON.stringify(p.body));
}

/** The direct answer, or undefined when the variables do not coerce or it throws: then the operation runs and its errors answer. */
async function directBody(
  schema: GraphQLSchema,
  op: RestOperation,
  direct: DirectAnswer,
  context: GraphQLContext,
  values: Record<string, unknown>,
): Promise<string | undefined> {
  const variables = getVariableValues(schema, op.variables, values);
  if (variables.errors) return undefined;
  try {
    return await direct.answer(context, variables.coerced);
  } catch {
    return undefined;
  }
}

export async function runRestOperation(
  deps: AppDeps,
  schema: GraphQLSchema,
  op: RestOperation,
  req: FastifyRequest,
  reply: FastifyReply,
) {
  const picked = pickVariables(schema, op, req);
  if (!picked.ok) return sendProblem(reply, picked.problem);
  const context = createContext(deps, req.principal, req.ip);
  if (op.direct) {
    const body = await directBody(schema, op, op.direct, context, picked.values);
    if (body !== undefined) {
      if (isPagedList(op) && context.nextCursor) reply.header('link', nextLink(req.url, context.nextCursor));
      return reply
        .status(op.route.status ?? 200)
        .type(JSON_TYPE)
        .send(body);
    }
  }
  const result = await op.run(context, picked.values);
  if (!('data' in result)) return sendProblem(reply, coercionProblem(op, result.errors ?? [], picked.values));
  if (result.errors?.length) {
    return sendProblem(
      reply,
      problemOfErrors(result.errors, (cause) => deps.log.error({ err: cause }, 'unexpected error in a resolver')),
    );
  }
  const answer = result.data?.[op.fieldName] ?? null;
  const next = context.nextCursor ?? asRecord(answer).next;
  if (isPagedList(op) && typeof next === 'string') reply.header('link', nextLink(req.url, next));
  return reply
    .status(op.route.status ?? 200)
    .type(JSON_TYPE)
    .send(JSON.stringify(answer));
}

/** A list with cursor paging: a GET route whose field takes `after` (docs/api.md, "Cursor paging"). */
const isPagedList = (op: RestOperation) => op.route.method === 'GET' && op.field.args.some((a) => a.name === 'after');

/**
 * RFC 8288 `Link` to a list's next page: the request's path and query with `after` set to the
 * cursor, and the page numbers (which cannot go with a cursor) left out — `pageSize` becomes
 * `limit`. A path-absolute reference, so it holds behind any proxy.
 */
export function nextLink(url: string, next: string): string {
  const [path = '', queryText = ''] = url.split('?');
  const query = new URLSearchParams(queryText);
  const pageSize = query.get('pageSize');
  for (const name of ['after', 'page', 'pageSize']) query.delete(name);
  if (pageSize !== null && !query.has('limit') && !query.has('first')) query.set('limit', pageSize);
  query.set('after', next);
  return `<${path}?${query.toString()}>; rel="next"`;
}

/** Registers every REST route (each its own fastify route) and returns their operations. */
export function registerRestRoutes(
  fastify: FastifyInstance,
  deps: AppDeps,
  schema: GraphQLSchema,
  routes: RestRoute[] = REST_ROUTES,
  directAnswers: Partial<Record<RestRoute['field'], DirectAnswer>> = {},
): RestOperation[] {
  const models = [...createSofa({ schema, basePath: '' }).models, ...sofaExtraModels];
  return routes.map((route) => {
    const op = compileRestOperation(schema, route, models, directAnswers[route.field]);
    fastify.route({
      url: REST_BASE + route.path,
      method: route.method,
      exposeHeadRoute: false,
      config: { auth: 'apiKey', restRoute: route },
      preHandler: async (req) => {
        authorize(op, req);
        checkParameters(schema, op.field, req);
      },
      handler: (req, reply) => runRestOperation(deps, schema, op, req, reply),
    });
    return op;
  });
}
