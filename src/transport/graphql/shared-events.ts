import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { isAsyncIterable, mapAsyncIterator, type Plugin } from 'graphql-yoga';
import type { GraphQLContext } from '../../kernel/context.js';
import { liveMessageOf } from '../../kernel/live/index.js';

type Result = ExecutionResult | Promise<ExecutionResult>;

/** Results per live message, by what was asked (see shareKey); they go when the message does. */
const results = new WeakMap<object, Map<string, Result>>();
const documentIds = new WeakMap<DocumentNode, number>();
let nextDocumentId = 0;

/**
 * What makes two subscribers' answers to one message equal: the parsed document (yoga's parser
 * cache hands one object per query text), the operation, the variables, the tenant and the
 * credential's scopes. Undefined when the caller is not an API key (nothing is shared).
 */
export function shareKey(parsed: DocumentNode, args: ExecutionArgs): string | undefined {
  const principal = (args.contextValue as GraphQLContext | undefined)?.principal;
  if (principal?.kind !== 'apiKey') return undefined;
  let id = documentIds.get(parsed);
  if (id === undefined) documentIds.set(parsed, (id = nextDocumentId++));
  return JSON.stringify([
    id,
    args.operationName ?? null,
    args.variableValues ?? null,
    principal.tenantId,
    [...principal.scopes].sort(),
  ]);
}

/** `run()`'s result for this message and key, run once for every subscriber that shares them. */
function sharedResult(message: object, key: string, run: () => Result): Result {
  let byKey = results.get(message);
  if (!byKey) results.set(message, (byKey = new Map<string, Result>()));
  let result = byKey.get(key);
  if (result === undefined) byKey.set(key, (result = run()));
  return result;
}

/**
 * One execution per live message for all the subscribers that asked the same (docs/performance.md,
 * "Subscriptions fan-out"). graphql-js's subscribe runs the subscription's selection once per
 * subscriber per event; 1,000 subscribers of one change ran it 1,000 times, with the same root
 * value, document and variables. Here each event's root value is traced back to the hub's message
 * it was mapped from (liveMessageOf), and the selection runs once per (message, shareKey): the
 * subscribers get one result object, which the SSE writer serialises once (sse-frames.ts).
 *
 * Runs before the auth plugin to see the parsed document: the auth validation hands execution a
 * copy of it for each request, equal to it whenever the subscription runs at all (a subscription
 * with a refused field is answered with the refusal, and nothing subscribes).
 */
export function sharedSubscriptionEvents(): Plugin {
  return {
    onSubscribe({ args, setSubscribeFn }) {
      const parsed = args.document as DocumentNode;
      setSubscribeFn(async (execArgs: ExecutionArgs) => {
        const source = await createSourceEventStream(execArgs);
        if (!isAsyncIterable(source)) return source;
        const key = shareKey(parsed, execArgs);
        return mapAsyncIterator(source, (payload: unknown) => {
          const run = () => execute({ ...execArgs, rootValue: payload });
          const message = liveMessageOf(payload);
          return message && key !== undefined ? sharedResult(message, key, run) : run();
        });
      });
    },
  };
}
