import {
  isObjectType,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { getDirectiveExtensions } from '@graphql-tools/utils';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import { createContext } from '../../kernel/context.js';
import type { Principal } from '../../kernel/auth/principal.js';
import { holdsOneOf } from '../../kernel/auth/scopes.js';
import { recordExecutedOperation } from './operation-name.js';
import { runPlannedRoots, type PlannedOperation } from './compiled-execution.js';

// The planned lane: a GraphQL request whose document yoga has already parsed, validated and run as
// a planned operation (every root field one SQL statement, src/transport/graphql/compiled-execution.ts)
// is answered again without yoga. Yoga's per-request work (a Fetch Request and Response per call,
// the parse cache, the auth plugin's validation pass over the document, envelop's hooks) was most
// of such a request's CPU (docs/performance.md, "Round ten"). Grafast does the same: it plans a
// document once and skips that work for every later request of it.
//
// The lane only answers what it is sure yoga would answer 200 with `data` alone:
// - a POST of `application/json` to the endpoint itself, body `{ query, variables?, operationName? }`;
// - a query text (with that operation name) yoga has run as a planned operation: yoga's parser,
//   every validation rule (graphql-armor's limits, the input rules) and the planner accepted that
//   very text, and none of them reads anything but the text;
// - an API key holding every scope the document's fields and their types require (the auth
//   plugin's check, computed once per document);
// - variables that coerce, and plans that do not throw;
// - an Accept header yoga answers with JSON.
// Anything else — and any plan that throws (another tenant, `first` out of range, a bad cursor) —
// is handed to yoga, whose answer (errors, partial data, status) is then the reply.

/** What the lane keeps of a document yoga ran as a planned operation. */
interface LaneEntry {
  planned: PlannedOperation;
  /** Each field's (and its parent type's) @requiresScopes alternatives: one set of each must be held. */
  scopeSets: readonly (readonly (readonly string[])[])[];
}

/** Query texts kept; when full, the oldest goes. */
const MAX_ENTRIES = 256;
/** Longer query texts are not kept (a planned query is short; the key should be too). */
const MAX_QUERY_LENGTH = 8_192;
const BODY_KEYS = new Set(['query', 'variables', 'operationName']);

/**
 * The media type yoga would answer a non-streamed result with for this Accept header, or undefined
 * when it would pick another processor (text/event-stream, multipart/mixed) or none (406). The same
 * walk as yoga's result processors (graphql-yoga's use-result-processor.js and accept.js): the last
 * match wins, processors in the order SSE, multipart, JSON.
 */
export function jsonMediaTypeFor(accept: string | undefined): string | undefined {
  const requested: string[] = [];
  for (const item of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [mediaType, ...params] = item.split(';');
    if (mediaType === undefined) continue;
    const charset = params.find((param) => param.includes('charset=')) ?? 'charset=utf-8';
    if (charset === 'charset=utf-8') requested.push(mediaType);
  }
  requested.reverse();
  const matches = (processor: string, asked: string) => {
    const [askedType, askedSub] = processor.split('/');
    const [type, sub] = asked.split('/');
    return (type === '*' || type === askedType) && (sub === '*' || sub === askedSub);
  };
  let chosen: string | undefined;
  const processors = [
    ['text/event-stream'],
    ['multipart/mixed'],
    ['application/graphql-response+json', 'application/json'],
  ];
  for (const mediaTypes of processors)
    for (const asked of requested)
      for (const mediaType of mediaTypes) if (matches(mediaType, asked)) chosen = mediaType;
  return chosen?.startsWith('application/') ? chosen : undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The scope requirements of an operation, as the auth plugin (@envelop/generic-auth,
 * protect-granular) checks them field by field: the field's @requiresScopes and its parent type's.
 * Undefined when the operation uses an auth rule the lane does not check (@policy).
 */
function scopeSetsOf(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode) {
  const typeInfo = new TypeInfo(schema);
  const required: string[][][] = [];
  let checkable = true;
  const collect = (node: Parameters<typeof getDirectiveExtensions>[0]) => {
    const directives = getDirectiveExtensions<{
      requiresScopes: { scopes: string[][] };
      policy: { policies: unknown };
    }>(node, schema);
    if (directives.policy?.length) checkable = false;
    const scopes = directives.requiresScopes?.[0]?.scopes;
    if (scopes?.length) required.push(scopes);
  };
  visit(
    { ...document, definitions: [operation] },
    visitWithTypeInfo(typeInfo, {
      Field() {
        const parent = typeInfo.getParentType();
        const field = typeInfo.getFieldDef();
        // Introspection fields (__typename) have no definition here and need no scope.
        if (!parent || !field || field.name.startsWith('__')) return;
        // An interface's or a union's fields are checked per possible type by the auth plugin; not here.
        if (!isObjectType(parent)) {
          checkable = false;
          return;
        }
        collect(parent);
        collect(field);
      },
    }),
  );
  return checkable ? required : undefined;
}

export class PlannedLane {
  private readonly entries = new Map<string, LaneEntry>();
  /** Requests the lane answered (tests and the bench read it). */
  answered = 0;

  constructor(
    private readonly deps: AppDeps,
    private readonly schema: GraphQLSchema,
    private readonly path: string,
  ) {}

  /**
   * Called by the compiled execution when yoga runs a planned operation whose auth check refused
   * nothing: the request's query text is kept for the lane.
   */
  learn(context: unknown, document: DocumentNode, planned: PlannedOperation): void {
    const req = (context as { req?: FastifyRequest } | undefined)?.req;
    const body = req?.method === 'POST' && isRecord(req.body) ? req.body : undefined;
    if (!body || typeof body.query !== 'string' || body.query.length > MAX_QUERY_LENGTH) return;
    const key = keyOf(body.query, body.operationName);
    if (key === undefined || this.entries.has(key)) return;
    const scopeSets = scopeSetsOf(this.schema, document, planned.operation);
    if (!scopeSets) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { planned, scopeSets });
  }

  /** Answers the request and returns true, or returns false (yoga answers) without touching the reply. */
  async answer(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (req.url !== this.path || this.deps.tracing) return false;
    const contentType = req.headers['content-type']?.replace(/\s/g, '').toLowerCase();
    if (contentType !== 'application/json' && contentType !== 'application/json;charset=utf-8') return false;
    const body = req.body;
    if (!isRecord(body) || typeof body.query !== 'string') return false;
    for (const name in body) if (!BODY_KEYS.has(name)) return false;
    const variables = body.variables ?? {};
    if (!isRecord(variables)) return false;
    const key = keyOf(body.query, body.operationName);
    const entry = key === undefined ? undefined : this.entries.get(key);
    if (!entry) return false;
    const principal = (req as FastifyRequest & { principal?: Principal | null }).principal;
    if (principal?.kind !== 'apiKey') return false;
    const held = principal.scopes;
    if (!entry.scopeSets.every((sets) => holdsOneOf(held, sets))) return false;
    const mediaType = jsonMediaTypeFor(req.headers.accept);
    if (!mediaType) return false;
    const data = await runPlannedRoots(
      this.schema,
      entry.planned,
      createContext(this.deps, principal, req.ip ?? null),
      variables,
    );
    if (!data) return false;
    this.answered += 1;
    recordExecutedOperation(req, entry.planned.operation.name?.value);
    reply.status(200).header('content-type', `${mediaType}; charset=utf-8`);
    await reply.send(JSON.stringify({ data }));
    return true;
  }
}

function keyOf(query: string, operationName: unknown): string | undefined {
  // No name and an empty name differ: graphql-js looks for an operation named "" in the latter.
  if (operationName === undefined || operationName === null) return `\u0000${query}`;
  return typeof operationName === 'string' ? `=${operationName}\u0000${query}` : undefined;
}
