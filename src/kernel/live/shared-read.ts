// One read per live message, however many subscribers map it. The hub hands the same message
// object to every subscriber of its tenant and topic in this process, so a read keyed by that
// object (and what is read) runs once: 1,000 subscribers of one tenant cost one query per
// change, not 1,000 (docs/performance.md, "Subscriptions fan-out"). The object is the key, so the
// memo goes when the message does; a failed read fails every subscriber alike.

const reads = new WeakMap<object, Map<string, Promise<unknown>>>();

/** `read()`'s promise, shared by every caller with the same `message` object and `what`. */
export function sharedRead<T>(message: object, what: string, read: () => Promise<T>): Promise<T> {
  let byWhat = reads.get(message);
  if (!byWhat) reads.set(message, (byWhat = new Map<string, Promise<unknown>>()));
  let pending = byWhat.get(what) as Promise<T> | undefined;
  if (!pending) byWhat.set(what, (pending = read()));
  return pending;
}
