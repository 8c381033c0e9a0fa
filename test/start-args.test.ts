import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { START_ARGS } from './start-args.js';

// `npm start`'s heap settings (docs/performance.md, "Round six" and "Round ten"): the old generation
// is capped, and so the young generation must be sized too. Left to V8, Node.js 24 reserves a young
// generation so large beside a 192 MB cap that it runs a full mark-compact every ~150 ms (heartbeat
// 9.2 ms of CPU per request against 1.2 ms with 16 MB semi-spaces). The cap is 512 MB since round
// ten: every slow burst of the door was a mark-compact; on the embedded database they came every
// 3–6 s under 192 MB (69 MB of it live at rest) and about every 10 s under 512 MB. Round twelve:
// the old generation may grow to twice what the last mark-compact left before the next one
// (`--heap-growing-percent=100`; V8 chose ~1.4× itself), so the door at 667 + 667/s meets a
// mark-compact every ~19 s instead of every ~5 s.
describe('npm start’s V8 heap settings', () => {
  const flag = (name: string) => START_ARGS.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];

  it('caps the old generation and sizes the young generation with it', () => {
    expect(flag('max-old-space-size')).toBe('512');
    expect(flag('max-semi-space-size')).toBe('16');
  });

  it('lets the old generation double between mark-compacts, a flag this Node.js accepts', () => {
    expect(flag('heap-growing-percent')).toBe('100');
    const gcFlags = START_ARGS.filter((a) => a.startsWith('--max-') || a.startsWith('--heap-'));
    // An unknown flag ends node with "bad option" (exit code 9) before the script runs.
    const out = execFileSync(process.execPath, [...gcFlags, '-e', 'process.stdout.write("started")'], {
      encoding: 'utf8',
    });
    expect(out).toBe('started');
  });

  it('bound the heap on this Node.js: the old-generation cap plus three 16 MB semi-spaces', () => {
    const heapFlags = START_ARGS.filter((a) => a.startsWith('--max-'));
    const out = execFileSync(
      process.execPath,
      [...heapFlags, '-e', 'process.stdout.write(String(require("v8").getHeapStatistics().heap_size_limit))'],
      { encoding: 'utf8' },
    );
    // The limit is the old generation's cap plus the young generation's (three semi-spaces): 560 MB
    // with 16 MB semi-spaces on Node.js 20, 22 and 24; more on Node.js 24 without the flag.
    const limitMb = Number(out) / 2 ** 20;
    expect(limitMb).toBeGreaterThanOrEqual(512);
    expect(limitMb).toBeLessThan(512 + 3 * 16 + 16);
  });
});
