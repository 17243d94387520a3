/**
 * Node-only: which addresses a server may fetch images from. An image URL can come from a request's values, so
 * without a policy any key holder could make `labeldesk serve` fetch from the machine itself or the intranet
 * (SSRF). Refused unless allowed: loopback, "this network", private, carrier-grade NAT, link-local,
 * unique-local, site-local, multicast, documentation, benchmarking and reserved ranges, IPv4-mapped and
 * -translated IPv6 forms of those, and 6to4/Teredo (they tunnel to an IPv4 address the check cannot see).
 */
import { BlockList, isIP } from 'node:net';

const DENIED_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
];

const DENIED_V6 = [
  '::/96', // unspecified, loopback, IPv4-compatible (deprecated)
  '64:ff9b::/96', // NAT64 (embeds an IPv4 address)
  '64:ff9b:1::/48',
  '100::/64', // discard
  '2001::/23', // IETF protocol assignments, Teredo included
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4
  'fc00::/7', // unique-local
  'fe80::/10', // link-local
  'fec0::/10', // site-local (deprecated)
  'ff00::/8', // multicast
];

const denied = new BlockList();
for (const cidr of DENIED_V4) addSubnet(denied, cidr);
for (const cidr of DENIED_V6) addSubnet(denied, cidr);

function addSubnet(list: BlockList, cidr: string): void {
  const [address = '', bits] = cidr.split('/');
  const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  list.addSubnet(address, Number(bits ?? (type === 'ipv6' ? 128 : 32)), type);
}

/** `::ffff:a.b.c.d` and `::ffff:hhhh:hhhh` (how URLs write it) → `a.b.c.d`; other addresses unchanged. */
export function unmapIpv4(address: string): string {
  const lower = address.toLowerCase().replace(/^\[|\]$/g, '');
  const dotted = /^(?:0{1,4}:){5}ffff:(\d+\.\d+\.\d+\.\d+)$|^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return (dotted[1] ?? dotted[2]) as string;
  const hex = /^(?:(?:0{1,4}:){5}|::)ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex?.[1] && hex[2]) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return lower;
}

/** Whether `address` (an IP literal) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const ip = unmapIpv4(address);
  const family = isIP(ip);
  if (family === 0) return false;
  return !denied.check(ip, family === 6 ? 'ipv6' : 'ipv4');
}

export class AllowlistError extends Error {
  constructor(entry: string) {
    super(`"${entry}" is neither a host name nor an IP address or CIDR range (like 10.1.2.0/24)`);
    this.name = 'AllowlistError';
  }
}

export interface AddressPolicy {
  /** Whether a connection to `address` (resolved from `host`) may be made. */
  allows(host: string, address: string): boolean;
}

/**
 * Public addresses, plus the `allow` entries: host names (exact, any case: every address they resolve to) and
 * IP addresses or CIDR ranges (`10.1.2.0/24`, `fd00::/8`). Throws AllowlistError for an entry that is neither.
 */
export function addressPolicy(allow: readonly string[] = []): AddressPolicy {
  const hosts = new Set<string>();
  const ranges = new BlockList();
  for (const raw of allow) {
    const entry = raw
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, '');
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    if (family && extra === undefined) {
      const max = family === 6 ? 128 : 32;
      if (bits !== undefined && (!/^\d+$/.test(bits) || Number(bits) > max)) throw new AllowlistError(raw);
      ranges.addSubnet(address, bits === undefined ? max : Number(bits), family === 6 ? 'ipv6' : 'ipv4');
    } else if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/.test(entry)) {
      hosts.add(entry.replace(/\.$/, ''));
    } else {
      throw new AllowlistError(raw);
    }
  }
  return {
    allows(host, address) {
      if (isPublicAddress(address)) return true;
      if (
        hosts.has(
          host
            .toLowerCase()
            .replace(/^\[|\]$/g, '')
            .replace(/\.$/, ''),
        )
      )
        return true;
      const ip = unmapIpv4(address);
      const family = isIP(ip);
      return family !== 0 && ranges.check(ip, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}
