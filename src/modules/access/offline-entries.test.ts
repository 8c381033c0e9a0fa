import { describe, expect, it } from 'vitest';
import { offlineRejection, type ReportContext, type ReportedDecision } from './offline-entries.js';

const DOOR = 'door-1';
const ctx: ReportContext = {
  doors: new Map([[DOOR, new Set(['object-1'])]]),
  tokens: new Map([
    [
      'current',
      {
        validFrom: new Date('2026-11-23T10:00:00Z'),
        validUntil: new Date('2026-11-23T11:00:00Z'),
        objectId: 'object-1',
      },
    ],
    [
      'other-object',
      {
        validFrom: new Date('2026-11-23T10:00:00Z'),
        validUntil: new Date('2026-11-23T11:00:00Z'),
        objectId: 'object-2',
      },
    ],
    ['revoked-legacy', { validFrom: null, validUntil: new Date('2026-11-23T11:00:00Z'), objectId: null }],
  ]),
  now: new Date('2026-11-23T12:00:00Z'),
  clockSkewSeconds: 30,
};
const entry = (over: Partial<ReportedDecision>): ReportedDecision => ({
  doorId: DOOR,
  tokenId: 'current',
  decidedAt: new Date('2026-11-23T10:30:00Z'),
  allowed: true,
  ...over,
});

describe('offline entries (#23 finding 3)', () => {
  it.each([
    ['an admission inside the window', entry({}), undefined],
    ['an admission 30 s before the window', entry({ decidedAt: new Date('2026-11-23T09:59:30Z') }), undefined],
    [
      'an admission 31 s before the window',
      entry({ decidedAt: new Date('2026-11-23T09:59:29Z') }),
      'outside_token_validity',
    ],
    ['an admission 30 s after the window', entry({ decidedAt: new Date('2026-11-23T11:00:30Z') }), undefined],
    [
      'an admission 31 s after the window',
      entry({ decidedAt: new Date('2026-11-23T11:00:31Z') }),
      'outside_token_validity',
    ],
    ['an admission in year 1', entry({ decidedAt: new Date('0001-01-01T00:00:00Z') }), 'outside_token_validity'],
    ['a door the device does not drive', entry({ doorId: 'door-2' }), 'door_not_assigned'],
    ['a denial at a door the device does not drive', entry({ doorId: 'door-2', allowed: false }), 'door_not_assigned'],
    [
      '30 s ahead of the server',
      entry({ tokenId: null, allowed: false, decidedAt: new Date('2026-11-23T12:00:30Z') }),
      undefined,
    ],
    [
      '31 s ahead of the server',
      entry({ tokenId: null, allowed: false, decidedAt: new Date('2026-11-23T12:00:31Z') }),
      'decided_in_future',
    ],
    ['an unknown token id', entry({ tokenId: 'forged' }), 'unknown_token'],
    [
      'a denial naming an unknown token id (a forged QR code: kept)',
      entry({ tokenId: 'forged', allowed: false }),
      undefined,
    ],
    ['an admission without a token id', entry({ tokenId: null }), 'token_required'],
    ['an admission at a door not serving the token’s object', entry({ tokenId: 'other-object' }), 'token_not_for_door'],
    [
      'a denial with a token, outside its window',
      entry({ allowed: false, decidedAt: new Date('2026-11-23T08:00:00Z') }),
      undefined,
    ],
    [
      'a revoked token of unknown start, before its end',
      entry({ tokenId: 'revoked-legacy', decidedAt: new Date('2026-11-20T08:00:00Z') }),
      undefined,
    ],
    [
      'a revoked token of unknown start, after its end',
      entry({ tokenId: 'revoked-legacy', decidedAt: new Date('2026-11-23T11:01:00Z') }),
      'outside_token_validity',
    ],
  ] as const)('%s → %s', (_name, e, reason) => {
    expect(offlineRejection(e, ctx)).toBe(reason);
  });
});
