import type { GraphQLContext } from '../context.js';
import { requireApiKey, tenantOf } from '../auth/principal.js';
import { DomainError } from '../errors.js';
import { CREDENTIAL_NOTICE, type LiveFilter, type LiveHub, type LiveTopic } from './hub.js';
import type { SubscriptionSlots } from './slots.js';
import type { StreamGuard } from './guard.js';

/** The process's live updates: the hub, the per-credential cap and the credentials' re-checks (built once by composeDeps). */
export interface Live {
  hub: LiveHub;
  slots: SubscriptionSlots;
  guard: StreamGuard;
}

/**
 * A subscription resolver's source: the caller's tenant's messages of `topic` that `filter`
 * accepts (the hub skips the others before they are queued; see LiveFilter), each mapped by `map`
 * (undefined: skipped, e.g. filtered out by the subscription's arguments). Takes one of the
 * credential's slots for as long as it is open. Not an async generator: a generator waiting for
 * the next message cannot be returned before that message comes, and a client that disconnects must free its slot and its
 * listener at once. Each message is mapped with fresh loaders: a subscription's context lives for
 * hours, and a loader's cache would answer from the first message's reads.
 */
export async function liveStream<T>(
  ctx: GraphQLContext,
  topic: LiveTopic,
  map: (data: Record<string, unknown>, tenantId: string) => Promise<T | undefined> | T | undefined,
  filter?: LiveFilter,
  needs: readonly string[] = [],
): Promise<AsyncIterableIterator<T>> {
  const tenantId = tenantOf(ctx.principal);
  const principal = requireApiKey(ctx.principal);
  // A credential another process revoked (or cut) is refused at once, not after the next check.
  const refusal = ctx.deps.live.guard.refusal(principal, needs);
  if (refusal) throw refusal;
  const holder = ctx.principal?.kind === 'apiKey' ? ctx.principal.keyId : `tenant:${tenantId}`;
  const release = ctx.deps.live.slots.take(holder);
  let stream;
  try {
    stream = await ctx.deps.live.hub.subscribe(tenantId, topic, filter);
  } catch (error) {
    release();
    throw error;
  }
  const open = stream;
  let finished = false;
  /** Why the credential stopped authorising this stream: the next next() throws it (the transports' last word). */
  let ended: Error | undefined;
  const unwatch = ctx.deps.live.guard.watch(principal, needs, (error) => {
    ended = error;
    void open.return();
  });
  const finish = async (): Promise<IteratorResult<T>> => {
    if (!finished) {
      finished = true;
      unwatch();
      release();
      await open.return();
    }
    return { value: undefined, done: true };
  };
  const iterator: AsyncIterableIterator<T> = {
    async next() {
      for (;;) {
        const message = await open.next();
        if (ended) {
          const error = ended;
          ended = undefined;
          await finish();
          throw error;
        }
        if (message.done) return finish();
        ctx.loaders = loadersFor(message.value, ctx);
        try {
          const value = await map(message.value, tenantId);
          if (value !== undefined) {
            if (typeof value === 'object' && value !== null) sources.set(value, message.value);
            return { value, done: false };
          }
        } catch (error) {
          // The thing changed is gone meanwhile (deleted, another tenant's): skip the message.
          if (!(error instanceof DomainError))
            ctx.deps.log.warn({ err: error, topic }, 'a live message could not be answered');
        }
      }
    },
    return: finish,
    async throw(error: unknown) {
      await finish();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/**
 * Tells every process that a credential of `tenantId` ('*': of an unknown tenant) was revoked,
 * signed out or narrowed: their open streams' credentials are re-checked at once (StreamGuard.nudge)
 * instead of within LIVE_REVALIDATE_MS. Call it after the change committed. Fire-and-forget, like
 * every publish: a lost notice leaves the periodic re-check.
 */
export function announceCredentialChange(live: Live, tenantId: string): void {
  live.hub.publish({ topic: CREDENTIAL_NOTICE, tenantId, data: {} });
}

/** The message each mapped value came from (see liveMessageOf). */
const sources = new WeakMap<object, object>();

/**
 * The hub's message a subscription value was mapped from, or undefined for a value that did not
 * come from liveStream. Two subscribers with the same message, the same document and variables
 * and the same tenant were handed equal values: the GraphQL transport executes their selection
 * once for all of them (src/transport/graphql/shared-events.ts).
 */
export function liveMessageOf(value: unknown): object | undefined {
  return typeof value === 'object' && value !== null ? sources.get(value) : undefined;
}

/** Loaders made for a message, by the message object and the database handle. */
const messageLoaders = new WeakMap<object, Map<GraphQLContext['db'], GraphQLContext['loaders']>>();

/**
 * Fresh loaders for one message, shared by every subscriber mapping that message object: the hub
 * hands one object to all of a tenant's subscribers of a topic in this process, and loaders depend
 * on the database handle alone (never on who asks; fields are authorised by the auth plugin). So
 * 1,000 subscribers of a tenant make one set of loaders per change, not 1,000, and what they load
 * is batched into one query. The object is the key: the loaders go when the message does.
 */
function loadersFor(message: object, ctx: GraphQLContext): GraphQLContext['loaders'] {
  let byDb = messageLoaders.get(message);
  if (!byDb) messageLoaders.set(message, (byDb = new Map<GraphQLContext['db'], GraphQLContext['loaders']>()));
  let loaders = byDb.get(ctx.db);
  if (!loaders) byDb.set(ctx.db, (loaders = ctx.deps.createLoaders(ctx.db)));
  return loaders;
}

declare module '../deps.js' {
  interface Collaborators {
    /** GraphQL subscriptions' live updates (src/kernel/live): the hub, the per-credential cap and the credentials' re-checks. */
    live: Live;
  }
}
