import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { createSchema, createYoga } from 'graphql-yoga';
import type { GraphQLContext } from '../../kernel/context.js';
import { LiveHub } from '../../kernel/live/hub.js';
import { liveStream } from '../../kernel/live/live.js';
import { loopback } from '../../kernel/live/loopback.test-support.js';
import { SubscriptionSlots } from '../../kernel/live/slots.js';
import { StreamGuard } from '../../kernel/live/guard.js';
import { sharedSubscriptionEvents } from './shared-events.js';
import { sseFramesPlugin } from './sse-frames.js';

// Subscribers of one live message that asked the same thing get one execution and one frame;
// different variables, documents, tenants or scopes are executed apart.

function server(hub: LiveHub) {
  let executions = 0;
  const deps = {
    live: {
      hub,
      slots: new SubscriptionSlots(100),
      guard: new StreamGuard(async (ps) => ps.map((p) => ({ scopes: p.scopes })), pino({ level: 'silent' }), 60_000),
    },
    log: pino({ level: 'silent' }),
    createLoaders: () => ({}),
  };
  const yoga = createYoga({
    schema: createSchema<GraphQLContext>({
      typeDefs: /* GraphQL */ `
        type Query {
          ok: Boolean
        }
        type Change {
          n: Int
          times: Int
          executions: Int
        }
        type Subscription {
          changed(times: Int!): Change
        }
      `,
      resolvers: {
        Subscription: {
          changed: {
            subscribe: (_: unknown, a: { times: number }, ctx: GraphQLContext) =>
              liveStream(ctx, 'access', (data) => ({ n: data.n as number, times: a.times })),
            resolve: (value: unknown) => value,
          },
        },
        Change: {
          times: (value: { n: number; times: number }) => value.n * value.times,
          executions: () => ++executions,
        },
      },
    }),
    logging: false,
    context: ({ request }) =>
      ({
        deps,
        db: {},
        principal: {
          kind: 'apiKey',
          keyId: request.headers.get('x-key') ?? 'k',
          tenantId: request.headers.get('x-tenant') ?? 't1',
          scopes: (request.headers.get('x-scopes') ?? 'bookings:read').split(' '),
          rateLimitPerMinute: null,
        },
      }) as unknown as GraphQLContext,
    plugins: [sharedSubscriptionEvents(), sseFramesPlugin()],
  });
  return { yoga, executions: () => executions };
}

/** Opens an SSE subscription and returns a reader of its `data:` frames. */
async function subscribe(yoga: ReturnType<typeof server>['yoga'], query: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const response = await yoga.fetch('http://localhost/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query, variables: { times: 2 } }),
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  if (!response.body) throw new Error('no event stream');
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return {
    async next(): Promise<unknown> {
      for (;;) {
        const frame = /data: (.*)\n\n/.exec(buffered);
        if (frame?.[1] !== undefined) {
          buffered = buffered.slice(frame.index + frame[0].length);
          return JSON.parse(frame[1]);
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffered += decoder.decode(value, { stream: true });
      }
    },
    async close() {
      await reader.cancel();
      abort.abort();
    },
  };
}

const QUERY = 'subscription ($times: Int!) { changed(times: $times) { n times executions } }';

describe('shared subscription events', () => {
  it('executes a message once for subscribers asking the same, apart for any difference', async () => {
    const hub = new LiveHub(loopback(), pino({ level: 'silent' }));
    const { yoga, executions } = server(hub);
    const same = await Promise.all([1, 2, 3].map(() => subscribe(yoga, QUERY, { 'x-key': String(Math.random()) })));
    const others = await Promise.all([
      subscribe(yoga, 'subscription { changed(times: 3) { n times executions } }'),
      subscribe(yoga, `${QUERY} # another document`),
      subscribe(yoga, QUERY, { 'x-scopes': 'bookings:read devices:read' }),
      subscribe(yoga, QUERY, { 'x-tenant': 't2' }),
    ]);
    // yoga answers once the subscription listens: every one of them hears both messages.
    hub.publish({ topic: 'access', tenantId: 't1', data: { n: 5 } });
    hub.publish({ topic: 'access', tenantId: 't2', data: { n: 7 } });

    const sameFrames = await Promise.all(same.map((s) => s.next()));
    expect(new Set(sameFrames.map((f) => JSON.stringify(f))).size).toBe(1);
    expect(sameFrames[0]).toMatchObject({ data: { changed: { n: 5, times: 10 } } });
    const otherFrames = (await Promise.all(others.map((s) => s.next()))) as {
      data: { changed: { n: number; times: number } };
    }[];
    expect(otherFrames.map((f) => [f.data.changed.n, f.data.changed.times])).toEqual([
      [5, 15],
      [5, 10],
      [5, 10],
      [7, 14],
    ]);
    // One execution for the three alike, one each for the four that differ.
    expect(executions()).toBe(5);

    // A later message is executed afresh.
    hub.publish({ topic: 'access', tenantId: 't1', data: { n: 6 } });
    const later = (await Promise.all(same.map((s) => s.next()))) as {
      data: { changed: { n: number; times: number } };
    }[];
    expect(later.map((f) => [f.data.changed.n, f.data.changed.times])).toEqual(Array(3).fill([6, 12]));
    // The three alike once more, and the three other subscribers of t1 once each.
    await expect.poll(executions).toBe(9);

    for (const s of [...same, ...others]) await s.close();
    await hub.close();
  });
});
