import type { LiveMessage, LiveTransport } from './hub.js';

// For the live tests: a transport that loops publishes back, as Redis and NOTIFY do to the
// publishing process too.

export function loopback(): LiveTransport & { listening: number } {
  const listeners = new Set<(m: LiveMessage) => void>();
  return {
    name: 'redis',
    get listening() {
      return listeners.size;
    },
    publish(messages) {
      for (const m of messages) for (const l of listeners) l(m);
      return Promise.resolve();
    },
    listen(onMessage) {
      listeners.add(onMessage);
      return Promise.resolve(() => {
        listeners.delete(onMessage);
        return Promise.resolve();
      });
    },
  };
}
