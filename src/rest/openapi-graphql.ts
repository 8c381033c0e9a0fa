import {
  getNamedType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLScalarType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import type { JsonSchema } from './openapi-registry.js';

// GraphQL types → JSON Schema (OpenAPI 3.1 dialect). Output shapes follow the selection SOFA
// sends for the route, so the document shows exactly what the REST call returns.

const BUILT_IN_SCALARS: Record<string, JsonSchema> = {
  ID: { type: 'string' },
  String: { type: 'string' },
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  JSON: { description: 'Any JSON value.' },
  JSONObject: { type: 'object' },
};

export class SchemaConverter {
  /** Input object types met so far: they become components.schemas entries. */
  readonly inputComponents: Record<string, JsonSchema> = {};
  /** Custom scalars without a known JSON type (a test requires this to stay empty). */
  readonly untypedScalars = new Set<string>();

  constructor(private readonly schema: GraphQLSchema) {}

  scalar(type: GraphQLScalarType): JsonSchema {
    const builtIn = BUILT_IN_SCALARS[type.name];
    if (builtIn) return { ...builtIn };
    const known = type.extensions?.jsonSchema as JsonSchema | undefined;
    if (known) {
      const { title: _title, ...rest } = known;
      return { ...rest, ...(type.description && !rest.description ? { description: type.description } : {}) };
    }
    this.untypedScalars.add(type.name);
    return { description: `${type.name} (custom scalar)` };
  }

  private leaf(type: GraphQLNamedType): JsonSchema | undefined {
    if (isScalarType(type)) return this.scalar(type);
    if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.name) };
    return undefined;
  }

  input(type: GraphQLInputType): JsonSchema {
    if (isNonNullType(type)) return this.inputNonNull(type.ofType);
    return nullable(this.inputNonNull(type));
  }

  /** The schema of an input type, taken as required (path parameters, non-null arguments). */
  inputNonNull(type: GraphQLInputType): JsonSchema {
    if (isNonNullType(type)) return this.inputNonNull(type.ofType);
    if (isListType(type)) return { type: 'array', items: this.input(type.ofType) };
    const named = getNamedType(type);
    const leaf = this.leaf(named);
    if (leaf) return leaf;
    if (isInputObjectType(named)) {
      if (!(named.name in this.inputComponents)) {
        this.inputComponents[named.name] = {}; // reserve first: input types may refer to themselves
        const properties: Record<string, JsonSchema> = {};
        const required: string[] = [];
        for (const field of Object.values(named.getFields())) {
          properties[field.name] = withDescription(this.input(field.type), field.description);
          if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(field.name);
        }
        this.inputComponents[named.name] = {
          type: 'object',
          ...(named.description ? { description: named.description } : {}),
          properties,
          ...(required.length ? { required } : {}),
          additionalProperties: false,
        };
      }
      return { $ref: `#/components/schemas/${named.name}` };
    }
    return {};
  }

  /** The JSON shape of `type` when `selection` is selected on it (SOFA's generated selection). */
  output(type: GraphQLOutputType, selection: SelectionSetNode | undefined): JsonSchema {
    if (isNonNullType(type)) return this.outputNonNull(type.ofType, selection);
    return nullable(this.outputNonNull(type, selection));
  }

  private outputNonNull(type: GraphQLOutputType, selection: SelectionSetNode | undefined): JsonSchema {
    if (isNonNullType(type)) return this.outputNonNull(type.ofType, selection);
    if (isListType(type)) return { type: 'array', items: this.output(type.ofType, selection) };
    const named = getNamedType(type);
    const leaf = this.leaf(named);
    if (leaf) return leaf;
    if (isObjectType(named)) return this.object(named, selection, named);
    if (isAbstractType(named)) {
      const variants = this.schema.getPossibleTypes(named).map((member) => this.object(member, selection, named));
      return { oneOf: variants };
    }
    return {};
  }

  private object(type: GraphQLObjectType, selection: SelectionSetNode | undefined, selectedOn: GraphQLNamedType): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const visit = (set: SelectionSetNode | undefined) => {
      for (const node of set?.selections ?? []) {
        if (node.kind === Kind.FIELD) {
          const name = node.alias?.value ?? node.name.value;
          if (node.name.value === '__typename') {
            properties[name] = { type: 'string', const: type.name };
            required.push(name);
            continue;
          }
          const field = type.getFields()[node.name.value];
          if (!field) continue;
          properties[name] = withDescription(this.output(field.type, node.selectionSet), field.description);
          if (isNonNullType(field.type)) required.push(name);
        } else if (node.kind === Kind.INLINE_FRAGMENT) {
          const condition = node.typeCondition?.name.value;
          if (!condition || condition === type.name || condition === selectedOn.name) visit(node.selectionSet);
        }
      }
    };
    visit(selection);
    return {
      type: 'object',
      ...(type.description ? { description: type.description } : {}),
      properties,
      ...(required.length ? { required: [...new Set(required)] } : {}),
    };
  }
}

const ANY_JSON = BUILT_IN_SCALARS.JSON.description as string;

function withDescription(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  if (!description || schema.$ref) return schema;
  // A JSON field's own words come after "Any JSON value.": the schema has no type, so that phrase
  // is what says any value is allowed (and the document test looks for it).
  if (typeof schema.description === 'string' && schema.description.startsWith(ANY_JSON) && !description.startsWith(ANY_JSON)) {
    return { ...schema, description: `${ANY_JSON} ${description}` };
  }
  return { ...schema, description };
}

/** JSON Schema 2020-12 style nullability (OpenAPI 3.1 has no `nullable`). */
export function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string' && !schema.$ref) {
    const result: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) result.enum = [...(schema.enum as unknown[]), null];
    return result;
  }
  if (Object.keys(schema).length === 0 || (Object.keys(schema).length === 1 && 'description' in schema)) return schema;
  return { anyOf: [schema, { type: 'null' }] };
}
