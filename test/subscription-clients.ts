import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

// Test clients of GraphQL subscriptions (docs/subscriptions.md): Server-Sent Events on
// POST /api/v1/graphql, and graphql-ws on the same path. Each keeps what arrived and waits by
// polling with a deadline (nothing is timed).

/** Polls `check` until it returns a value, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Every client opened and not yet closed: a test's afterEach closes what a failed test left open. */
export const openClients = new Set<{ close(): unknown }>();

/** Closes every client still open. */
export async function closeAll(): Promise<void> {
  await Promise.all([...openClients].map((c) => c.close()));
}

export interface Received {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  payload: any;
  at: number;
}

export class SseSubscription {
  readonly received: Received[] = [];
  completed = false;
  private readonly abort = new AbortController();
  status = 0;
  headers = new Headers();
  /** The body when the answer was not an event stream. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;

  private constructor() {}

  /** Opens the subscription; resolves once the server answered (headers, or a whole non-stream answer). */
  static async open(
    baseUrl: string,
    apiKey: string | null,
    query: string,
    variables: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ): Promise<SseSubscription> {
    const s = new SseSubscription();
    openClients.add(s);
    const res = await fetch(`${baseUrl}/api/v1/graphql`, {
      method: 'POST',
      headers: {
        accept: 'text/event-stream',
        'content-type': 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        ...headers,
      },
      body: JSON.stringify({ query, variables }),
      signal: s.abort.signal,
    });
    s.status = res.status;
    s.headers = res.headers;
    if (!res.headers.get('content-type')?.startsWith('text/event-stream') || !res.body) {
      const text = await res.text();
      s.body = text ? JSON.parse(text) : undefined;
      s.completed = true;
      return s;
    }
    void s.read(res.body);
    return s;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          const event = lines
            .find((l) => l.startsWith('event:'))
            ?.slice(6)
            .trim();
          const data = lines
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join('\n');
          if (event === 'next' && data) this.received.push({ payload: JSON.parse(data), at: Date.now() });
          if (event === 'complete') this.completed = true;
        }
      }
    } catch {
      // aborted by close()
    }
    this.completed = true;
  }

  /** The first received payload (after `skip`) matching `match`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  next(match: (payload: any) => boolean = () => true, timeoutMs = 30_000): Promise<Received> {
    return eventually(() => this.received.find((r) => match(r.payload)), timeoutMs, 'a subscription message');
  }

  close(): void {
    openClients.delete(this);
    this.abort.abort();
  }
}

export class WsSubscription {
  readonly received: Received[] = [];
  completed = false;
  error: unknown;
  /** The close event's code and reason, once the socket closed. */
  closed: { code: number; reason: string } | undefined;
  private unsubscribe: () => void = () => undefined;

  private constructor(readonly client: Client) {}

  /** Connects with `connectionParams` and subscribes; the socket's close (refusal) is recorded in `closed`. */
  static open(
    baseUrl: string,
    connectionParams: Record<string, unknown> | undefined,
    query: string,
    variables: Record<string, unknown> = {},
  ): WsSubscription {
    const holder: { s?: WsSubscription } = {};
    const client = createClient({
      url: `${baseUrl.replace(/^http/, 'ws')}/api/v1/graphql`,
      webSocketImpl: WebSocket,
      connectionParams,
      retryAttempts: 0,
      lazy: true,
      on: {
        closed: (event) => {
          const e = event as { code: number; reason: string };
          if (holder.s) holder.s.closed = { code: e.code, reason: e.reason };
        },
      },
    });
    const s = new WsSubscription(client);
    openClients.add(s);
    holder.s = s;
    s.unsubscribe = client.subscribe(
      { query, variables },
      {
        next: (payload) => s.received.push({ payload, at: Date.now() }),
        error: (error) => {
          s.error = error;
          s.completed = true;
        },
        complete: () => {
          s.completed = true;
        },
      },
    );
    return s;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  next(match: (payload: any) => boolean = () => true, timeoutMs = 30_000): Promise<Received> {
    return eventually(() => this.received.find((r) => match(r.payload)), timeoutMs, 'a subscription message');
  }

  async close(): Promise<void> {
    openClients.delete(this);
    this.unsubscribe();
    await this.client.dispose();
  }
}
