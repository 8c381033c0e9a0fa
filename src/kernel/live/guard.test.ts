import { describe, expect, it } from 'vitest';
import pino from 'pino';
import type { ApiKeyPrincipal } from '../auth/principal.js';
import { StreamGuard, type CredentialState } from './guard.js';
import { CREDENTIAL_NOTICE, LiveHub } from './hub.js';
import { loopback } from './loopback.test-support.js';

const log = pino({ level: 'silent' });
const key = (keyId: string, tenantId: string): ApiKeyPrincipal => ({
  kind: 'apiKey',
  keyId,
  tenantId,
  scopes: ['bookings:read'],
  rateLimitPerMinute: null,
});

/** A guard over a table of credential states; records which keys each check read. */
function guardOver(states: Map<string, CredentialState>, reads: string[][], gate?: Promise<void>) {
  return new StreamGuard(
    async (principals) => {
      reads.push(principals.map((p) => p.keyId));
      const snapshot = principals.map((p) => states.get(p.keyId) ?? null);
      await gate;
      return snapshot;
    },
    log,
    60_000,
  );
}

describe('StreamGuard.nudge (a credential notice)', () => {
  it('re-checks only the notice’s tenant; `*` re-checks every tenant', async () => {
    const states = new Map<string, CredentialState>([
      ['a', { scopes: ['bookings:read'] }],
      ['b', { scopes: ['bookings:read'] }],
    ]);
    const reads: string[][] = [];
    const guard = guardOver(states, reads);
    const ended: string[] = [];
    guard.watch(key('a', 't1'), ['bookings:read'], () => ended.push('a'));
    guard.watch(key('b', 't2'), ['bookings:read'], () => ended.push('b'));
    states.set('a', null);
    states.set('b', null);
    await guard.nudge('t1');
    expect(reads).toEqual([['a']]);
    expect(ended).toEqual(['a']);
    await guard.nudge('*');
    expect(reads.at(-1)).toEqual(['a', 'b']);
    expect(ended).toEqual(['a', 'a', 'b']);
    guard.close();
  });

  it('a notice during a check that read before the change is checked again after it; notices meanwhile share one check', async () => {
    const states = new Map<string, CredentialState>([['a', { scopes: ['bookings:read'] }]]);
    const reads: string[][] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const guard = guardOver(states, reads, gate);
    const ended: unknown[] = [];
    guard.watch(key('a', 't1'), ['bookings:read'], (error) => ended.push(error.code));
    const periodic = guard.revalidate(); // reads the key as it was
    states.set('a', { scopes: [] }); // then the change commits, and its notices arrive
    const first = guard.nudge('t1');
    const second = guard.nudge('t1');
    open();
    await periodic;
    expect(ended).toEqual([]);
    await Promise.all([first, second]);
    expect(reads).toEqual([['a'], ['a']]);
    expect(ended).toEqual(['missing_scope']);
    guard.close();
  });

  it('does nothing without open streams', async () => {
    const reads: string[][] = [];
    await guardOver(new Map(), reads).nudge('*');
    expect(reads).toEqual([]);
  });
});

describe('LiveHub credential notices', () => {
  it('go to the notice listeners of every listening hub, never to a subscriber', async () => {
    const transport = loopback();
    const hub = new LiveHub(transport, log);
    const notices: string[] = [];
    hub.onCredentialNotice((tenantId) => notices.push(tenantId));
    const stream = await hub.subscribe('t1', 'event');
    hub.publish({ topic: CREDENTIAL_NOTICE, tenantId: 't1', data: {} });
    hub.publish({ topic: 'event', tenantId: 't1', data: { n: 1 } });
    expect(await stream.next()).toEqual({ value: { n: 1 }, done: false });
    expect(notices).toEqual(['t1']);
    await hub.close();
  });
});
