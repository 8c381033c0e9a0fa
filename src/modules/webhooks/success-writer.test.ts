import { describe, expect, it } from 'vitest';
import type { AttemptRecord } from './deliveries.repository.js';
import { MAX_GROUP, SuccessWriter } from './success-writer.js';

const attempt = (n: number): AttemptRecord => ({
  tenantId: 't',
  deliveryId: `d-${n}`,
  attemptedAt: new Date(0),
  statusCode: 204,
  durationMs: 1,
  error: null,
});

/** A recorder whose statements are held until released, noting each group. */
function heldRecorder() {
  const groups: string[][] = [];
  const releases: ((error?: Error) => void)[] = [];
  const record = (attempts: AttemptRecord[]) => {
    groups.push(attempts.map((a) => a.deliveryId));
    return new Promise<void>((resolve, reject) => releases.push((error) => (error ? reject(error) : resolve())));
  };
  /** Ends the i-th statement, with an error or not. */
  const release = (i: number, error?: Error) => {
    const end = releases[i];
    if (!end) throw new Error(`statement ${i} was not written`);
    end(error);
  };
  return { groups, release, record };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('SuccessWriter', () => {
  it('writes the first success at once, and those ending while it is written as one group', async () => {
    const r = heldRecorder();
    const writer = new SuccessWriter(r.record);
    const first = writer.write(attempt(1));
    const rest = [2, 3, 4].map((n) => writer.write(attempt(n)));
    await turn();
    expect(r.groups).toEqual([['d-1']]);
    r.release(0);
    await first;
    await turn();
    expect(r.groups).toEqual([['d-1'], ['d-2', 'd-3', 'd-4']]);
    r.release(1);
    await Promise.all(rest);
    // Idle again: the next success is written on its own, at once.
    const later = writer.write(attempt(5));
    await turn();
    expect(r.groups.at(-1)).toEqual(['d-5']);
    r.release(2);
    await later;
  });

  it(`writes at most ${MAX_GROUP} in one statement`, async () => {
    const r = heldRecorder();
    const writer = new SuccessWriter(r.record);
    const all = Array.from({ length: MAX_GROUP + 2 }, (_, n) => writer.write(attempt(n)));
    for (let i = 0; i < 3; i += 1) {
      await turn();
      r.release(i);
    }
    await Promise.all(all);
    expect(r.groups.map((g) => g.length)).toEqual([1, MAX_GROUP, 1]);
  });

  it('fails only the group whose statement failed', async () => {
    const r = heldRecorder();
    const writer = new SuccessWriter(r.record);
    const first = writer.write(attempt(1));
    const second = [writer.write(attempt(2)), writer.write(attempt(3))];
    await turn();
    r.release(0, new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await turn();
    r.release(1);
    await expect(Promise.all(second)).resolves.toEqual([undefined, undefined]);
  });
});
