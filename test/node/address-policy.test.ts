/** Which addresses labeldesk serve may fetch images from (src/node/address-policy.ts). */
import { describe, expect, test } from 'vitest';
import { addressPolicy, isPublicAddress, unmapIpv4 } from '../../src/node/address-policy';

describe('isPublicAddress', () => {
  test.each([
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.1.2.3',
    '100.64.0.1',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '192.0.2.10',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:10.0.0.1',
    '::7f00:1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    '2001:0:4136:e378::1',
    'fd00::1',
    'fe80::1',
    'fec0::1',
    'ff02::1',
    'not an address',
  ])('%s is refused', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  test.each(['8.8.8.8', '172.32.0.1', '100.128.0.1', '::ffff:8.8.8.8', '2606:4700::1111'])(
    '%s is public',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  test('IPv4-mapped forms unmap to the IPv4 address', () => {
    expect(unmapIpv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(unmapIpv4('[::FFFF:10.0.0.1]')).toBe('10.0.0.1');
    expect(unmapIpv4('2606:4700::1111')).toBe('2606:4700::1111');
  });
});

describe('addressPolicy', () => {
  test('allows public addresses, listed ranges and listed host names (any case, trailing dot)', () => {
    const policy = addressPolicy(['10.1.2.0/24', 'Logos.Intranet', 'fd00::/8']);
    expect(policy.allows('cdn.example', '8.8.8.8')).toBe(true);
    expect(policy.allows('x', '10.1.2.9')).toBe(true);
    expect(policy.allows('x', '::ffff:10.1.2.9')).toBe(true);
    expect(policy.allows('x', '10.1.3.9')).toBe(false);
    expect(policy.allows('logos.intranet.', '192.168.0.5')).toBe(true);
    expect(policy.allows('other.intranet', '192.168.0.5')).toBe(false);
    expect(policy.allows('x', 'fd12::1')).toBe(true);
    expect(policy.allows('x', '127.0.0.1')).toBe(false);
  });

  test('an entry that is neither a host nor an address or range is refused', () => {
    for (const entry of ['http://logos/', '10.0.0.0/33', '10.0.0.0/8/1', 'bad_host!']) {
      expect(() => addressPolicy([entry])).toThrow(
        `"${entry}" is neither a host name nor an IP address or CIDR range (like 10.1.2.0/24)`,
      );
    }
  });
});
