import type { ExecutionResult, GraphQLError, GraphQLFormattedError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { DomainError, toGraphQLError } from '../../kernel/errors.js';
import { causeOf } from './error-cause.js';

// A subscription's Server-Sent Events, written as yoga's own SSE processor writes them (a ping
// comment first and every PING_MS, `event: next` per result, `event: complete` at the end), with
// two differences: each result is one chunk (yoga enqueues its two lines separately, two writes),
// and a result object is serialised once however many streams send it — the subscribers that share
// one execution (shared-events.ts) share one frame.

/** A comment line this often keeps idle connections (and the proxies between) open, as yoga does. */
const PING_MS = 12_000;
const encoder = new TextEncoder();
const PING = encoder.encode(':\n\n');
const COMPLETE = encoder.encode('event: complete\ndata:\n\n');
const HEADERS = {
  'Content-Type': 'text/event-stream',
  Connection: 'keep-alive',
  'Cache-Control': 'no-cache',
  'Content-Encoding': 'none',
};

/** An error as the client sees it: without the `http` and `unexpected` extensions that only steer the server. */
function publicError(error: GraphQLError): GraphQLFormattedError {
  const { extensions, ...formatted } = error.toJSON();
  const { http: _http, unexpected: _unexpected, ...visible } = extensions ?? {};
  return Object.keys(visible).length ? { ...formatted, extensions: visible } : formatted;
}

/** A result as the client sees it (what yoga's SSE processor writes). */
export function visibleResult(result: ExecutionResult): ExecutionResult | Record<string, unknown> {
  if (!result.errors?.length && !result.extensions?.http) return result;
  const visible: Record<string, unknown> = { ...result };
  if (result.errors) visible.errors = result.errors.map(publicError);
  if (result.extensions) {
    const { http: _http, ...extensions } = result.extensions;
    visible.extensions = Object.keys(extensions).length ? extensions : undefined;
  }
  return visible;
}

const frames = new WeakMap<object, Uint8Array>();

/** The `event: next` frame of a result, made once per result object. */
export function frameOf(result: ExecutionResult): Uint8Array {
  let frame = frames.get(result);
  if (!frame) {
    frame = encoder.encode(`event: next\ndata: ${JSON.stringify(visibleResult(result))}\n\n`);
    frames.set(result, frame);
  }
  return frame;
}

type FetchAPI = { ReadableStream: typeof ReadableStream; Response: typeof Response };

/** The event stream of a subscription's results. */
export function eventStream(results: AsyncIterable<ExecutionResult>, fetchAPI: FetchAPI): Response {
  const iterator = results[Symbol.asyncIterator]();
  let ping: ReturnType<typeof setInterval> | undefined;
  const body = new fetchAPI.ReadableStream<Uint8Array>({
    start(controller) {
      // Some browsers hold a response back until its first bytes: a comment goes out at once.
      controller.enqueue(PING);
      ping = setInterval(() => {
        if (controller.desiredSize === null) clearInterval(ping);
        else if (controller.desiredSize > 0) controller.enqueue(PING);
      }, PING_MS);
    },
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.value != null) controller.enqueue(frameOf(next.value as ExecutionResult));
        if (next.done) {
          controller.enqueue(COMPLETE);
          clearInterval(ping);
          controller.close();
        }
      } catch (error) {
        clearInterval(ping);
        // An expected end (the credential was revoked or lost the scope: docs/subscriptions.md) is
        // told as a last result with its error, then `complete`; anything else only breaks the stream.
        const cause = error instanceof DomainError ? error : causeOf(error);
        if (!(cause instanceof DomainError)) {
          controller.error(error);
          return;
        }
        controller.enqueue(frameOf({ errors: [toGraphQLError(cause)] }));
        controller.enqueue(COMPLETE);
        controller.close();
      }
    },
    async cancel() {
      clearInterval(ping);
      await iterator.return?.();
    },
  });
  return new fetchAPI.Response(body, { status: 200, headers: HEADERS });
}

/** One result as a stream: a refused subscription's answer on an event stream. */
async function* once(result: ExecutionResult): AsyncIterable<ExecutionResult> {
  yield result;
}

/**
 * Writes subscriptions' event streams with eventStream instead of yoga's SSE processor. A request
 * is a subscription's when it reached onSubscribe. A subscription refused once it was understood
 * (a missing scope, too many open: one result with errors, nothing subscribed) is answered on the
 * event stream the client asked for too, with status 200: one `next` carrying the errors (code,
 * reason, message; no `http` extension), then `complete`. An SSE client (graphql-sse, urql's and
 * Apollo's SSE links) takes any other status as a network failure and shows only "403: Forbidden",
 * losing the reason (docs/subscriptions.md). Refusals before GraphQL runs (401 without a
 * credential, 429 over the rate limit) stay HTTP answers.
 */
export function sseFramesPlugin(): Plugin {
  const subscriptions = new WeakSet<Request>();
  return {
    onSubscribe({ args }) {
      const request = (args.contextValue as { request?: Request }).request;
      if (request) subscriptions.add(request);
    },
    onResultProcess(payload) {
      const { request, result } = payload;
      if (!payload.resultProcessor || !subscriptions.has(request)) return;
      if (isAsyncIterable(result)) {
        payload.setResultProcessor(
          (results, fetchAPI) => eventStream(results as AsyncIterable<ExecutionResult>, fetchAPI),
          'text/event-stream',
        );
        return;
      }
      const single = Array.isArray(result) ? undefined : result;
      if (!single?.errors?.length || !(request.headers.get('accept') ?? '').includes('text/event-stream')) return;
      payload.setResultProcessor((_, fetchAPI) => eventStream(once(single), fetchAPI), 'text/event-stream');
    },
  };
}
