import { makeExecute, type Plugin } from '@envelop/core';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import {
  getOperationAST,
  type GraphQLError,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  type GraphQLField,
  type OperationDefinitionNode,
  type GraphQLSchema,
} from 'graphql';
import { getArgumentValues, getVariableValues } from 'graphql/execution/values.js';
import type { GraphQLContext } from '../../kernel/context.js';

type Query = (
  root: unknown,
  context: unknown,
  variables: Record<string, unknown>,
) => ExecutionResult | Promise<ExecutionResult>;
interface Entry {
  query: Query;
  planned?: PlannedOperation;
}

export type { FieldPlan, FieldPlanner, PlannedFields } from '../../kernel/field-plan.js';
import type { FieldPlan, PlannedFields } from '../../kernel/field-plan.js';

interface PlannedRoot {
  key: string;
  node: FieldNode;
  definition: GraphQLField<unknown, unknown>;
  plan: FieldPlan;
}

/** A query operation whose every root field runs as its plan. */
export interface PlannedOperation {
  roots: readonly PlannedRoot[];
  operation: OperationDefinitionNode;
}

/**
 * An operation whose every root field has a plan: a query without fragments or directives at its
 * root, each response key once. Undefined otherwise.
 */
function planOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  planners: PlannedFields,
): PlannedOperation | undefined {
  const operation = getOperationAST(document, operationName);
  const queryType = schema.getQueryType();
  if (!operation || operation.operation !== OperationTypeNode.QUERY || operation.directives?.length || !queryType)
    return undefined;
  const roots: PlannedRoot[] = [];
  const keys = new Set<string>();
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length) return undefined;
    const key = selection.alias?.value ?? selection.name.value;
    const planner = planners[`Query.${selection.name.value}`];
    const definition = queryType.getFields()[selection.name.value];
    if (!planner || !definition || keys.has(key)) return undefined;
    const plan = planner(selection, definition, schema);
    if (!plan) return undefined;
    keys.add(key);
    roots.push({ key, node: selection, definition, plan });
  }
  return roots.length ? { roots, operation } : undefined;
}

/**
 * The planned operation's `data`, or undefined when its variables do not coerce or a plan throws
 * (a refusal or an error: then ordinary execution answers, with its errors).
 */
export async function runPlannedRoots(
  schema: GraphQLSchema,
  planned: PlannedOperation,
  context: GraphQLContext,
  variables: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  const coerced = getVariableValues(schema, planned.operation.variableDefinitions ?? [], variables);
  if (coerced.errors) return undefined;
  try {
    const data: Record<string, unknown> = {};
    for (const field of planned.roots) {
      data[field.key] = await field.plan.run(context, getArgumentValues(field.definition, field.node, coerced.coerced));
    }
    return data;
  } catch {
    return undefined;
  }
}

/** Runs the planned fields; on any refusal or error, the compiled operation runs instead and answers. */
function plannedQuery(schema: GraphQLSchema, planned: PlannedOperation, fallback: Query): Query {
  return async (root, context, variables) => {
    const data = await runPlannedRoots(schema, planned, context as GraphQLContext, variables);
    return data ? { data } : fallback(root, context, variables);
  };
}

/**
 * Compiled execution (graphql-jit): each operation is compiled once to JavaScript and reused; an
 * operation made only of planned root fields (`planners`, e.g. the bookings listing written by
 * PostgreSQL as JSON) runs their plans instead, with the compiled operation as its fallback.
 *
 * Why not @envelop/graphql-jit as is: its cache is keyed by the executed document, and the auth
 * plugin's extended validation hands execution a fresh copy of the document on every request, so
 * every request compiled anew. This plugin runs before that validation and keys the cache on the
 * parsed document itself (yoga's parser cache keeps it stable). The copy the validation makes
 * differs only when it refused a field (the key lacks its scope): the validation removes that field
 * from its copy and marks the context (markFieldsRefused), and then the copy is what runs, compiled
 * for this request alone, so a refused field's resolver never runs.
 */
export function useCompiledExecution(
  planners: PlannedFields = {},
  /** Told of each execution of a planned operation that the auth check left whole (the planned lane learns from it). */
  onPlanned?: (context: unknown, document: DocumentNode, planned: PlannedOperation) => void,
): Plugin {
  const compiled = new WeakMap<DocumentNode, Map<string, Entry>>();
  return {
    onExecute({ args, setExecuteFn }) {
      const document: DocumentNode = args.document as DocumentNode;
      setExecuteFn(
        makeExecute((execArgs: ExecutionArgs) => {
          if (fieldsWereRefused(execArgs.contextValue)) {
            const result = compileQuery(execArgs.schema, execArgs.document, execArgs.operationName ?? undefined);
            return isCompiledQuery(result)
              ? result.query(execArgs.rootValue, execArgs.contextValue, execArgs.variableValues ?? {})
              : result;
          }
          const operation = execArgs.operationName ?? '';
          let byOperation = compiled.get(document);
          if (!byOperation) compiled.set(document, (byOperation = new Map<string, Entry>()));
          let entry = byOperation.get(operation);
          if (!entry) {
            const result = compileQuery(execArgs.schema, document, execArgs.operationName ?? undefined);
            const compiledQuery: Query = isCompiledQuery(result)
              ? (result as CompiledQuery).query.bind(result)
              : () => result;
            const planned = isCompiledQuery(result)
              ? planOperation(execArgs.schema, document, execArgs.operationName ?? undefined, planners)
              : undefined;
            entry = { query: planned ? plannedQuery(execArgs.schema, planned, compiledQuery) : compiledQuery, planned };
            byOperation.set(operation, entry);
          }
          if (entry.planned) onPlanned?.(execArgs.contextValue, document, entry.planned);
          return entry.query(execArgs.rootValue, execArgs.contextValue, execArgs.variableValues ?? {});
        }),
      );
    },
  };
}

const FIELDS_REFUSED = Symbol('portier.fieldsRefused');
const REFUSALS = Symbol('portier.refusals');

/** Called by the auth validation when it removed a field from the executed document (with its error). */
export function markFieldsRefused(context: unknown, refusal?: GraphQLError): void {
  if (!context || typeof context !== 'object') return;
  const marked = context as { [FIELDS_REFUSED]?: true; [REFUSALS]?: GraphQLError[] };
  marked[FIELDS_REFUSED] = true;
  if (refusal) (marked[REFUSALS] ??= []).push(refusal);
}

/** The auth validation's refusals of this request (see markFieldsRefused). */
export function refusalsOf(context: unknown): readonly GraphQLError[] {
  if (!context || typeof context !== 'object') return [];
  return (context as { [REFUSALS]?: GraphQLError[] })[REFUSALS] ?? [];
}

function fieldsWereRefused(context: unknown): boolean {
  return Boolean(context && typeof context === 'object' && (context as { [FIELDS_REFUSED]?: true })[FIELDS_REFUSED]);
}
