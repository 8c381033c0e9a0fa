import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, log: createLogger('info', stream) };
}

describe('error logging', () => {
  it('keeps an error’s own fields and drops the live objects a library hung on it (pg-pool’s client holds the password)', () => {
    const { lines, log } = capture();
    const error = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
      severity: 'FATAL',
      client: {
        connectionParameters: { user: 'portier', password: 'hunter2-database-password' },
        password: 'hunter2-database-password',
      },
    });
    log.warn({ err: error }, 'a database connection broke');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '') as { err: Record<string, unknown> };
    expect(line.err).toMatchObject({
      message: 'terminating connection due to administrator command',
      code: '57P01',
      severity: 'FATAL',
    });
    expect(line.err.client).toBeUndefined();
    expect(lines[0]).not.toContain('hunter2');
  });
});
