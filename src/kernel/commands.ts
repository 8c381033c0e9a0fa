import {
  FormatRegistry,
  Type,
  type SchemaOptions,
  type StaticDecode,
  type TObject,
  type TSchema,
} from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { invalid, type FieldError } from './errors.js';
import { SCOPES, isScope, type Scope } from './auth/scopes.js';
import {
  isEmail,
  isHhmm,
  isLocalDate,
  isNonEmptyString,
  isTimeZone,
  isUuid,
  parseBoundary,
  parseInstant,
} from './validation.js';

// Typed commands, validated once where input enters (docs/architecture.md, "Typed commands").
// A command is a TypeBox object schema living with its module (`<module>.commands.ts`); each of
// its properties carries the message a caller sees when that field is wrong (`message`), so the
// field names and messages of the ValidationError are the contract's, not TypeBox's wording.
// Transforms turn accepted text into what services use (trimmed names, Dates), so a service takes
// `StaticDecode<typeof Command>` and trusts it.

// The formats the commands use, backed by the same predicates as before (src/kernel/validation.ts). They
// are registered once, when this module loads; registering is idempotent and holds no state.
FormatRegistry.Set('uuid', isUuid);
FormatRegistry.Set('email', isEmail);
FormatRegistry.Set('portier-text', (value) => isNonEmptyString(value, Number.MAX_SAFE_INTEGER));
FormatRegistry.Set('portier-instant', (value) => parseInstant(value) !== undefined);
FormatRegistry.Set('portier-boundary', (value) => parseBoundary(value) !== undefined);
FormatRegistry.Set('portier-local-date', isLocalDate);
FormatRegistry.Set('portier-hhmm', (value) => isHhmm(value));
FormatRegistry.Set('portier-hhmm-end', (value) => isHhmm(value, true));
FormatRegistry.Set('portier-time-zone', isTimeZone);

/** The option every command property carries: the message for any value it refuses (or one made from the value). */
export interface FieldOptions extends SchemaOptions {
  message: string | ((value: unknown) => string);
}

const isMessageMaker = (message: unknown): message is (value: unknown) => string => typeof message === 'function';

const messageOf = (schema: TObject, field: string, value: unknown): string | undefined => {
  const property: unknown = schema.properties[field];
  const message = (property as { message?: unknown } | undefined)?.message;
  if (isMessageMaker(message)) return message(value);
  return typeof message === 'string' ? message : undefined;
};

/**
 * The field errors of `input` against `command`: at most one per top-level field (the property's
 * `message`), in the order the schema lists its properties. An error below a field (an item of a
 * list) is reported on the field, as the hand-written checks did.
 */
export function commandErrors(command: TObject, input: unknown): FieldError[] {
  const found = new Map<string, string>();
  for (const error of Value.Errors(command, input)) {
    const field = error.path.split('/')[1] ?? '';
    if (!found.has(field)) found.set(field, messageOf(command, field, fieldOf(input, field)) ?? error.message);
  }
  return [...found].map(([field, message]) => ({ field: field || 'input', message }));
}

/**
 * Throws the ValidationError of `errors` — the schema's and those of a module's own checks of a
 * field (`tiers[0].refundPercent`) — ordered as `command` lists its properties; nothing when empty.
 */
export function throwIfInvalid(command: TObject, errors: FieldError[], code = 'validation_failed'): void {
  if (errors.length) refuse(command, errors, code);
}

/** Throws the ValidationError of `errors`, ordered as `command` lists its properties. */
export function refuse(command: TObject, errors: FieldError[], code = 'validation_failed'): never {
  const order = Object.keys(command.properties);
  const rank = (field: string) => {
    const [top = field] = field.split(/[.[]/);
    const at = order.indexOf(top);
    return at === -1 ? order.length : at;
  };
  throw invalid(
    [...errors].sort((a, b) => rank(a.field) - rank(b.field)),
    code,
  );
}

/**
 * Checks `input` against `command` and returns it decoded (transforms applied), or throws the
 * ValidationError (BAD_USER_INPUT, `code`) naming every refused field. Properties the schema does
 * not list (a GraphQL `tenantId`) pass through untouched.
 */
export function parseCommand<S extends TObject>(
  command: S,
  input: unknown,
  code = 'validation_failed',
): StaticDecode<S> {
  throwIfInvalid(command, commandErrors(command, input), code);
  return Value.Decode(command, input);
}

// Building blocks the modules' commands share.

/** The field `field` of an input that may not be an object at all. */
export const fieldOf = (input: unknown, field: string): unknown =>
  typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[field] : undefined;

/** Absent or null: an optional GraphQL argument arrives as either. */
export const Nullable = <T extends TSchema>(
  schema: T,
  options: FieldOptions = { message: schema.message as FieldOptions['message'] },
) => Type.Optional(Type.Union([Type.Null(), schema], options));

/** A non-empty string of at most `max` characters, trimmed. */
export const Text = (options: FieldOptions & { maxLength?: number }) =>
  Type.Transform(Type.String({ format: 'portier-text', maxLength: 200, ...options }))
    .Decode((value) => value.trim())
    .Encode((value) => value);

/** A uuid (an object's, a booking's id). */
export const Id = (options: FieldOptions) => Type.String({ format: 'uuid', ...options });

function toInstant(value: Date | string): Date {
  const date = parseInstant(value);
  if (!date) throw new TypeError('an instant that passed its format check did not parse');
  return date;
}

/** An ISO 8601 timestamp with an offset (text from REST or a file) or a Date (a GraphQL DateTime), decoded to a Date. */
export const Instant = (options: FieldOptions) =>
  Type.Transform(Type.Union([Type.Date(), Type.String({ format: 'portier-instant' })], options))
    .Decode(toInstant)
    .Encode((value) => value);

/** A listing boundary: a timestamp with an offset, or a date YYYY-MM-DD read as midnight UTC. */
export const Boundary = (options: FieldOptions) =>
  Type.Transform(Type.Union([Type.Date(), Type.String({ format: 'portier-boundary' })], options))
    .Decode((value) => {
      const date = parseBoundary(value);
      if (!date) throw new TypeError('a boundary that passed its format check did not parse');
      return date;
    })
    .Encode((value) => value);

/** One of a closed set of strings (checked as a union of literals, typed as the set's union). */
export const OneOf = <T extends string>(values: readonly T[], options: FieldOptions) =>
  Type.Unsafe<T>(
    Type.Union(
      values.map((value) => Type.Literal(value)),
      options,
    ),
  );

/** true or false. */
export const Flag = (options: FieldOptions = { message: 'must be true or false' }) => Type.Boolean(options);

/** A whole number from `minimum` to `maximum`. */
export const Whole = (minimum: number, maximum: number, options: FieldOptions) =>
  Type.Integer({ minimum, maximum, ...options });

/** A message made from what a list of scopes holds: the unknown ones named, or what a list needs. */
function scopeListMessage(value: unknown): string {
  const unknown = Array.isArray(value) ? value.filter((scope) => typeof scope !== 'string' || !isScope(scope)) : [];
  if (!Array.isArray(value) || value.length === 0 || unknown.length === 0)
    return `must list at least one of ${SCOPES.join(', ')}`;
  return `unknown scope ${unknown.join(', ')}; known scopes are ${SCOPES.join(', ')}`;
}

/** A non-empty list of API scopes (an API key's, an OAuth app's); the message names any unknown one. */
export const ScopeList = () =>
  Type.Array(OneOf<Scope>(SCOPES, { message: scopeListMessage }), { minItems: 1, message: scopeListMessage });
