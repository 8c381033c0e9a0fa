import { useEffect, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { GRAPHQL_URL, csrfHeaders } from './client';

// Live updates for the signed-in dashboard (docs/dashboard-ui.md#live-updates): one `bookingChanged`
// subscription over Server-Sent Events (docs/subscriptions.md, "For the dashboard"). Each message
// re-runs the pages' booking queries rather than patching caches: the calendar's slots, the
// Overview's counts and the list's filters all follow from the server's answer, not from ours.

/** Only the event id: what changed is read again through the pages' own queries. */
const SUBSCRIPTION = 'subscription DashboardLive { bookingChanged { eventId } }';

/**
 * The react-query keys a booking change makes stale: the calendar (bookings and free slots), the
 * bookings list, a booking's page and the Overview's "today" lists (all under `['bookings']`).
 */
export const LIVE_KEYS = [['calendar'], ['bookings']] as const;

/** A stream open this long was healthy: when it ends, the next try starts from the shortest wait. */
const STEADY_MS = 10_000;

/** 'connecting' before the first stream opened, 'live' while one is open, 'reconnecting' between tries. */
export type LiveState = 'connecting' | 'live' | 'reconnecting';

/** How long to wait before try `attempt` (0-based) after a failed or ended stream: 1 s doubling to 30 s, ±20 %. */
export function retryDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1_000 * 2 ** Math.min(attempt, 5));
  return Math.round(base * (0.8 + 0.4 * random()));
}

export interface SseEvent {
  event: string;
  data: string;
}

/**
 * The whole events at the start of `buffer` (each ends with a blank line) and what is left after
 * them. Comment lines (":" — the server's keep-alive pings) are skipped; `data:` lines are joined.
 */
export function takeEvents(buffer: string): { events: SseEvent[]; rest: string } {
  const text = buffer.replace(/\r\n?/g, '\n');
  const events: SseEvent[] = [];
  let start = 0;
  let end: number;
  while ((end = text.indexOf('\n\n', start)) >= 0) {
    let event = 'message';
    const data: string[] = [];
    for (const line of text.slice(start, end).split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0 || event !== 'message') events.push({ event, data: data.join('\n') });
    start = end + 2;
  }
  return { events, rest: text.slice(start) };
}

/** Marks the booking queries stale; the pages on screen fetch again, the others when next shown. */
function refresh(queryClient: QueryClient): void {
  for (const queryKey of LIVE_KEYS) void queryClient.invalidateQueries({ queryKey: [...queryKey] });
}

/** Reads one stream until it ends; calls `onChange` for each `next` message. */
async function readStream(body: ReadableStream<Uint8Array>, onChange: () => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const { events, rest } = takeEvents(buffer + decoder.decode(value, { stream: true }));
    buffer = rest;
    for (const { event, data } of events) {
      // An error (the session lost its scope, the server shutting down) ends the stream: try again later.
      if (event === 'complete') return;
      if (event === 'next' && !data.includes('"errors"')) onChange();
    }
  }
}

/**
 * Keeps one `bookingChanged` subscription open while `enabled` (a session with bookings:read), and
 * refreshes the booking queries on each message — and after each reconnect, for what was missed.
 * Returns the connection's state for the status line.
 */
export function useLiveBookings(enabled: boolean): LiveState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');

  useEffect(() => {
    if (!enabled) return undefined;
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A burst of changes (an import, a batch of cancellations) refreshes once.
    const changed = () => {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        refresh(queryClient);
      }, 200);
    };

    const run = async () => {
      let attempt = 0;
      // Whether a stream failed or ended: the pages' data may be older than the next stream.
      let failed = false;
      while (!abort.signal.aborted) {
        try {
          const response = await fetch(GRAPHQL_URL, {
            method: 'POST',
            credentials: 'same-origin',
            headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...csrfHeaders() },
            body: JSON.stringify({ query: SUBSCRIPTION }),
            signal: abort.signal,
          });
          if (response.ok && response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) {
            setState('live');
            // Changes made while no stream was open were not sent: read the pages again.
            if (failed) changed();
            const openedAt = Date.now();
            await readStream(response.body, changed);
            // A stream that ended at once (refused inside GraphQL) keeps backing off; a long one starts over.
            if (Date.now() - openedAt > STEADY_MS) attempt = 0;
          } else {
            await response.body?.cancel();
          }
        } catch {
          // The network or the server went away (or this hook unmounted): wait, then try again.
        }
        if (abort.signal.aborted) return;
        failed = true;
        setState('reconnecting');
        await new Promise<void>((resolve) => {
          const stop = () => {
            clearTimeout(wait);
            resolve();
          };
          const wait = setTimeout(() => {
            abort.signal.removeEventListener('abort', stop);
            resolve();
          }, retryDelay(attempt++));
          abort.signal.addEventListener('abort', stop, { once: true });
        });
      }
    };
    void run();
    return () => {
      abort.abort();
      if (timer !== undefined) clearTimeout(timer);
      setState('connecting');
    };
  }, [enabled, queryClient]);

  return state;
}
