import type { JsonSchema } from './openapi-registry.js';

// components.schemas of the OpenAPI document: every resource and payload gets a name and is
// referenced with $ref, so a generated client has a type per shape (docs/openapi.md, "Component
// names"). The naming rule:
// - a GraphQL object type is named after the type (`Booking`, `WebhookDelivery`); a selection of
//   only its `id` is `<Type>Ref`; a few list items have a name of their own (`BookingListItem`,
//   an alias of the item's type);
// - a bridged route's JSON body is `<OperationId>Request` (`CreateBookingRequest`);
// - a hand-written route's schemas carry the name they were registered with (`named()`), else its
//   body is `<OperationId>Request` and its JSON success body `<OperationId>Response`.
// Identical shapes under one name are stored once; a different shape under a taken name is
// reported (BuiltDocument.componentConflicts; a test requires none), so names stay stable.

export { named, registeredName } from '../../kernel/openapi-names.js';
import { registeredName } from '../../kernel/openapi-names.js';

export const refTo = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export class Components {
  readonly schemas: Record<string, JsonSchema> = {};

  /** Names that two different shapes claimed (a test requires none): the later shape got `<name>2`, `<name>3`, …. */
  readonly conflicts: string[] = [];

  /** Stores `schema` as `name` (once per shape) and returns a $ref to it. */
  add(name: string, schema: JsonSchema): JsonSchema {
    const text = JSON.stringify(schema);
    let candidate = name;
    for (let n = 2; this.schemas[candidate] && JSON.stringify(this.schemas[candidate]) !== text; n += 1)
      candidate = `${name}${n}`;
    if (candidate !== name && !this.schemas[candidate]) this.conflicts.push(name);
    this.schemas[candidate] = schema;
    return refTo(candidate);
  }

  has(name: string): boolean {
    return name in this.schemas;
  }

  /**
   * Replaces every object schema below `schema` that `named()` registered by a $ref, and, when
   * `rootName` is given and the root is an object, names the root too.
   */
  hoist(schema: JsonSchema, rootName?: string): JsonSchema {
    const visit = (node: unknown, isRoot: boolean): unknown => {
      if (Array.isArray(node)) return node.map((n) => visit(n, false));
      if (!node || typeof node !== 'object') return node;
      const object = node as JsonSchema;
      const name = registeredName(object) ?? (isRoot && rootName && object.type === 'object' ? rootName : undefined);
      const children = Object.fromEntries(Object.entries(object).map(([k, v]) => [k, visit(v, false)]));
      return name ? this.add(name, children) : children;
    };
    return visit(schema, true) as JsonSchema;
  }
}

export const pascal = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
