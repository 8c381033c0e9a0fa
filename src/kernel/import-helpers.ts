import { DomainError, invalid, invalidField, type FieldError } from './errors.js';
import { isNonEmptyString } from './validation.js';

// What every section importer uses: the shared context, item keys, and error paths.

export type { ImportContext, ImportResult } from './deps.js';

/** Runs `work` for one item; errors it throws are re-labelled with the item's place in the file. */
export async function atPath<T>(path: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'BAD_USER_INPUT') {
      const fields: FieldError[] = error.fieldErrors.length
        ? error.fieldErrors.map((f) => ({ field: `${path}.${f.field}`, message: f.message }))
        : [{ field: path, message: error.message }];
      throw invalid(fields, 'import_invalid');
    }
    if (error instanceof DomainError) {
      throw new DomainError(error.kind, error.code, `${path}: ${error.message}`, { fieldErrors: error.fieldErrors });
    }
    throw error;
  }
}

/** The items of a section, each with a unique non-empty key. */
export function keyedItems(
  section: string,
  value: unknown,
): { key: string; item: Record<string, unknown>; path: string }[] {
  if (!Array.isArray(value)) throw invalidField(section, 'must be a list', 'import_invalid');
  const seen = new Set<string>();
  return value.map((item, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw invalidField(`${section}[${index}]`, 'must be an object', 'import_invalid');
    }
    const key = (item as { key?: unknown }).key;
    if (!isNonEmptyString(key))
      throw invalidField(`${section}[${index}].key`, 'must be a non-empty string', 'import_invalid');
    if (seen.has(key)) throw invalidField(`${section}[${key}].key`, `duplicate key "${key}"`, 'import_invalid');
    seen.add(key);
    return { key, item: item as Record<string, unknown>, path: `${section}[${key}]` };
  });
}

/** Looks up a key defined earlier in the file. */
export function resolveKey(map: Record<string, string>, kind: string, key: unknown, path: string): string {
  const id = typeof key === 'string' && Object.hasOwn(map, key) ? map[key] : undefined;
  if (id === undefined) throw invalidField(path, `refers to unknown ${kind} "${String(key)}"`, 'import_invalid');
  return id;
}
