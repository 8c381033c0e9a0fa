import { GraphQLError, Kind, getNamedType, type ASTNode, type ValidationRule } from 'graphql';
import type { Plugin } from '@envelop/core';
import { stringProblem } from '../../kernel/input-guard.js';
import { isUuid } from '../../kernel/validation.js';

// GraphQL's share of the input guard (src/kernel/input-guard.ts): variables arrive in a JSON body or
// query string that fastify has already checked; these rules cover what the document itself
// carries — string literals. (Subscriptions are served: docs/subscriptions.md.)

// `spec: false`: yoga answers a validation error 200 under application/json (GraphQL over HTTP)
// unless told otherwise; refused input is a 400 on every transport.
const badInput = (message: string, nodes: ASTNode[]) =>
  new GraphQLError(message, { nodes, extensions: { code: 'BAD_USER_INPUT', http: { status: 400, spec: false } } });

/** The argument or input field a literal belongs to, for the message. */
function ownerName(
  parent: ASTNode | ReadonlyArray<ASTNode> | undefined,
  ancestors: ReadonlyArray<ASTNode | ReadonlyArray<ASTNode>>,
): string {
  const chain = parent ? [...ancestors, parent] : ancestors;
  for (let i = chain.length - 1; i >= 0; i -= 1) {
    const node = chain[i];
    if (
      node !== undefined &&
      !Array.isArray(node) &&
      'kind' in node &&
      (node.kind === Kind.ARGUMENT || node.kind === Kind.OBJECT_FIELD)
    ) {
      return node.name.value;
    }
  }
  return 'a string literal';
}

export const NoUnstorableStringLiterals: ValidationRule = (context) => ({
  StringValue(node, _key, parent, _path, ancestors) {
    const problem = stringProblem(node.value);
    if (problem) context.reportError(badInput(`Argument "${ownerName(parent, ancestors)}" ${problem}`, [node]));
  },
});

const INVALID_UUID = 'invalid_uuid';

/**
 * A UUID literal that is no UUID, named by its argument or input field (`Argument "id" must be a
 * UUID …`). The UUID scalar refuses it too, without the name; that error is dropped (see below).
 */
export const NamedUuidLiterals: ValidationRule = (context) => ({
  StringValue(node, _key, parent, _path, ancestors) {
    const type = context.getInputType();
    const shown = JSON.stringify(node.value.slice(0, 100));
    if (!type || getNamedType(type).name !== 'UUID' || isUuid(node.value)) return;
    context.reportError(
      new GraphQLError(
        `Argument "${ownerName(parent, ancestors)}" must be a UUID (8-4-4-4-12 hexadecimal digits), got ${shown}`,
        {
          nodes: [node],
          extensions: { code: 'BAD_USER_INPUT', reason: INVALID_UUID, http: { status: 400, spec: false } },
        },
      ),
    );
  },
});

/**
 * The UUID scalar's own errors (`UUID must be …`, without a location: graphql-js reports a literal's
 * parse error as the scalar threw it) once NamedUuidLiterals named the argument.
 */
function withoutUnnamedUuidErrors(errors: Error[]): Error[] {
  const named = errors.some((e) => (e as Partial<GraphQLError>).extensions?.reason === INVALID_UUID);
  if (!named) return errors;
  return errors.filter(
    (e) => (e as Partial<GraphQLError>).extensions?.reason === INVALID_UUID || !e.message.startsWith('UUID must be'),
  );
}

/** graphql-js's "Did you mean …?" hints name values the caller did not ask about; they are removed. */
export function withoutSuggestions(message: string): string {
  return message.replace(/\s*Did you mean [^?]*\?/g, '');
}

/** The error without "Did you mean …?" hints (enum values, fields, arguments, types). */
export function withoutHints(error: GraphQLError): GraphQLError {
  const message = withoutSuggestions(error.message);
  if (message === error.message) return error;
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}

/**
 * An execution error without a path is a request error graphql-js made itself: a variable that is
 * missing or of the wrong type. It gets `extensions.code` BAD_USER_INPUT (reason invalid_variables),
 * as every error does (README, errors).
 */
export function withRequestCode(error: GraphQLError): GraphQLError {
  if (error.path || error.extensions?.code) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    originalError: error.originalError,
    extensions: { ...error.extensions, code: 'BAD_USER_INPUT', reason: 'invalid_variables' },
  });
}

/**
 * The rules above, and hint removal from validation errors and from execution errors (variable
 * coercion); yoga's error masking does not see request errors, which graphql-js creates itself.
 */
export function inputRulesPlugin(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoUnstorableStringLiterals);
      addValidationRule(NamedUuidLiterals);
      return ({ valid, result, setResult }) => {
        // A GraphQLError may come from a second copy of graphql (tests alias it), so the name is checked too.
        if (!valid)
          setResult(
            withoutUnnamedUuidErrors(
              (result as readonly Error[]).map((e) =>
                // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
                e instanceof GraphQLError || e.name === 'GraphQLError' ? withoutHints(e as GraphQLError) : e,
              ),
            ),
          );
      };
    },
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (!('errors' in result) || !result.errors?.length) return;
          const errors = result.errors as readonly GraphQLError[];
          setResult({ ...result, errors: errors.map((e) => withRequestCode(withoutHints(e))) });
        },
      };
    },
  };
}
