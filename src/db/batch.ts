import DataLoader from 'dataloader';

/** A DataLoader of one row per key, from one batched query. */
export function rowLoader<K, R>(fetch: (keys: readonly K[]) => Promise<R[]>, keyOf: (row: R) => K): DataLoader<K, R | undefined> {
  return new DataLoader(async (keys) => {
    const rows = await fetch(keys);
    const byKey = new Map(rows.map((r) => [keyOf(r), r]));
    return keys.map((k) => byKey.get(k));
  });
}

/** A DataLoader of many rows per key (in the order fetch returns them), from one batched query. */
export function groupLoader<K, R>(fetch: (keys: readonly K[]) => Promise<R[]>, keyOf: (row: R) => K): DataLoader<K, R[]> {
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
