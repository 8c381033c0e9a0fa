import DataLoader from 'dataloader';

/** Applies `fn` to a value now, or to a promise's value later (no promise when there is none). */
export function whenReady<T, U>(value: T | Promise<T>, fn: (v: T) => U): U | Promise<U> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}

/**
 * A DataLoader of one row per key that also answers synchronously for rows it already knows
 * (primed by a listing, or loaded earlier in the request): field resolvers over a page of 100
 * bookings then return plain values instead of 100 promises.
 */
export class RowLoader<K, R> extends DataLoader<K, R | undefined> {
  private readonly known = new Map<K, R>();

  constructor(fetch: (keys: readonly K[]) => Promise<R[]>, keyOf: (row: R) => K) {
    super(async (keys) => {
      const rows = await fetch(keys);
      const byKey = new Map(rows.map((r) => [keyOf(r), r]));
      return keys.map((k) => byKey.get(k));
    });
  }

  override prime(key: K, value: R | undefined | PromiseLike<R | undefined> | Error): this {
    if (value !== undefined && !(value instanceof Error) && typeof (value as PromiseLike<R>).then !== 'function')
      this.known.set(key, value as R);
    return super.prime(key, value);
  }

  /** The row now when known, else a promise of it. */
  get(key: K): R | undefined | Promise<R | undefined> {
    if (this.known.has(key)) return this.known.get(key);
    return this.load(key).then((row) => {
      if (row !== undefined) this.known.set(key, row);
      return row;
    });
  }
}

/** A DataLoader of one row per key, from one batched query. */
export function rowLoader<K, R>(fetch: (keys: readonly K[]) => Promise<R[]>, keyOf: (row: R) => K): RowLoader<K, R> {
  return new RowLoader(fetch, keyOf);
}

/** A DataLoader of many rows per key (in the order fetch returns them), from one batched query. */
export function groupLoader<K, R>(
  fetch: (keys: readonly K[]) => Promise<R[]>,
  keyOf: (row: R) => K,
): DataLoader<K, R[]> {
  return new DataLoader(async (keys) => {
    const rows = await fetch(keys);
    const groups = new Map<K, R[]>();
    for (const row of rows) {
      const key = keyOf(row);
      const group = groups.get(key);
      if (group) group.push(row);
      else groups.set(key, [row]);
    }
    return keys.map((k) => groups.get(k) ?? []);
  });
}
