import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses the server's browser may reach (docs/DECISIONS.md#target-policy). Checked after DNS resolution, on
 * every request: link-local and cloud-metadata addresses never; loopback and private ranges only
 * when ALLOWED_TARGETS names them; the Argus server itself never.
 */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

export interface TargetPolicyOptions {
  /** Entries of ALLOWED_TARGETS: host names (`localhost`, `app.internal`), IPs, or CIDRs (`10.0.0.0/8`). */
  allowedTargets?: string[];
  /** Where the Argus server listens; never reachable, even when allowed otherwise. */
  self?: { host: string; port: number }[];
  /** Injected in tests; defaults to the system resolver. */
  resolve?: (host: string) => Promise<string[]>;
}

export type PolicyDecision =
  | { allowed: true; host: string; port: number; addresses: string[] }
  /** `unresolved`: refused only because the host name has no address now (it may have one later). */
  | { allowed: false; host: string; reason: string; unresolved?: true };

/** Classes in the order a refusal should name them: the never-allowed ones first. */
const SEVERITY: AddressClass[] = [
  'link-local',
  'reserved',
  'multicast',
  'loopback',
  'unspecified',
  'private',
  'public',
];

const v4 = (list: string[]) => list.map((cidr) => ipaddr.IPv4.parseCIDR(cidr));

/** IPv4 rules, checked in this order; anything else is public. */
const IPV4_RANGES: Record<string, [ipaddr.IPv4, number][]> = {
  'link-local': v4(['169.254.0.0/16']),
  loopback: v4(['127.0.0.0/8']),
  unspecified: v4(['0.0.0.0/8']),
  private: v4(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10' /* carrier-grade NAT */]),
  multicast: v4(['224.0.0.0/4']),
  reserved: v4(['240.0.0.0/4', '192.0.0.0/24', '198.18.0.0/15']),
};

/** Cloud-metadata addresses inside otherwise private IPv6 ranges. */
const IPV6_METADATA = [
  ipaddr.IPv6.parseCIDR('fd00:ec2::254/128') /* AWS */,
  ipaddr.IPv6.parseCIDR('fd20:ce::254/128') /* Google Cloud */,
];
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/** ipaddr.js IPv6 range names that map to one of our classes; every other special range is reserved. */
const IPV6_RANGE_CLASS: Record<string, AddressClass> = {
  unspecified: 'unspecified',
  loopback: 'loopback',
  linkLocal: 'link-local',
  multicast: 'multicast',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private', // fec0::/10, the predecessor of fc00::/7
};

const octets = (bytes: number[], at: number[]) => new ipaddr.IPv4(at.map((i) => bytes[i]));

/**
 * How an IPv6 address carries IPv4 ones. `direct`: using it means reaching that IPv4 address (mapped,
 * NAT64 64:ff9b::/96, 6to4, Teredo), so it is judged as that address. `obsolete` (IPv4-compatible,
 * IPv4-translated): a private IPv4 inside makes it non-public, a public one does not make it public.
 * `local`: the local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215), whose translator and RFC 6052
 * layout (prefix length 48, 56, 64 or 96) are the operator's choice: every layout is decoded.
 */
type Embedding = { form: 'direct' | 'obsolete' | 'local'; candidates: ipaddr.IPv4[] };

function embeddedIPv4(address: ipaddr.IPv6): Embedding | null {
  const b = address.toByteArray();
  const last = octets(b, [12, 13, 14, 15]);
  switch (address.range() as string) {
    case 'ipv4Mapped': // ::ffff:0:0/96
      return { form: 'direct', candidates: [last] };
    case 'rfc6145': // ::ffff:0:0:0/96, IPv4-translated (RFC 2765)
      return { form: 'obsolete', candidates: [last] };
    case 'rfc6052':
      if (b[5] === 0) return { form: 'direct', candidates: [last] }; // 64:ff9b::/96
      return {
        form: 'local',
        candidates: [
          octets(b, [6, 7, 9, 10]), // /48 (bits 64-71 are the zero `u` octet)
          octets(b, [7, 9, 10, 11]), // /56
          octets(b, [9, 10, 11, 12]), // /64
          last, // /96
        ],
      };
    case '6to4': // 2002:AABB:CCDD::/48
      return { form: 'direct', candidates: [octets(b, [2, 3, 4, 5])] };
    case 'teredo': {
      // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC: the client address inverted (RFC 4380), and the server.
      const client = new ipaddr.IPv4([b[12] ^ 255, b[13] ^ 255, b[14] ^ 255, b[15] ^ 255]);
      return { form: 'direct', candidates: [client, octets(b, [4, 5, 6, 7])] };
    }
    case 'unicast':
      // ::/96 apart from :: and ::1 (ranges of their own): IPv4-compatible, deprecated by RFC 4291.
      return b.slice(0, 12).every((x) => x === 0) ? { form: 'obsolete', candidates: [last] } : null;
    default:
      return null;
  }
}

/** Classes no ALLOWED_TARGETS entry can open. */
const NEVER: AddressClass[] = ['link-local', 'reserved', 'multicast'];

interface Verdict {
  kind: AddressClass;
  /** The embedded IPv4 address the class comes from, when it does. */
  via?: string;
}

function parseAddress(raw: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const text = raw
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  // ipaddr.js reads IPv4 the way inet_aton and WHATWG URL do (0x7f.1, 2130706433, 127.1).
  return ipaddr.isValid(text) ? ipaddr.parse(text) : null;
}

// ipaddr.subnetMatch, not the instance method its typings declare: that one does not exist.
const classifyIPv4 = (address: ipaddr.IPv4) =>
  ipaddr.subnetMatch(address, IPV4_RANGES, 'public') as AddressClass;

function judge(raw: string): Verdict {
  const address = parseAddress(raw);
  // Not an address at all: never treat it as a public one.
  if (!address) return { kind: 'reserved' };
  if (address instanceof ipaddr.IPv4) return { kind: classifyIPv4(address) };
  if (IPV6_METADATA.some((net) => address.match(net))) return { kind: 'link-local' };
  const embedded = embeddedIPv4(address);
  if (embedded) {
    let worst: Verdict = { kind: 'public' };
    for (const candidate of embedded.candidates) {
      const kind = classifyIPv4(candidate);
      if (SEVERITY.indexOf(kind) < SEVERITY.indexOf(worst.kind)) worst = { kind, via: candidate.toString() };
    }
    if (embedded.form === 'direct') return worst;
    if (embedded.form === 'obsolete') return worst.kind === 'public' ? { kind: 'reserved' } : worst;
    // Local-use NAT64: a layout that lands on metadata, multicast or reserved space refuses it; the
    // other layouts are guesses (one usually reads 0.0.0.0), so it is a private network to allow.
    return NEVER.includes(worst.kind) ? worst : { kind: 'private' };
  }
  const range = address.range() as string;
  if (range in IPV6_RANGE_CLASS) return { kind: IPV6_RANGE_CLASS[range] };
  // Global unicast is 2000::/3 minus the special-purpose blocks ipaddr.js names (documentation,
  // benchmarking, ORCHID, AMT, AS112, ...); everything outside 2000::/3 is unassigned or special.
  if (range === 'unicast' && address.match(GLOBAL_UNICAST)) return { kind: 'public' };
  return { kind: 'reserved' };
}

/** `::ffff:127.0.0.1` and `::ffff:7f00:1` are IPv4 addresses in disguise: judge them as such. */
export function unmapIPv4(address: string): string {
  const lower = address.toLowerCase().replace(/^\[|\]$/g, '');
  if (!ipaddr.IPv6.isValid(lower)) return lower;
  const parsed = ipaddr.IPv6.parse(lower);
  return parsed.isIPv4MappedAddress() ? parsed.toIPv4Address().toString() : lower;
}

/**
 * IPv6 addresses that carry an IPv4 one (IPv4-mapped, IPv4-compatible, IPv4-translated, NAT64
 * 64:ff9b::/96 and 64:ff9b:1::/48, 6to4, Teredo) are judged by that IPv4 address; other IPv6
 * addresses are public only inside 2000::/3 and outside the IANA special-purpose ranges.
 */
export function classifyAddress(raw: string): AddressClass {
  return judge(raw).kind;
}

const DESCRIBE: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'a loopback address',
  private: 'a private-network address',
  'link-local': 'a link-local or cloud-metadata address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
};

function defaultPort(protocol: string): number {
  return protocol === 'https:' || protocol === 'wss:' ? 443 : 80;
}

async function systemResolve(host: string): Promise<string[]> {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

export class TargetPolicy {
  private readonly allowedHosts = new Set<string>();
  private readonly allowedNets = new BlockList();
  private readonly self: { address: string; port: number }[];
  private readonly resolve: (host: string) => Promise<string[]>;

  constructor(options: TargetPolicyOptions = {}) {
    for (const raw of options.allowedTargets ?? []) {
      const entry = raw.trim().toLowerCase();
      if (!entry) continue;
      const [net, prefix] = entry.split('/');
      const bare = unmapIPv4(net);
      const version = isIP(bare);
      if (version) {
        const bits = prefix === undefined ? (version === 4 ? 32 : 128) : Number(prefix);
        if (!Number.isInteger(bits) || bits < 0 || bits > (version === 4 ? 32 : 128)) {
          throw new Error(`ALLOWED_TARGETS: bad prefix in '${raw}'`);
        }
        this.allowedNets.addSubnet(bare, bits, version === 4 ? 'ipv4' : 'ipv6');
      } else {
        if (prefix !== undefined)
          throw new Error(`ALLOWED_TARGETS: '${raw}' is neither a host name nor a CIDR`);
        this.allowedHosts.add(entry);
      }
    }
    this.self = (options.self ?? []).map((s) => ({ address: unmapIPv4(s.host), port: s.port }));
    this.resolve = options.resolve ?? systemResolve;
  }

  /** Parses the comma-separated ALLOWED_TARGETS variable. */
  static fromEnv(value: string | undefined, self: TargetPolicyOptions['self'] = []): TargetPolicy {
    return new TargetPolicy({ allowedTargets: (value ?? '').split(','), self });
  }

  private isSelf(address: string, port: number): boolean {
    return this.self.some(
      (s) =>
        s.port === port &&
        (s.address === address ||
          // A server on 0.0.0.0 or :: answers on every local address.
          ((s.address === '0.0.0.0' || s.address === '::') &&
            (classifyAddress(address) === 'loopback' || classifyAddress(address) === 'unspecified'))),
    );
  }

  private allowedPrivate(host: string, address: string): boolean {
    if (this.allowedHosts.has(host)) return true;
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    return this.allowedNets.check(address, type);
  }

  /** Decides on one URL; resolves its host name and judges every address it resolves to. */
  async check(target: string | URL): Promise<PolicyDecision> {
    let url: URL;
    try {
      url = typeof target === 'string' ? new URL(target) : target;
    } catch {
      return { allowed: false, host: String(target), reason: `'${target}' is not a valid URL` };
    }
    if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) {
      return { allowed: false, host: url.host, reason: `the ${url.protocol} scheme is not allowed` };
    }
    const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
    const port = url.port ? Number(url.port) : defaultPort(url.protocol);
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
      try {
        addresses = await this.resolve(host);
      } catch {
        return {
          allowed: false,
          host,
          reason: `the host name ${host} could not be resolved`,
          unresolved: true,
        };
      }
      if (addresses.length === 0)
        return { allowed: false, host, reason: `the host name ${host} has no address`, unresolved: true };
    }
    for (const raw of addresses) {
      const address = unmapIPv4(raw);
      const { kind, via } = judge(address);
      if (this.isSelf(address, port)) {
        const named = address === host ? address : `${host} (${address})`;
        return { allowed: false, host, reason: `${named}:${port} is the Argus server itself` };
      }
      // `host (address, IPv4 a.b.c.d)`: the reason names the IPv4 address an IPv6 one was judged by.
      const notes: string[] = [];
      if (address !== host) notes.push(address);
      if (via) notes.push(`IPv4 ${via}`);
      const shown = notes.length ? `${host} (${notes.join(', ')})` : host;
      if (kind === 'link-local') return { allowed: false, host, reason: `${shown} is ${DESCRIBE[kind]}` };
      if (kind === 'public') continue;
      if (kind === 'multicast' || kind === 'reserved') {
        return { allowed: false, host, reason: `${shown} is ${DESCRIBE[kind]}` };
      }
      if (!this.allowedPrivate(host, address)) {
        return {
          allowed: false,
          host,
          reason: `${shown} is ${DESCRIBE[kind]}; add it to ALLOWED_TARGETS to test it`,
        };
      }
    }
    return { allowed: true, host, port, addresses: addresses.map(unmapIPv4) };
  }
}
