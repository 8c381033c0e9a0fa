import type { ApiKeyRow } from '../../kernel/db/types.js';

/** What an audit entry of a key's change tells: each changed field's value before and after. */
export interface ApiKeyChanges {
  from: { name?: string; scopes?: string[] };
  to: { name?: string; scopes?: string[] };
}

const sameScopes = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((scope) => b.includes(scope));

/** The fields that differ between a key before and after a change, or undefined when none does. */
export function apiKeyChanges(
  before: Pick<ApiKeyRow, 'name' | 'scopes'>,
  after: Pick<ApiKeyRow, 'name' | 'scopes'>,
): ApiKeyChanges | undefined {
  const changes: ApiKeyChanges = { from: {}, to: {} };
  if (before.name !== after.name) {
    changes.from.name = before.name;
    changes.to.name = after.name;
  }
  if (!sameScopes(before.scopes, after.scopes)) {
    changes.from.scopes = [...before.scopes];
    changes.to.scopes = [...after.scopes];
  }
  return Object.keys(changes.to).length ? changes : undefined;
}
