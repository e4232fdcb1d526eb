import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Which addresses the server's browser may reach (DESIGN.md §6). Checked after DNS resolution, on
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
  | { allowed: false; host: string; reason: string };

const ranges = (list: [string, number, 'ipv4' | 'ipv6'][]) => {
  const block = new BlockList();
  for (const [net, prefix, type] of list) block.addSubnet(net, prefix, type);
  return block;
};

const LINK_LOCAL = ranges([
  ['169.254.0.0', 16, 'ipv4'],
  ['fe80::', 10, 'ipv6'],
  ['fd00:ec2::254', 128, 'ipv6'], // AWS metadata over IPv6
]);
const LOOPBACK = ranges([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);
const PRIVATE = ranges([
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['fc00::', 7, 'ipv6'],
]);
const UNSPECIFIED = ranges([
  ['0.0.0.0', 8, 'ipv4'],
  ['::', 128, 'ipv6'],
]);
const MULTICAST = ranges([
  ['224.0.0.0', 4, 'ipv4'],
  ['ff00::', 8, 'ipv6'],
]);
const RESERVED = ranges([
  ['240.0.0.0', 4, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
]);

/** `::ffff:127.0.0.1` and `::ffff:7f00:1` are IPv4 addresses in disguise: judge them as such. */
export function unmapIPv4(address: string): string {
  const lower = address.toLowerCase().replace(/^\[|\]$/g, '');
  const dotted = lower.match(/^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) return dotted[1];
  const hex = lower.match(/^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (hex) {
    const hi = Number.parseInt(hex[1], 16);
    const lo = Number.parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return lower;
}

export function classifyAddress(raw: string): AddressClass {
  const address = unmapIPv4(raw);
  const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (LINK_LOCAL.check(address, type)) return 'link-local';
  if (LOOPBACK.check(address, type)) return 'loopback';
  if (UNSPECIFIED.check(address, type)) return 'unspecified';
  if (PRIVATE.check(address, type)) return 'private';
  if (MULTICAST.check(address, type)) return 'multicast';
  if (RESERVED.check(address, type)) return 'reserved';
  return 'public';
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
        return { allowed: false, host, reason: `the host name ${host} could not be resolved` };
      }
      if (addresses.length === 0)
        return { allowed: false, host, reason: `the host name ${host} has no address` };
    }
    for (const raw of addresses) {
      const address = unmapIPv4(raw);
      const kind = classifyAddress(address);
      const shown = address === host ? address : `${host} (${address})`;
      if (this.isSelf(address, port)) {
        return { allowed: false, host, reason: `${shown}:${port} is the Argus server itself` };
      }
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
