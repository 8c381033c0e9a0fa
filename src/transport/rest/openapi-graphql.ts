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
import { Components, refTo } from './openapi-components.js';
import { ID_SCHEMA, STRING_HINTS } from './openapi-hints.js';
import { METADATA_LIMITS } from '../../kernel/metadata.js';

// GraphQL types → JSON Schema (OpenAPI 3.1 dialect). Output shapes follow the selection SOFA
// sends for the route, so the document shows exactly what the REST call returns.

const ANY_JSON = 'Any JSON value.';
const BUILT_IN_SCALARS: Record<string, JsonSchema> = {
  ID: ID_SCHEMA,
  String: { type: 'string' },
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  JSON: { description: ANY_JSON },
  // Portier's one JSONObject is metadata (src/kernel/metadata.ts METADATA_LIMITS).
  JSONObject: metadataSchema({ type: 'string', maxLength: METADATA_LIMITS.maxValueLength }),
};

/** Metadata's JSON Schema; `values`: the schema of a value (an update's may be null). */
function metadataSchema(values: JsonSchema): JsonSchema {
  return {
    type: 'object',
    description: `String keys (1–${METADATA_LIMITS.maxKeyLength} characters) and values (at most ${METADATA_LIMITS.maxValueLength}), at most ${METADATA_LIMITS.maxKeys} keys.`,
    maxProperties: METADATA_LIMITS.maxKeys,
    propertyNames: { type: 'string', minLength: 1, maxLength: METADATA_LIMITS.maxKeyLength },
    additionalProperties: values,
    examples: [{ orderRef: 'A-1042' }],
  };
}
/** An update's metadata: a null value deletes its key. */
const METADATA_PATCH = metadataSchema({ type: ['string', 'null'], maxLength: METADATA_LIMITS.maxValueLength });

/**
 * List items named apart from their type, by `ParentType.field`: an alias of the type's component,
 * so a client can say what it lists (docs/openapi.md).
 */
const ITEM_NAMES: Record<string, { name: string; description: string }> = {
  'BookingPage.bookings': {
    name: 'BookingListItem',
    description: 'A booking as the list shows it (the fields of Booking).',
  },
};

export class SchemaConverter {
  /** Custom scalars without a known JSON type (a test requires this to stay empty). */
  readonly untypedScalars = new Set<string>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly components: Components = new Components(),
  ) {}

  /** Input object types met so far (components.schemas entries). */
  get inputComponents(): Record<string, JsonSchema> {
    return this.components.schemas;
  }

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
    if (named.name === 'JSONObject') return { ...METADATA_PATCH };
    const leaf = this.leaf(named);
    if (leaf) return leaf;
    if (isInputObjectType(named)) {
      if (!this.components.has(named.name)) {
        this.components.schemas[named.name] = {}; // reserve first: input types may refer to themselves
        const properties: Record<string, JsonSchema> = {};
        const required: string[] = [];
        for (const field of Object.values(named.getFields())) {
          properties[field.name] = withDescription(
            withHint(this.input(field.type), STRING_HINTS[`${named.name}.${field.name}`]),
            field.description,
          );
          if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(field.name);
        }
        this.components.schemas[named.name] = {
          type: 'object',
          ...(named.description ? { description: named.description } : {}),
          properties,
          ...(required.length ? { required } : {}),
          additionalProperties: false,
        };
      }
      return refTo(named.name);
    }
    return {};
  }

  /** The JSON shape of `type` when `selection` is selected on it (SOFA's generated selection). */
  /** `at` is `ParentType.field` of the value (for hints and item names), absent at the root. */
  output(type: GraphQLOutputType, selection: SelectionSetNode | undefined, at?: string): JsonSchema {
    if (isNonNullType(type)) return this.outputNonNull(type.ofType, selection, at);
    return nullable(this.outputNonNull(type, selection, at));
  }

  private outputNonNull(
    type: GraphQLOutputType,
    selection: SelectionSetNode | undefined,
    at: string | undefined,
  ): JsonSchema {
    if (isNonNullType(type)) return this.outputNonNull(type.ofType, selection, at);
    if (isListType(type)) return { type: 'array', items: this.output(type.ofType, selection, at) };
    const named = getNamedType(type);
    const leaf = this.leaf(named);
    if (leaf) return leaf;
    if (isObjectType(named)) return this.named(named, this.object(named, selection, named), at);
    if (isAbstractType(named)) {
      // A union or interface is a component of its own (a generated client names the alternatives' type).
      const variants = this.schema
        .getPossibleTypes(named)
        .map((member) => this.named(member, this.object(member, selection, named), at));
      return this.components.add(named.name, {
        ...(named.description ? { description: named.description } : {}),
        oneOf: variants,
      });
    }
    return {};
  }

  /** The component of an object type's selected shape (see openapi-components.ts for the rule). */
  private named(type: GraphQLObjectType, shape: JsonSchema, at: string | undefined): JsonSchema {
    const keys = Object.keys(shape.properties ?? {}).filter((k) => k !== '__typename');
    if (keys.length === 1 && keys[0] === 'id') return this.components.add(`${type.name}Ref`, shape);
    const ref = this.components.add(type.name, shape);
    const item = at ? ITEM_NAMES[at] : undefined;
    if (!item) return ref;
    return this.components.add(item.name, { ...ref, description: item.description });
  }

  private object(
    type: GraphQLObjectType,
    selection: SelectionSetNode | undefined,
    selectedOn: GraphQLNamedType,
  ): JsonSchema {
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
          const at = `${type.name}.${field.name}`;
          properties[name] = withDescription(
            withHint(this.output(field.type, node.selectionSet, at), STRING_HINTS[at]),
            field.description,
          );
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

function withDescription(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  if (!description || schema.$ref) return schema;
  // A JSON field's own words come after "Any JSON value.": the schema has no type, so that phrase
  // is what says any value is allowed (and the document test looks for it).
  if (
    typeof schema.description === 'string' &&
    schema.description.startsWith(ANY_JSON) &&
    !description.startsWith(ANY_JSON)
  ) {
    return { ...schema, description: `${ANY_JSON} ${description}` };
  }
  return { ...schema, description };
}

/**
 * A String field's hint (format, closed set, limits): on the items of a list, with null kept in a
 * nullable field's enum. Fields whose schema is not a string (or a list of strings) take none.
 */
export function withHint(schema: JsonSchema, hint: JsonSchema | undefined): JsonSchema {
  if (!hint || !Object.keys(hint).length) return schema;
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
  if (types.includes('array') && schema.items) {
    const { minItems, maxItems, ...itemHint } = hint;
    return {
      ...schema,
      items: withHint(schema.items as JsonSchema, itemHint),
      ...(minItems !== undefined ? { minItems } : {}),
      ...(maxItems !== undefined ? { maxItems } : {}),
    };
  }
  if (!types.includes('string') && !types.includes('integer')) return schema;
  const { description, ...rest } = hint;
  const result: JsonSchema = { ...schema, ...rest };
  if (Array.isArray(rest.enum) && types.includes('null')) result.enum = [...(rest.enum as unknown[]), null];
  if (typeof description === 'string' && !schema.description) result.description = description;
  return result;
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
