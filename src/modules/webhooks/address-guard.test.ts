import { describe, expect, it } from 'vitest';
import { addressRefusal, guardedLookup, hostRefusal, type Resolver } from './address-guard.js';

describe('addressRefusal', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['fd00::1', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::7f00:1', 'IPv4-compatible'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::7f00:1', 'special-purpose'],
    ['2002:7f00:1::', 'special-purpose'],
    ['2130706433', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['192.0.2.10', 'reserved'],
    ['[::1]', 'loopback'],
  ])('refuses %s (%s)', (address, kind) => {
    expect(addressRefusal(address)?.kind).toContain(kind);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
  ])('lets the public address %s through', (address) => {
    expect(addressRefusal(address)).toBeNull();
  });
});

const resolverOf =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('hostRefusal (creation time)', () => {
  const resolver = resolverOf({ 'public.test': ['93.184.216.34'], 'inside.test': ['93.184.216.34', '10.0.0.7'] });

  it.each([
    ['127.0.0.1', '127.0.0.1 is a loopback address'],
    ['[::ffff:7f00:1]', '::ffff:7f00:1 (127.0.0.1) is a loopback address'],
    ['localhost', 'localhost is a loopback name'],
    ['api.localhost', 'api.localhost is a loopback name'],
    ['inside.test', 'inside.test resolves to 10.0.0.7, a private address'],
  ])('refuses %s', async (host, message) => {
    expect(await hostRefusal(host, resolver)).toBe(message);
  });

  it('lets public and not (yet) resolvable names through; delivery checks again', async () => {
    expect(await hostRefusal('public.test', resolver)).toBeNull();
    expect(await hostRefusal('unknown.test', resolver)).toBeNull();
  });
});

describe('guardedLookup (connection time)', () => {
  const lookup = guardedLookup(
    resolverOf({ 'rebind.test': ['127.0.0.1'], 'public.test': ['93.184.216.34', '2606:4700::1'] }),
  );
  const call = (host: string, options: { all?: boolean; family?: number }) =>
    new Promise<{ err: Error | null; address?: unknown; family?: number }>((resolve) =>
      lookup(host, options, (err, address, family) => resolve({ err, address, family })),
    );

  it('fails the connection when the name resolves to a private address', async () => {
    const { err } = await call('rebind.test', { all: true });
    expect(err?.message).toBe(
      'refused: rebind.test resolves to 127.0.0.1, a loopback address; webhook receivers must be public addresses',
    );
  });

  it('answers like dns.lookup for public names, with all or one address', async () => {
    expect((await call('public.test', { all: true })).address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700::1', family: 6 },
    ]);
    expect(await call('public.test', { family: 6 })).toEqual({ err: null, address: '2606:4700::1', family: 6 });
  });
});
