import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  getOperationAST,
  GraphQLError,
  OperationTypeNode,
  type DocumentNode,
  type ExecutionResult,
  type ExecutionArgs,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { isAsyncIterable } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import { bearerToken, type Principal } from '../../kernel/auth/principal.js';
import { API_KEY_PREFIX } from '../../modules/tenants/index.js';
import { DomainError } from '../../kernel/errors.js';
import { authenticators } from '../http/auth.js';
import { causeOf } from './error-cause.js';
import type { RateLimit } from '../http/rate-limit.js';
import { BODY_LIMIT_BYTES } from '../http/limits.js';
import { GRAPHQL_PATH, type ServerContext, type Yoga } from './yoga.js';

// GraphQL over WebSocket (the graphql-ws protocol) on the GraphQL endpoint's path
// (docs/subscriptions.md): the upgrade is taken from the HTTP server fastify listens with, and every
// operation runs through yoga's envelop (parse, validation and its limits, @requiresScopes, error
// masking), as yoga's graphql-ws recipe does. The credential arrives once, in connection_init's
// payload: {authorization: "Bearer <key or token>"}.

/** graphql-ws close codes used here besides the protocol's own. */
export const WS_CLOSE = { unauthorized: 4401, shuttingDown: 1001 } as const;

/** How long after a revoked credential's `error` messages its socket closes: they go out first. */
const CLOSE_AFTER_REVOKED_MS = 100;

/**
 * An operation's errors as sent: graphql-ws wraps an error thrown by a running subscription in a
 * GraphQLError with the bare message; an expected one (a DomainError, e.g. the credential was
 * revoked) is told with its code and reason, anything else is masked.
 */
function sentErrors(errors: readonly GraphQLError[]): { formatted: GraphQLFormattedError[]; revoked: boolean } {
  let revoked = false;
  const formatted = errors.map((error): GraphQLFormattedError => {
    const inner = error.originalError ?? (error as { cause?: unknown }).cause;
    const cause = inner instanceof DomainError ? inner : causeOf(inner);
    if (cause instanceof DomainError) {
      if (cause.code === 'credential_revoked') revoked = true;
      return { message: cause.message, extensions: { code: cause.kind, reason: cause.code } };
    }
    if (inner && !(inner instanceof GraphQLError))
      return { message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    const { extensions, ...rest } = error.toJSON();
    const { http: _http, unexpected: _unexpected, ...visible } = extensions ?? {};
    return Object.keys(visible).length ? { ...rest, extensions: visible } : rest;
  });
  return { formatted, revoked };
}

/**
 * A subscription that did not subscribe (refused: a missing scope, too many open, an error of its
 * subscribe resolver) answers with one result and no stream: over graphql-ws that is the
 * operation's `error` message (docs/subscriptions.md), not a `next`. Its errors are sent as the
 * client sees them: message, path, locations and the public extensions (code, reason), never the
 * `http` or `unexpected` ones that only steer the HTTP answer.
 */
function refusalErrors(result: ExecutionResult): GraphQLError[] {
  return (result.errors ?? []).map((error) => {
    const { http: _http, unexpected: _unexpected, ...visible } = error.extensions;
    return new GraphQLError(error.message, {
      ...(error.path ? { path: error.path } : {}),
      extensions: Object.keys(visible).length ? visible : undefined,
    });
  });
}

/** What this server keeps beside graphql-ws's own socket and request: the connection's credential and principal. */
type Extra = { principal: Principal; token: string };

/** What yoga.getEnveloped hands back, as used here (envelop types it loosely). */
interface Enveloped {
  schema: GraphQLSchema;
  execute: (args: ExecutionArgs) => unknown;
  subscribe: (args: ExecutionArgs) => unknown;
  contextFactory: () => unknown;
  parse: (source: string) => DocumentNode;
  validate: (schema: GraphQLSchema, document: DocumentNode) => readonly GraphQLError[];
}

interface RootValue {
  execute: (args: ExecutionArgs) => unknown;
  subscribe: (args: ExecutionArgs) => unknown;
}

/** What the rate limiter and yoga's context read of a request (a WebSocket has no fastify request). */
function requestLike(principal: Principal, request: IncomingMessage, deps: AppDeps): FastifyRequest {
  const ip =
    (deps.env.trustProxy &&
      String(request.headers['x-forwarded-for'] ?? '')
        .split(',')[0]
        ?.trim()) ||
    request.socket.remoteAddress ||
    '';
  return { principal, ip, headers: request.headers, routeOptions: { config: {} } } as unknown as FastifyRequest;
}

function authorizationOf(params: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const value = params?.authorization ?? params?.Authorization;
  return typeof value === 'string' ? value : undefined;
}

export interface GraphQLWebSocket {
  /** Ends every connection (1001) and stops taking new ones. */
  close(): Promise<void>;
}

export function registerGraphQLWebSocket(
  fastify: FastifyInstance,
  deps: AppDeps,
  yoga: Yoga,
  rateLimit: RateLimit,
): GraphQLWebSocket {
  const wss = new WebSocketServer({ noServer: true, maxPayload: BODY_LIMIT_BYTES });
  let closing = false;
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== GRAPHQL_PATH || closing) {
      socket.end(
        `HTTP/1.1 ${closing ? '503 Service Unavailable' : '404 Not Found'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  fastify.server.on('upgrade', onUpgrade);

  const server = useServer<Record<string, unknown>, Extra>(
    {
      onConnect: async (ctx) => {
        const token = bearerToken(authorizationOf(ctx.connectionParams));
        const refuse = (reason: string) => {
          ctx.extra.socket.close(WS_CLOSE.unauthorized, reason);
          return false;
        };
        if (!token) return refuse('Unauthorized: send connectionParams {"authorization": "Bearer <key or token>"}');
        const authenticate = authenticators.apiKey;
        const principal = authenticate
          ? await authenticate(deps, token, ctx.extra.request as unknown as FastifyRequest)
          : null;
        if (!principal)
          return refuse(
            token.startsWith(API_KEY_PREFIX)
              ? 'Unauthorized: the API key is unknown or revoked'
              : 'Unauthorized: the OAuth access token is unknown, expired or revoked',
          );
        ctx.extra.principal = principal;
        ctx.extra.token = token;
        return true;
      },
      onSubscribe: async (ctx, _id, params) => {
        const token = ctx.extra.token;
        if (!ctx.extra.principal || !token)
          return [new GraphQLError('Unauthorized', { extensions: { code: 'UNAUTHENTICATED' } })];
        // Each operation is authenticated again, as each HTTP request is (the same lookup and its
        // cache): a socket whose credential was revoked, or whose scopes changed, since it connected
        // runs nothing more with what the credential held then.
        const principal = await authenticators.apiKey?.(deps, token, ctx.extra.request as unknown as FastifyRequest);
        if (!principal) {
          setTimeout(() => ctx.extra.socket.close(WS_CLOSE.unauthorized, 'credential revoked'), CLOSE_AFTER_REVOKED_MS);
          return [
            new GraphQLError('credential revoked', {
              extensions: { code: 'UNAUTHENTICATED', reason: 'credential_revoked' },
            }),
          ];
        }
        ctx.extra.principal = principal;
        const req = requestLike(principal, ctx.extra.request, deps);
        // Each operation counts against the credential's budget, as each HTTP request does.
        const verdict = await rateLimit.check(req);
        if (!verdict.isAllowed && verdict.isExceeded) {
          const seconds = Math.max(1, Math.ceil(verdict.ttl / 1000));
          return [
            new GraphQLError(`Rate limit of ${verdict.max} requests per minute exceeded; retry in ${seconds} s`, {
              extensions: { code: 'RATE_LIMITED', reason: 'rate_limited' },
            }),
          ];
        }
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          req,
          params,
        } as unknown as ServerContext) as Enveloped;
        let document: DocumentNode;
        try {
          document = parse(params.query);
        } catch (error) {
          return [error instanceof GraphQLError ? error : new GraphQLError('Syntax error')];
        }
        const errors = validate(schema, document);
        if (errors.length) return errors;
        const args: ExecutionArgs = {
          schema,
          document,
          operationName: params.operationName,
          variableValues: params.variables,
          contextValue: await contextFactory(),
        };
        if (getOperationAST(document, params.operationName)?.operation !== OperationTypeNode.SUBSCRIPTION)
          return { ...args, rootValue: { execute, subscribe } satisfies RootValue };
        // A subscription subscribes here, so that a refusal is told as an `error` message (graphql-ws
        // sends what this hook returns as errors that way; a result it subscribed to itself would be a `next`).
        const subscribed = (await subscribe(args)) as AsyncIterable<ExecutionResult> | ExecutionResult;
        if (!isAsyncIterable(subscribed)) {
          const refused = refusalErrors(subscribed);
          if (refused.length) return refused;
        }
        const rootValue: RootValue = { execute, subscribe: () => subscribed };
        return { ...args, rootValue };
      },
      onError: (ctx, _id, _payload, errors) => {
        const { formatted, revoked } = sentErrors(errors);
        // A revoked credential's connection ends too (4401): it must not start anything else.
        if (revoked)
          setTimeout(() => ctx.extra.socket.close(WS_CLOSE.unauthorized, 'credential revoked'), CLOSE_AFTER_REVOKED_MS);
        return formatted;
      },
      execute: (args) => (args.rootValue as RootValue).execute(args) as never,
      subscribe: (args) => (args.rootValue as RootValue).subscribe(args) as never,
    },
    wss,
  );

  return {
    async close() {
      closing = true;
      fastify.server.off('upgrade', onUpgrade);
      for (const client of wss.clients) client.close(WS_CLOSE.shuttingDown, 'Server shutting down');
      await server.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
