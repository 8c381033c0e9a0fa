import { describe, expect, it } from 'vitest';
import { sharedRead } from './shared-read.js';

describe('sharedRead', () => {
  it('reads once per message object and name; another message or name reads again', async () => {
    let reads = 0;
    const read = () => Promise.resolve(++reads);
    const message = { id: 'e1' };
    const first = await Promise.all([1, 2, 3].map(() => sharedRead(message, 'booking', read)));
    expect(first).toEqual([1, 1, 1]);
    expect(await sharedRead(message, 'device', read)).toBe(2);
    expect(await sharedRead({ id: 'e1' }, 'booking', read)).toBe(3);
  });

  it('a failed read fails every caller of that message', async () => {
    const message = {};
    const failing = () => Promise.reject(new Error('gone'));
    await expect(sharedRead(message, 'booking', failing)).rejects.toThrow('gone');
    await expect(sharedRead(message, 'booking', () => Promise.resolve(1))).rejects.toThrow('gone');
  });
});
