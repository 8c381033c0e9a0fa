import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

// The SSRF guard: webhook receivers must be public unicast addresses. It is applied when a
// subscription is created (to the URL's host and what it resolves to) and again on every delivery,
// to the address actually connected to (a lookup hook on the HTTP agent), so a name that resolves
// differently later (DNS rebinding) is still refused.

/** Words for ipaddr.js range names in messages. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  linkLocal: 'a link-local',
  loopback: 'a loopback',
  carrierGradeNat: 'a carrier-grade NAT',
  private: 'a private',
  uniqueLocal: 'a unique-local',
  reserved: 'a reserved',
  ipv4Compatible: 'an IPv4-compatible',
};

/** A refused address: its canonical spelling and what kind of address it is. */
export interface Refusal {
  address: string;
  kind: string;
}

/**
 * Why `address` (an IP literal, any spelling ipaddr.js accepts) may not receive webhooks, or
 * null when it is a public unicast address. Deny by default: only ipaddr.js's `unicast` range
 * passes, after IPv4-mapped IPv6 is reduced to IPv4. Addresses that embed an IPv4 address
 * (IPv4-compatible ::a.b.c.d, NAT64, 6to4, Teredo) are refused with it.
 */
export function addressRefusal(address: string): Refusal | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return { address, kind: 'not an IP address' };
  }
  let range: string = parsed.range();
  if (
    parsed.kind() === 'ipv6' &&
    range === 'unicast' &&
    (parsed as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)
  ) {
    range = 'ipv4Compatible';
  }
  if (range === 'unicast') return null;
  return { address: parsed.toString(), kind: `${RANGE_WORDS[range] ?? `a special-purpose (${range})`} address` };
}

/** "127.0.0.1 is a loopback address" or "localhost resolves to ::1, a loopback address". */
export function describeRefusal(host: string, refusal: Refusal): string {
  return host === refusal.address
    ? `${host} is ${refusal.kind}`
    : `${host} resolves to ${refusal.address}, ${refusal.kind}`;
}

/** Why an IP literal host may not receive webhooks: "::ffff:7f00:1 (127.0.0.1) is a loopback address". */
export function literalRefusal(host: string): string | null {
  const refusal = addressRefusal(host);
  if (!refusal) return null;
  return `${host}${refusal.address === host ? '' : ` (${refusal.address})`} is ${refusal.kind}`;
}

export const isIpLiteral = (host: string): boolean => ipaddr.isValid(host.replace(/^\[|\]$/g, ''));

/** Resolves a host name to every address it has (dns.lookup by default; tests inject their own). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A connection refused by the guard; its message is safe to show to the tenant. */
export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';
  constructor(reason: string) {
    super(`refused: ${reason}; webhook receivers must be public addresses`);
    this.name = 'BlockedAddressError';
  }
}

/** `localhost` and its subdomains are loopback by definition (RFC 6761), whatever DNS says. */
export const isLocalhostName = (host: string): boolean => /(^|\.)localhost\.?$/i.test(host);

/**
 * A `lookup` for http(s) Agents: resolves with `resolver` and fails the connection when any
 * resolved address is not public. Node calls it for host names only; IP literals are checked by
 * the sender before connecting.
 */
export function guardedLookup(resolver: Resolver = systemResolver): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    const done = callback as (
      err: NodeJS.ErrnoException | null,
      address?: string | LookupAddress[],
      family?: number,
    ) => void;
    resolver(hostname).then(
      (resolved) => {
        const addresses = options.family ? resolved.filter((a) => a.family === options.family) : resolved;
        for (const a of resolved) {
          const refusal = addressRefusal(a.address);
          if (refusal) return done(new BlockedAddressError(describeRefusal(hostname, refusal)));
        }
        if (isLocalhostName(hostname)) return done(new BlockedAddressError(`${hostname} is a loopback name`));
        const [first] = addresses;
        if (first === undefined) {
          return done(
            Object.assign(new Error(`${hostname} has no address of the requested family`), { code: 'ENOTFOUND' }),
          );
        }
        if (options.all) return done(null, addresses);
        return done(null, first.address, first.family);
      },
      (error: unknown) => done(error as NodeJS.ErrnoException),
    );
  };
}

/**
 * The creation-time check of a receiver's host: an IP literal must be public; a name must not be
 * localhost, and every address it resolves to now must be public. A name that does not resolve
 * (yet) is let through: the check repeats on every delivery.
 */
export async function hostRefusal(host: string, resolver: Resolver = systemResolver): Promise<string | null> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIpLiteral(bare)) return literalRefusal(bare);
  if (isLocalhostName(bare)) return `${bare} is a loopback name`;
  let resolved: LookupAddress[];
  try {
    resolved = await resolver(bare);
  } catch {
    return null;
  }
  for (const a of resolved) {
    const refusal = addressRefusal(a.address);
    if (refusal) return describeRefusal(bare, refusal);
  }
  return null;
}
