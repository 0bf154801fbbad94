/**
 * Where a source may be fetched from (behaviour §13, "Sources never reach
 * inside a network"): http or https, port 80 or 443, and a host whose every
 * address is public unicast, unless `SOURCE_ALLOWED_HOSTS` names its
 * `host:port`. The check answers the addresses it checked, and the request
 * connects to those (a `lookup` of its own on the connection), so nothing
 * resolves the name a second time between the check and the connection.
 * Every redirect, at most 5, is checked the same way.
 *
 * One signal bounds the whole read (behaviour §13, "Sources answer in
 * time"): the lookup, each connection and redirect, the headers, the body
 * and its decompression. The body runs through `stream.pipeline`, so a
 * socket that closes mid-body, a compressed body that stops arriving, or the
 * signal's end destroys every stream of the read and rejects it.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type http from 'node:http';
import { createRequire } from 'node:module';
import type { LookupFunction } from 'node:net';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import ipaddr from 'ipaddr.js';

export const MAX_REDIRECTS = 5;
const PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The rule a refused URL broke, as its 422 and the poll's log name it. */
export type ReachRule = 'scheme' | 'port' | 'address' | 'unresolvable' | 'redirects';

/** A URL the service will not fetch; `message` says which rule and what is allowed (no address, no answer of the host). */
export class SourceRefused extends Error {
  constructor(
    readonly rule: ReachRule,
    message: string,
  ) {
    super(message);
    this.name = 'SourceRefused';
  }
}

// ---- addresses --------------------------------------------------------------------

/** Names of ipaddr.js ranges as behaviour §13 says them: these, and the ones ipaddr.js names alike; any other range is reserved. */
const CLASS_NAMES: Record<string, string> = {
  linkLocal: 'link-local',
  carrierGradeNat: 'shared (100.64.0.0/10)',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
};
const SAME_NAMES = new Set(['unspecified', 'broadcast', 'multicast', 'loopback', 'private', 'benchmarking']);
const className = (range: string) => CLASS_NAMES[range] ?? (SAME_NAMES.has(range) ? range : 'reserved');

/** Ranges ipaddr.js counts as `reserved` that behaviour §13 names apart. */
const DOCUMENTATION = ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32'].map((cidr) => ipaddr.parseCIDR(cidr));
const BENCHMARKING_V4 = ipaddr.parseCIDR('198.18.0.0/15');
/** Public IPv6 unicast is allocated from 2000::/3 only. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

const v4FromBits = (high: number, low: number) => new ipaddr.IPv4([(high >> 8) & 255, high & 255, (low >> 8) & 255, low & 255]);

/** The IPv4 address an IPv6 form carries (mapped, compatible, translated, NAT64, 6to4, Teredo), or null. */
function embeddedIPv4(address: ipaddr.IPv6): { form: string; v4: ipaddr.IPv4 } | null {
  const p = address.parts;
  switch (address.range()) {
    case 'ipv4Mapped':
      return { form: 'IPv4-mapped', v4: address.toIPv4Address() };
    case 'rfc6145':
      return { form: 'IPv4-translated', v4: v4FromBits(p[6]!, p[7]!) };
    case 'rfc6052':
      return { form: 'NAT64', v4: v4FromBits(p[6]!, p[7]!) };
    case '6to4':
      return { form: '6to4', v4: v4FromBits(p[1]!, p[2]!) };
    case 'teredo':
      // The client's address, inverted in the last 32 bits.
      return { form: 'Teredo', v4: v4FromBits(~p[6]! & 0xffff, ~p[7]! & 0xffff) };
    default:
      // ::a.b.c.d, the deprecated IPv4-compatible form (not :: and ::1, which are classes of their own).
      if (p.slice(0, 6).every((part) => part === 0) && (p[6] !== 0 || p[7]! > 1)) return { form: 'IPv4-compatible', v4: v4FromBits(p[6]!, p[7]!) };
      return null;
  }
}

function classOfV4(address: ipaddr.IPv4): string | null {
  if (DOCUMENTATION.some((cidr) => cidr[0].kind() === 'ipv4' && address.match(cidr))) return 'documentation';
  if (address.match(BENCHMARKING_V4)) return 'benchmarking';
  const range = address.range();
  return range === 'unicast' ? null : className(range);
}

/**
 * What keeps an address from being fetched: its class (`loopback`,
 * `private`, `IPv4-mapped loopback` ...), or null for public unicast. A text
 * that is not an address is `not an IP address`.
 */
export function addressClass(text: string): string | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(bare)) return 'not an IP address';
  const address = ipaddr.parse(bare);
  if (address.kind() === 'ipv4') return classOfV4(address as ipaddr.IPv4);
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded) {
    const inner = classOfV4(embedded.v4);
    return inner === null ? null : `${embedded.form} ${inner}`;
  }
  if (DOCUMENTATION.some((cidr) => cidr[0].kind() === 'ipv6' && v6.match(cidr))) return 'documentation';
  const range = v6.range();
  if (range !== 'unicast') return className(range);
  return v6.match(GLOBAL_UNICAST_V6) ? null : 'reserved';
}

// ---- hosts ------------------------------------------------------------------------

/** `host:port` as `SOURCE_ALLOWED_HOSTS` names it (an IPv6 host in brackets), lower-cased. */
export const hostPort = (url: URL) => `${url.hostname}:${url.port || PORTS[url.protocol] || ''}`.toLowerCase();

/** Parses `SOURCE_ALLOWED_HOSTS` (comma-separated `host:port`); throws naming the entry that is not one. */
export function parseAllowedHosts(text: string | undefined): Set<string> {
  const hosts = new Set<string>();
  for (const entry of (text ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const parts = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry);
    const port = Number(parts?.[2]);
    let hostname: string | null = null;
    try {
      // The host as URLs spell it (lower case, IPv6 shortened), so it compares with a URL's.
      if (parts && port >= 1 && port <= 65535) hostname = new URL(`http://${parts[1]}/`).hostname;
    } catch {
      hostname = null;
    }
    if (!hostname) throw new Error(`SOURCE_ALLOWED_HOSTS: '${entry}' is not host:port (a host name or IP address, an IPv6 one in brackets, and a port number)`);
    hosts.add(`${hostname}:${port}`);
  }
  return hosts;
}

/**
 * The hosts let through whatever their address (read each call, as handlers
 * read their configuration). The deployment writes the list
 * {@link parseAllowedHosts} checked and spelled (infra/config.ts), local mode
 * its sandbox's `hostPort`, so here it is only split.
 */
export const allowedHosts = () =>
  new Set(
    (process.env.SOURCE_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean),
  );

export interface Address {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to. */
export type Resolver = (host: string) => Promise<Address[]>;

export const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** A URL that may be fetched, and the addresses to connect to (checked; empty when the host is an IP address or allowed by name). */
export interface Target {
  url: URL;
  addresses: Address[];
}

/**
 * Checks a URL against the rules (a pure function of the URL, the resolver
 * and the allowed hosts); answers where to connect, or throws
 * {@link SourceRefused} naming the rule.
 */
export async function checkTarget(url: URL, resolve: Resolver, allowed: ReadonlySet<string>, signal?: AbortSignal): Promise<Target> {
  if (!(url.protocol in PORTS)) throw new SourceRefused('scheme', `its scheme is '${url.protocol.replace(/:$/, '')}'; a source must be http or https`);
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  // An IP address is connected to as written (and checked as it is); a name, at the addresses it resolved to.
  const isAddress = ipaddr.isValid(literal);
  const addresses = async () => (isAddress ? [] : resolveAll(literal, resolve, signal));
  if (allowed.has(hostPort(url))) return { url, addresses: await addresses() };
  const port = Number(url.port || PORTS[url.protocol]);
  if (port !== 80 && port !== 443) throw new SourceRefused('port', `it names port ${port}; a source must be on port 80 or 443`);
  const resolved = await addresses();
  for (const { address } of isAddress ? [{ address: literal }] : resolved) {
    const refused = addressClass(address);
    if (refused)
      throw new SourceRefused(
        'address',
        `its host ${isAddress ? 'is' : 'resolves to'} a ${refused} address; a source must be at public unicast addresses only`,
      );
  }
  return { url, addresses: resolved };
}

/** Rejects with the signal's reason once it ends, whether or not `promise` has settled (a lookup cannot be cancelled, only left). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

async function resolveAll(host: string, resolve: Resolver, signal?: AbortSignal): Promise<Address[]> {
  let addresses: Address[];
  try {
    addresses = await untilAborted(resolve(host), signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    addresses = [];
  }
  if (addresses.length === 0) throw new SourceRefused('unresolvable', `its host ${host} does not resolve`);
  return addresses;
}

// ---- fetching ----------------------------------------------------------------------

/** A lookup that answers the checked addresses instead of asking DNS again. */
function pinnedLookup(addresses: Address[]): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  }) as unknown as LookupFunction;
}

export interface Reached {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body, decompressed; at most `maxBytes`. */
  bytes: Buffer;
  /** Where the answer came from, after redirects. */
  url: string;
}

/** An answer bigger than the cap. */
export class TooLarge extends Error {}

export interface ReachOptions {
  headers: Record<string, string>;
  /** Ends the whole read: lookups, connections, redirects, headers, body and decompression. */
  signal: AbortSignal;
  maxBytes: number;
  resolve?: Resolver;
  allowed?: ReadonlySet<string>;
}

/** Built-ins through `require`, as shared/platform/node-fetch.ts loads them: an ESM import of `node:http` builds its whole namespace, undici included. */
const load = createRequire(import.meta.url) as (id: 'node:http' | 'node:https') => typeof import('node:https');

function requestOnce(target: Target, options: ReachOptions): Promise<http.IncomingMessage> {
  const { url } = target;
  const client = load(url.protocol === 'https:' ? 'node:https' : 'node:http');
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method: 'GET',
      headers: { 'accept-encoding': 'gzip, deflate', ...options.headers },
      signal: options.signal,
      // No shared pool: each connection is made to the addresses this request checked.
      agent: false,
      ...(target.addresses.length > 0 ? { lookup: pinnedLookup(target.addresses) } : {}),
    });
    request.once('response', resolve);
    // `on`, not `once`: a second error of a request already settled must not go unhandled.
    request.on('error', reject);
    request.end();
  });
}

const DECODERS: Record<string, () => zlib.Gunzip | zlib.Inflate> = {
  gzip: () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
};

/**
 * The body, decompressed, at most `maxBytes`. Through `pipeline`, an error or
 * early close of the response reaches the decoder (which `pipe` would leave
 * waiting forever) and the signal's end destroys both.
 */
async function readCapped(response: http.IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder = DECODERS[encoding];
  const chunks: Buffer[] = [];
  let size = 0;
  const collect = async (body: AsyncIterable<Buffer>) => {
    for await (const chunk of body) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new TooLarge();
      chunks.push(chunk);
    }
  };
  try {
    if (decoder) await pipeline(response, decoder(), collect, { signal });
    else await pipeline(response, collect, { signal });
  } finally {
    response.destroy();
  }
  return Buffer.concat(chunks);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs a source URL, following at most 5 redirects, each checked by
 * {@link checkTarget} before anything is sent to it. Credentials in the
 * headers are not sent on to another origin.
 */
export async function reach(start: string, options: ReachOptions): Promise<Reached> {
  const resolve = options.resolve ?? systemResolver;
  const allowed = options.allowed ?? allowedHosts();
  let url = new URL(start);
  let headers = options.headers;
  for (let redirects = 0; ; redirects++) {
    const target = await checkTarget(url, resolve, allowed, options.signal);
    const response = await requestOnce(target, { ...options, headers });
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode ?? 0) || !location) {
      return {
        status: response.statusCode ?? 0,
        headers: response.headers,
        bytes: await readCapped(response, options.maxBytes, options.signal),
        url: url.toString(),
      };
    }
    response.destroy();
    if (redirects === MAX_REDIRECTS) throw new SourceRefused('redirects', `it redirected more than ${MAX_REDIRECTS} times`);
    const next = new URL(location, url);
    if (next.origin !== url.origin)
      headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !['authorization', 'client-id', 'cookie'].includes(name.toLowerCase())));
    url = next;
  }
}
