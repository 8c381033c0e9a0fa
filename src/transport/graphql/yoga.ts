import { GraphQLError, type GraphQLSchema } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { useGenericAuth } from '@envelop/generic-auth';
import { markFieldsRefused, useCompiledExecution, type PlannedFields } from './compiled-execution.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import { createContext, type GraphQLContext } from '../../kernel/context.js';
import { DomainError, toGraphQLError } from '../../kernel/errors.js';
import type { Principal } from '../../kernel/auth/principal.js';
import { bearerChallenge, credentialName, insufficientScopeHeaders } from '../../kernel/auth/challenge.js';
import { holdsOneOf } from '../../kernel/auth/scopes.js';
import { armorPlugin } from './armor.js';
import type { PlannedLane } from './planned-lane.js';
import { causeOf, isGraphQLError } from './error-cause.js';
import { inputRulesPlugin, withoutHints } from './input-rules.js';
import { fieldErrorsAreOkPlugin } from './field-errors.js';
import { operationNamePlugin } from './operation-name.js';
import { tracingPlugins } from './tracing.js';
import { subscriptionTransportPlugin } from './subscription-transport.js';
import { sharedSubscriptionEvents } from './shared-events.js';
import { sseFramesPlugin } from './sse-frames.js';

export const GRAPHQL_PATH = '/api/v1/graphql';
export const REST_BASE = '/api/v1';

export interface ServerContext {
  req: FastifyRequest;
  reply: FastifyReply;
}

export type Yoga = YogaServerInstance<ServerContext, GraphQLContext>;

/** The scope of a publishable key's fields (src/kernel/auth/scopes.ts). */
const PUBLISHABLE_SCOPE = 'booking_page';
const namesScope = (sets: readonly (readonly string[])[] | undefined, scope: string) =>
  sets?.some((set) => set.includes(scope)) ?? false;

const hasExtensions = (e: GraphQLError) => Object.keys(e.extensions ?? {}).length > 0;

function maskError(deps: AppDeps) {
  return (error: unknown): Error => {
    const original = causeOf(error);
    if (original instanceof DomainError) {
      const mapped = toGraphQLError(original);
      return new GraphQLError(mapped.message, {
        nodes: isGraphQLError(error) ? error.nodes : undefined,
        path: isGraphQLError(error) ? error.path : undefined,
        extensions: mapped.extensions,
      });
    }
    // Request errors (parse, validation, variable coercion) carry no resolver path: they are safe to
    // show. The outer message names the variable ('Variable "$status" got invalid value …'); the
    // cause is shown instead only when it alone carries extensions (e.g. an auth error's status).
    if (isGraphQLError(error) && (!original || isGraphQLError(original) || !error.path)) {
      return withoutHints(
        isGraphQLError(original) && !hasExtensions(error) && hasExtensions(original) ? original : error,
      );
    }
    deps.log.error({ err: original }, 'unexpected error in a resolver');
    return new GraphQLError('Unexpected error.', {
      path: isGraphQLError(error) ? error.path : undefined,
      extensions: { code: 'INTERNAL_SERVER_ERROR', http: { status: 500 } },
    });
  };
}

/** Marks the request's document as cut by the auth validation and keeps the refusal (see compiled-execution.ts). */
function refused(context: unknown, error: GraphQLError): GraphQLError {
  markFieldsRefused(context, error);
  return error;
}

export function createGraphQLServer(
  deps: AppDeps,
  schema: GraphQLSchema,
  plannedFields: PlannedFields = {},
  lane?: PlannedLane,
): Yoga {
  return createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    batching: false,
    // yoga's own CORS echoes any Origin with credentials; CORS is fastify's (src/transport/http/cors.ts).
    cors: false,
    graphiql: false,
    landingPage: false,
    logging: false,
    maskedErrors: { maskError: maskError(deps) },
    context: ({ req }) =>
      createContext(
        deps,
        (req as FastifyRequest & { principal?: Principal | null }).principal ?? null,
        (req as FastifyRequest | undefined)?.ip ?? null,
      ),
    plugins: [
      armorPlugin(),
      inputRulesPlugin(),
      fieldErrorsAreOkPlugin(GRAPHQL_PATH),
      operationNamePlugin(),
      // Before the auth plugin: it keys compiled operations on the parsed document (see there).
      useCompiledExecution(
        plannedFields,
        lane && ((context, document, planned) => lane.learn(context, document, planned)),
      ),
      // Also before it, for the same reason: one execution per live message and selection.
      sharedSubscriptionEvents(),
      useGenericAuth<Principal, GraphQLContext>({
        mode: 'protect-granular',
        // A field the key may not read is removed and answered null with its error at its path; the
        // fields it may read are answered (field-errors.ts: 200 with partial data, 403 when nothing was permitted).
        rejectUnauthenticated: false,
        resolveUserFn: (ctx) => ctx.principal,
        extractScopes: (principal) => (principal.kind === 'apiKey' ? principal.scopes : []),
        validateUser: ({
          user,
          fieldScopes,
          typeScopes,
          fieldAuthArgs,
          typeAuthArgs,
          userScopes,
          fieldNode,
          path,
          executionArgs,
        }) => {
          const needsAuth = fieldScopes || typeScopes || fieldAuthArgs || typeAuthArgs;
          if (!needsAuth) return;
          if (!user || user.kind !== 'apiKey') {
            return refused(
              executionArgs.contextValue,
              new GraphQLError('A valid API key or OAuth access token is required', {
                nodes: [fieldNode],
                path,
                extensions: {
                  code: 'UNAUTHENTICATED',
                  reason: 'unauthenticated',
                  http: { status: 401, headers: { 'WWW-Authenticate': bearerChallenge() } },
                },
              }),
            );
          }
          // A publishable key (svc_pk_…) sits in browsers: it may use only the fields made for it,
          // those whose @requiresScopes names booking_page; never an @authenticated field (viewer).
          if (user.publishable && (fieldScopes || fieldAuthArgs) && !namesScope(fieldScopes, PUBLISHABLE_SCOPE)) {
            return refused(
              executionArgs.contextValue,
              new GraphQLError(
                `A publishable key may only use the booking page's public fields, not ${path.filter((p) => p !== '@').join('.') || fieldNode.name.value}`,
                {
                  nodes: [fieldNode],
                  path,
                  extensions: {
                    code: 'FORBIDDEN',
                    reason: 'missing_scope',
                    http: { status: 403, headers: insufficientScopeHeaders(user, fieldScopes ?? [['admin']]) },
                  },
                },
              ),
            );
          }
          for (const required of [typeScopes, fieldScopes]) {
            if (required && !holdsOneOf(userScopes, required)) {
              const names = required.map((set) => set.join(' + ')).join(' or ');
              return refused(
                executionArgs.contextValue,
                new GraphQLError(
                  `This ${credentialName(user)} lacks the scope ${names} needed for ${path.filter((p) => p !== '@').join('.') || fieldNode.name.value}`,
                  {
                    nodes: [fieldNode],
                    path,
                    extensions: {
                      code: 'FORBIDDEN',
                      reason: 'missing_scope',
                      http: { status: 403, headers: insufficientScopeHeaders(user, required) },
                    },
                  },
                ),
              );
            }
          }
          return undefined;
        },
      }),
      ...tracingPlugins(deps.tracing),
      // A subscription's frames: one chunk each, serialised once for the subscribers sharing a result;
      // a refusal on the event stream too. Before subscriptionTransportPlugin: a refusal stops the
      // later plugins' onSubscribe, and this one must still see that the request was a subscription's.
      sseFramesPlugin(),
      // After the auth plugin: a subscription whose one root field it refused is answered with the refusal.
      subscriptionTransportPlugin(),
    ],
  });
}
