import { Kind, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { Transaction } from 'kysely';
import type { DB } from '../db/types.js';
import type { GraphQLContext } from '../context.js';

/** Entry points open the transaction and pass it down (PGlite: never use the root handle inside it). */
export function inTransaction<T>(ctx: GraphQLContext, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return ctx.db.transaction().execute(work);
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
