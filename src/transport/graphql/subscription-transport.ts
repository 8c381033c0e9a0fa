import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { refusalsOf } from './compiled-execution.js';

/**
 * Subscriptions' share of the request checks, run after the auth plugin:
 * - the auth plugin removes a refused field and lets the rest run (partial data); a subscription
 *   has one root field, so when that one is refused the refusal is the answer (401/403), and
 *   nothing subscribes;
 * - a subscription over HTTP needs an event stream to answer on: one asked for without
 * `Accept: text/event-stream` is refused (400) before it takes a slot or listens, with what to
 * send instead. Over graphql-ws there is no HTTP request in the context, and nothing to check.
 */
export function subscriptionTransportPlugin(): Plugin {
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const rootRefusals = refusalsOf(args.contextValue).filter((e) => e.path?.length === 1);
      if (rootRefusals.length) {
        setResultAndStopExecution({ data: null, errors: rootRefusals });
        // The auth plugin adds its refusals to the result as well: each is answered once.
        return {
          onSubscribeResult({ result, setResult }) {
            if (!('errors' in result) || !result.errors) return;
            const once = [...new Set(result.errors)];
            if (once.length !== result.errors.length) setResult({ ...result, errors: once });
          },
        };
      }
      const request = (args.contextValue as { request?: Request }).request;
      if (!request || (request.headers.get('accept') ?? '').includes('text/event-stream')) return undefined;
      setResultAndStopExecution({
        errors: [
          new GraphQLError(
            'subscription operations need Server-Sent Events (send Accept: text/event-stream) or a graphql-ws WebSocket on this path (docs/subscriptions.md)',
            { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } },
          ),
        ],
      });
      return undefined;
    },
  };
}
