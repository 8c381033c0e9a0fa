// Component names of hand-written routes' schemas (src/transport/rest/openapi-components.ts uses them);
// in the kernel so modules name their schemas without importing transport.

const componentNames = new Map<string, string>();

/** Gives a hand-written route's TypeBox or JSON schema a component name (the value is returned unchanged). */
export function named<T extends object>(name: string, schema: T): T {
  componentNames.set(JSON.stringify(schema), name);
  return schema;
}

/** The name `named()` gave a schema of this exact shape. */
export const registeredName = (schema: unknown): string | undefined => componentNames.get(JSON.stringify(schema));
