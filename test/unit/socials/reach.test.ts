/**
 * Where sources may be fetched from (behaviour §13), as pure functions: the
 * class of each address, and the check of a URL with a resolver that is a
 * table (no network at all: nothing here opens a connection or asks DNS).
 */
import { describe, expect, it } from 'vitest';
import { type Address, type Resolver, SourceRefused, addressClass, checkTarget, parseAllowedHosts } from '#functions/socials/reach/client.js';

/** Address, and what keeps it from being fetched (null: public unicast, fetched). */
const ADDRESS_TABLE: [string, string | null][] = [
  ['93.184.215.14', null],
  ['8.8.8.8', null],
  ['1.1.1.1', null],
  ['2606:4700:4700::1111', null],
  ['2a00:1450:4001:80b::200e', null],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['::1', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.5.4', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'link-local'],
  ['fe80::1', 'link-local'],
  ['100.64.0.1', 'shared (100.64.0.0/10)'],
  ['100.127.255.254', 'shared (100.64.0.0/10)'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['::', 'unspecified'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['ff02::1', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['2001:db8::1', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['2001:2::1', 'benchmarking'],
  ['fec0::1', 'site-local'],
  ['4000::1', 'reserved'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:10.1.2.3', 'IPv4-mapped private'],
  ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
  ['::ffff:8.8.8.8', null],
  ['::7f00:1', 'IPv4-compatible loopback'],
  ['::a00:1', 'IPv4-compatible private'],
  // ipaddr.js reads the dotted ::a.b.c.d as the mapped form; refused all the same.
  ['::127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:0:127.0.0.1', 'IPv4-translated loopback'],
  ['::ffff:0:192.168.0.1', 'IPv4-translated private'],
  ['64:ff9b::127.0.0.1', 'NAT64 loopback'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 link-local'],
  ['64:ff9b::8.8.8.8', null],
  ['2002:7f00:1::1', '6to4 loopback'],
  ['2002:a00:1::1', '6to4 private'],
  ['2002:808:808::1', null],
  // Teredo: the client's IPv4 address is the last 32 bits, inverted (127.0.0.1 -> 80ff:fffe).
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo loopback'],
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', null],
  ['example.org', 'not an IP address'],
];

describe('the class of an address', () => {
  it.each(ADDRESS_TABLE)('%s is %s', (address, expected) => {
    expect(addressClass(address)).toBe(expected);
  });

  it('reads an IPv6 address in brackets as URLs write it', () => {
    expect(addressClass('[::1]')).toBe('loopback');
    expect(addressClass('[2606:4700:4700::1111]')).toBeNull();
  });
});

/** A resolver answering from a table; a name it does not know does not resolve. */
const resolverOf =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address): Address => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const NAMES = resolverOf({
  'public.example': ['93.184.215.14', '2606:4700:4700::1111'],
  'inside.example': ['10.0.0.5'],
  'mixed.example': ['93.184.215.14', '127.0.0.1'],
  'mapped.example': ['::ffff:169.254.169.254'],
  'metadata.example': ['169.254.169.254'],
  'empty.example': [],
  'lab.internal': ['10.9.8.7'],
});

async function refusal(url: string, allowed: string[] = []): Promise<SourceRefused> {
  const error = await checkTarget(new URL(url), NAMES, new Set(allowed)).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof SourceRefused)) throw new Error(`${url} was not refused`);
  return error;
}

describe('the check of a source URL', () => {
  it('lets through http and https on 80 and 443 whose every address is public, answering the checked addresses', async () => {
    for (const url of ['http://public.example/feed', 'https://public.example:443/feed', 'http://public.example:80/', 'HTTPS://PUBLIC.EXAMPLE/x']) {
      const target = await checkTarget(new URL(url), NAMES, new Set());
      expect(target.addresses.map((a) => a.address)).toEqual(['93.184.215.14', '2606:4700:4700::1111']);
    }
    expect((await checkTarget(new URL('http://93.184.215.14/feed'), NAMES, new Set())).addresses).toEqual([]);
    expect((await checkTarget(new URL('http://[2606:4700:4700::1111]/feed'), NAMES, new Set())).addresses).toEqual([]);
  });

  it('names the rule a URL breaks', async () => {
    const cases: [string, string, RegExp][] = [
      ['ftp://public.example/feed', 'scheme', /scheme is 'ftp'; a source must be http or https/],
      ['file:///etc/passwd', 'scheme', /scheme is 'file'/],
      ['http://public.example:8080/feed', 'port', /port 8080; a source must be on port 80 or 443/],
      ['https://public.example:22/', 'port', /port 22/],
      ['http://inside.example/', 'address', /resolves to a private address/],
      ['http://mixed.example/', 'address', /resolves to a loopback address/],
      ['http://mapped.example/', 'address', /IPv4-mapped link-local/],
      ['http://metadata.example/latest/meta-data/', 'address', /link-local/],
      ['http://127.0.0.1/', 'address', /is a loopback address/],
      ['http://[::1]/', 'address', /is a loopback address/],
      ['http://[::ffff:7f00:1]/', 'address', /IPv4-mapped loopback/],
      ['http://169.254.169.254/', 'address', /link-local/],
      ['http://0.0.0.0/', 'address', /unspecified/],
      ['http://2130706433/', 'address', /loopback/],
      ['http://0x7f.1/', 'address', /loopback/],
      ['http://nowhere.example/', 'unresolvable', /nowhere.example does not resolve/],
      ['http://empty.example/', 'unresolvable', /does not resolve/],
    ];
    for (const [url, rule, message] of cases) {
      const error = await refusal(url);
      expect(error.rule, url).toBe(rule);
      expect(error.message, url).toMatch(message);
      // The message names a class, never an address the name resolved to.
      expect(error.message, url).not.toMatch(/10\.0\.0\.5|169\.254\.169\.254.*resolves/);
    }
  });

  it('lets a host:port SOURCE_ALLOWED_HOSTS names through whatever its address or port, and only that port', async () => {
    const allowed = ['lab.internal:8443', '127.0.0.1:4000', '[::1]:80'];
    expect((await checkTarget(new URL('https://lab.internal:8443/feed'), NAMES, new Set(allowed))).addresses).toEqual([{ address: '10.9.8.7', family: 4 }]);
    expect((await checkTarget(new URL('http://127.0.0.1:4000/feed'), NAMES, new Set(allowed))).addresses).toEqual([]);
    expect((await checkTarget(new URL('http://[::1]/feed'), NAMES, new Set(allowed))).addresses).toEqual([]);
    expect((await refusal('https://lab.internal/feed', allowed)).rule).toBe('address');
    expect((await refusal('http://127.0.0.1:4001/feed', allowed)).rule).toBe('port');
    expect((await refusal('ftp://127.0.0.1:4000/feed', allowed)).rule).toBe('scheme');
  });

  it('parses SOURCE_ALLOWED_HOSTS and names an entry that is not host:port', () => {
    expect([...parseAllowedHosts(' Lab.Internal:8443, 127.0.0.1:4000 ,[::1]:80,')]).toEqual(['lab.internal:8443', '127.0.0.1:4000', '[::1]:80']);
    expect([...parseAllowedHosts(undefined)]).toEqual([]);
    for (const bad of [
      'lab.internal',
      'http://lab.internal:80',
      'lab.internal:80/feed',
      'user@lab.internal:80',
      '::1:80',
      'lab.internal:99999',
      'lab.internal:0',
    ]) {
      expect(() => parseAllowedHosts(bad), bad).toThrow(/SOURCE_ALLOWED_HOSTS: .* is not host:port/);
    }
  });
});
