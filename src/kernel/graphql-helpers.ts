import {
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import type { Transaction } from 'kysely';
import type { DB } from './db/types.js';
import type { GraphQLContext } from './context.js';
import { livemodeOf } from './auth/principal.js';

/** Entry points open the transaction and pass it down (PGlite: never use the root handle inside it). */
export function inTransaction<T>(ctx: GraphQLContext, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return ctx.db.transaction().execute(work);
}

/**
 * Whether a tenant-owned row of `tenantId` is live data (test mode, docs/test-mode.md): the
 * principal's own tenant is answered from the principal (no statement); another tenant (a key just
 * made for the sandbox) is read.
 */
export async function tenantLivemode(ctx: GraphQLContext, tenantId: string): Promise<boolean> {
  const principal = ctx.principal;
  if (principal?.tenantId === tenantId) return livemodeOf(principal);
  const row = await ctx.db.selectFrom('tenants').select('livemode').where('id', '=', tenantId).executeTakeFirst();
  return row?.livemode ?? true;
}

export const nonNull = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`${what} vanished while loading`);
  return value;
};

/**
 * The names of the fields selected on the value a resolver returns (for a list, on its items),
 * fragments followed and type conditions ignored; null when the selection cannot be read. Used to
 * plan SQL from the document (a listing reads only the columns and joins its fields need): it may
 * name more fields than are finally executed (an @skip is not evaluated), never fewer.
 */
export function selectedFieldNames(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>): Set<string> | null {
  const names = new Set<string>();
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode | undefined): boolean => {
    if (!set) return false;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) names.add(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (!visit(selection.selectionSet)) return false;
      } else {
        const name = selection.name.value;
        if (seen.has(name)) continue;
        seen.add(name);
        const fragment = info.fragments[name] as FragmentDefinitionNode | undefined;
        if (!fragment || !visit(fragment.selectionSet)) return false;
      }
    }
    return true;
  };
  for (const node of info.fieldNodes) if (!visit(node.selectionSet)) return null;
  return names;
}

/** The field nodes named `name` selected directly in `sets` (fragments followed); null when unreadable. */
function fieldNodesNamed(
  sets: ReadonlyArray<SelectionSetNode | undefined>,
  name: string,
  fragments: GraphQLResolveInfo['fragments'],
): FieldNode[] | null {
  const found: FieldNode[] = [];
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode | undefined): boolean => {
    if (!set) return true;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === name) found.push(selection);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (!visit(selection.selectionSet)) return false;
      } else {
        if (seen.has(selection.name.value)) continue;
        seen.add(selection.name.value);
        const fragment = fragments[selection.name.value] as FragmentDefinitionNode | undefined;
        if (!fragment || !visit(fragment.selectionSet)) return false;
      }
    }
    return true;
  };
  for (const set of sets) if (!visit(set)) return null;
  return found;
}

/** What a connection's selection asks for: the fields of its nodes (via `nodes` and `edges.node`) and whether `totalCount`. */
export interface ConnectionSelection {
  /** The node fields selected; null when the selection cannot be read (then plan for every field). */
  nodeFields: Set<string> | null;
  totalCount: boolean;
}

/** Reads a connection field's selection (see selectedFieldNames for what "selected" means here). */
export function connectionSelection(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>): ConnectionSelection {
  const top = info.fieldNodes.map((n) => n.selectionSet);
  const totals = fieldNodesNamed(top, 'totalCount', info.fragments);
  const nodes = fieldNodesNamed(top, 'nodes', info.fragments);
  const edges = fieldNodesNamed(top, 'edges', info.fragments);
  const edgeNodes =
    edges &&
    fieldNodesNamed(
      edges.map((e) => e.selectionSet),
      'node',
      info.fragments,
    );
  if (!totals || !nodes || !edgeNodes) return { nodeFields: null, totalCount: true };
  const fieldNodes = [...nodes, ...edgeNodes];
  const nodeFields = fieldNodes.length
    ? selectedFieldNames({ fieldNodes, fragments: info.fragments })
    : new Set<string>();
  return { nodeFields, totalCount: totals.length > 0 };
}
