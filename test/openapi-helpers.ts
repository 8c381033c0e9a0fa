import type { FastifyInstance } from 'fastify';
import type { OpenApiDocument, Operation } from '../src/transport/rest/openapi.js';

export type JsonSchema = Record<string, unknown>;

export interface DocumentedOperation {
  method: string;
  /** fastify form, with :params. */
  url: string;
  operation: Operation;
}

export function operationsOf(document: OpenApiDocument): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase(),
      url: path.replace(/\{([^}]+)\}/g, ':$1'),
      operation,
    })),
  );
}

/**
 * The routes fastify serves, read from its own route table (`printRoutes`), as "METHOD /path"
 * (HEAD twins of GET routes left out).
 */
export function servedRoutes(fastify: FastifyInstance): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of fastify.printRoutes({ commonPrefix: false }).split('\n')) {
    const start = line.search(/[^│├└─\s]/);
    if (start < 0) continue;
    const depth = Math.round(start / 4);
    const match = /^(\S+)(?: \(([^)]+)\))?$/.exec(line.slice(start).trim());
    if (!match) continue;
    const path = (stack[depth - 1] ?? '') + match[1];
    stack[depth] = path;
    stack.length = depth + 1;
    const methods = (match[2] ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);
    for (const method of methods) {
      if (method === 'HEAD' && methods.includes('GET')) continue;
      routes.push(`${method} ${path}`);
    }
  }
  return routes.sort();
}

/** Replaces local $refs by what they point at (response schemas have no cycles). */
export function dereference(schema: unknown, document: OpenApiDocument, depth = 0): unknown {
  if (depth > 50) throw new Error('$ref cycle');
  if (Array.isArray(schema)) return schema.map((s) => dereference(s, document, depth + 1));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: string }).$ref;
  if (ref) {
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], document);
    return dereference(target, document, depth + 1);
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, dereference(v, document, depth + 1)]));
}

/** Every schema node below `schema` (following $refs once), with its JSON path. */
export function* schemaNodes(
  schema: unknown,
  document: OpenApiDocument,
  path: string,
  seen = new Set<string>(),
): Generator<[string, JsonSchema]> {
  if (!schema || typeof schema !== 'object') return;
  const node = schema as JsonSchema;
  if (typeof node.$ref === 'string') {
    if (seen.has(node.$ref)) return;
    seen.add(node.$ref);
    yield* schemaNodes(dereference(node, document), document, `${path} → ${node.$ref}`, seen);
    return;
  }
  yield [path, node];
  for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, unknown>))
    yield* schemaNodes(child, document, `${path}.${name}`, seen);
  if (node.items) yield* schemaNodes(node.items, document, `${path}[]`, seen);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const [i, child] of ((node[key] ?? []) as unknown[]).entries())
      yield* schemaNodes(child, document, `${path}.${key}[${i}]`, seen);
  }
}

/**
 * Example values that pass GraphQL's and JSON Schema's type checks, for sweeping routes. A schema's
 * own `examples`/`default` win (routes with patterns should give one); properties named in `ids`
 * (objectId, doorId, …) get those resources' ids.
 */
export function exampleOf(
  schema: unknown,
  document: OpenApiDocument,
  ids: Record<string, string> = {},
  depth = 0,
): unknown {
  const s = dereference(schema, document) as JsonSchema | undefined;
  if (!s || depth > 6) return undefined;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if ('default' in s) return s.default;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum.find((v) => v !== null);
  const variants = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (variants)
    return exampleOf(variants.find((v) => (v as JsonSchema).type !== 'null') ?? variants[0], document, ids, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      if (s.format === 'date-time') return '2030-01-07T10:00:00.000Z';
      if (s.format === 'date' || (typeof s.pattern === 'string' && s.pattern.includes('\\d{4}-'))) return '2030-01-07';
      if (s.format === 'email') return 'guest@example.com';
      if (s.format === 'uri' || s.format === 'url') return 'https://example.com/hook';
      return crypto.randomUUID();
    case 'integer':
    case 'number':
      return Math.min(
        typeof s.minimum === 'number' ? Math.max(s.minimum, 1) : 1,
        typeof s.maximum === 'number' ? s.maximum : Infinity,
      );
    case 'boolean':
      return true;
    case 'array':
      return typeof s.minItems === 'number' && s.minItems > 0 ? [exampleOf(s.items, document, ids, depth + 1)] : [];
    case 'object': {
      const required = (s.required ?? []) as string[];
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      return Object.fromEntries(
        required.map((name) => [name, ids[name] ?? exampleOf(properties[name], document, ids, depth + 1)]),
      );
    }
    default:
      return 'x';
  }
}
