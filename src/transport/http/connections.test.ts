import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { connectionLimits, descriptorLimit, DESCRIPTOR_RESERVE, enforceConnectionLimits } from './connections.js';
import { pgliteMaxFiles } from '../../kernel/descriptors.js';

describe('connectionLimits', () => {
  const configured = { maxConnections: 10_000, maxConnectionsPerAddress: 1_000 };
  it.each([
    ['unknown limit: as configured', undefined, 10_000, 1_000, false],
    ['a limit with room: as configured', 65_536, 10_000, 1_000, false],
    ['ulimit -n 512: lowered to 512 - reserve', 512, 512 - DESCRIPTOR_RESERVE, 384, true],
    ['ulimit -n 100: never below 16', 100, 16, 16, true],
  ])('%s', (_name, limit, max, perAddress, lowered) => {
    const result = connectionLimits(configured, limit);
    expect(result.maxConnections).toBe(max);
    expect(result.maxConnectionsPerAddress).toBe(Math.min(perAddress, max));
    expect(result.lowered !== undefined).toBe(lowered);
  });
});

describe('descriptorLimit', () => {
  it.each([
    ['Max open files            512                  4096                 files\n', 512],
    ['Max open files            unlimited            unlimited            files\n', undefined],
    ['nothing here', undefined],
  ])('%j', (text, expected) => expect(descriptorLimit(text)).toBe(expected));
});

describe('enforceConnectionLimits', () => {
  it('a failed accept (EMFILE) is logged, not thrown: the process keeps running', () => {
    const server = createServer();
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    enforceConnectionLimits(server, { maxConnections: 10, maxConnectionsPerAddress: 10 }, log);
    const error = Object.assign(new Error('accept EMFILE'), { code: 'EMFILE', syscall: 'accept' });
    expect(() => server.emit('error', error)).not.toThrow();
    expect(lines.join('')).toContain('connection refused: accept failed');
  });
});

describe('pgliteMaxFiles', () => {
  it.each([
    [undefined, 1000],
    [1_048_576, 1000],
    [4096, 512],
    [1024, 128],
    [512, 64],
    [64, 64],
  ])('ulimit -n %s → max_files_per_process %i', (limit, expected) => expect(pgliteMaxFiles(limit)).toBe(expected));
});
