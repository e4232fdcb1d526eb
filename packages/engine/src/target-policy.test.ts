import { describe, expect, it } from 'vitest';
import { classifyAddress, TargetPolicy, unmapIPv4 } from './target-policy';

const fakeDns = (table: Record<string, string[]>) => async (host: string) => {
  if (!(host in table)) throw new Error('ENOTFOUND');
  return table[host];
};

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.20.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['fd12::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['93.184.216.34', 'public'],
    ['2606:2800:220:1::1', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('unwraps IPv4-mapped IPv6 in both notations', () => {
    expect(unmapIPv4('[::ffff:127.0.0.1]')).toBe('127.0.0.1');
    expect(unmapIPv4('::ffff:c0a8:101')).toBe('192.168.1.1');
  });
});

describe('IPv4 inside IPv6, IPv6 special ranges and odd IPv4 spellings', () => {
  const phrase: Record<string, string> = {
    loopback: 'a loopback address',
    private: 'a private-network address',
    'link-local': 'a link-local or cloud-metadata address',
    unspecified: 'an unspecified address',
    multicast: 'a multicast address',
    reserved: 'a reserved address',
  };
  const policy = new TargetPolicy({ resolve: fakeDns({}) });

  // [host as written in a URL, the hostname WHATWG URL turns it into (brackets off), its class]
  it.each([
    // IPv4 spellings: URL parsing normalises them before the policy sees them.
    ['0x7f.1', '127.0.0.1', 'loopback'],
    ['2130706433', '127.0.0.1', 'loopback'],
    ['127.1', '127.0.0.1', 'loopback'],
    ['0177.0.0.1', '127.0.0.1', 'loopback'],
    ['127.0.0.1.', '127.0.0.1', 'loopback'],
    ['%31%32%37.0.0.1', '127.0.0.1', 'loopback'],
    ['0xa9.0xfe.0xa9.0xfe', '169.254.169.254', 'link-local'],
    ['\uff18.\uff18.\uff18.\uff18', '8.8.8.8', 'public'], // full-width digits
    ['134744072', '8.8.8.8', 'public'],
    // Plain IPv6.
    ['[::1]', '::1', 'loopback'],
    ['[0:0:0:0:0:0:0:1]', '::1', 'loopback'],
    ['[::]', '::', 'unspecified'],
    ['[fe80::1]', 'fe80::1', 'link-local'],
    ['[fd00:ec2::254]', 'fd00:ec2::254', 'link-local'],
    ['[fd20:ce::254]', 'fd20:ce::254', 'link-local'],
    ['[fc00::1]', 'fc00::1', 'private'],
    ['[fec0::1]', 'fec0::1', 'private'], // site-local (deprecated)
    ['[ff02::1]', 'ff02::1', 'multicast'],
    ['[100::1]', '100::1', 'reserved'], // discard-only
    ['[4000::1]', '4000::1', 'reserved'], // outside 2000::/3
    ['[2001:db8::1]', '2001:db8::1', 'reserved'], // documentation
    ['[3fff::1]', '3fff::1', 'reserved'], // documentation (RFC 9637)
    ['[2001:2::1]', '2001:2::1', 'reserved'], // benchmarking
    ['[2001:20::1]', '2001:20::1', 'reserved'], // ORCHIDv2
    ['[2606:4700::1111]', '2606:4700::1111', 'public'],
    // IPv4-mapped ::ffff:0:0/96.
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1', 'loopback'],
    ['[::ffff:8.8.8.8]', '::ffff:808:808', 'public'],
    // IPv4-compatible ::/96 (deprecated): never public.
    ['[::7f00:1]', '::7f00:1', 'loopback'],
    ['[::127.0.0.1]', '::7f00:1', 'loopback'],
    ['[::a9fe:a9fe]', '::a9fe:a9fe', 'link-local'],
    ['[::808:808]', '::808:808', 'reserved'],
    // IPv4-translated ::ffff:0:0:0/96 (obsolete): never public.
    ['[::ffff:0:a9fe:a9fe]', '::ffff:0:a9fe:a9fe', 'link-local'],
    ['[::ffff:0:a00:1]', '::ffff:0:a00:1', 'private'],
    ['[::ffff:0:808:808]', '::ffff:0:808:808', 'reserved'],
    // NAT64 well-known prefix 64:ff9b::/96.
    ['[64:ff9b::a9fe:a9fe]', '64:ff9b::a9fe:a9fe', 'link-local'],
    ['[64:ff9b::169.254.169.254]', '64:ff9b::a9fe:a9fe', 'link-local'],
    ['[64:ff9b::a00:1]', '64:ff9b::a00:1', 'private'],
    ['[64:ff9b::808:808]', '64:ff9b::808:808', 'public'],
    // NAT64 local-use 64:ff9b:1::/48: metadata in any RFC 6052 layout refuses it; else private.
    ['[64:ff9b:1::a9fe:a9fe]', '64:ff9b:1::a9fe:a9fe', 'link-local'],
    ['[64:ff9b:1:a9fe:a9:fe00::]', '64:ff9b:1:a9fe:a9:fe00::', 'link-local'],
    ['[64:ff9b:1::808:808]', '64:ff9b:1::808:808', 'private'],
    // 6to4 2002::/16, IPv4 in bits 16-48.
    ['[2002:a9fe:a9fe::1]', '2002:a9fe:a9fe::1', 'link-local'],
    ['[2002:7f00:1::1]', '2002:7f00:1::1', 'loopback'],
    ['[2002:0808:0808::1]', '2002:808:808::1', 'public'],
    // Teredo 2001::/32: server 65.54.227.120, client = last 32 bits XOR 0xffffffff.
    ['[2001:0:4136:e378:8000:63bf:f5ff:fffe]', '2001:0:4136:e378:8000:63bf:f5ff:fffe', 'private'], // 10.0.0.1
    ['[2001:0:4136:e378:8000:63bf:5601:5601]', '2001:0:4136:e378:8000:63bf:5601:5601', 'link-local'],
    ['[2001:0:4136:e378:8000:63bf:f7f7:f7f7]', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'public'], // 8.8.8.8
    ['[2001:0:a00:1:8000:63bf:f7f7:f7f7]', '2001:0:a00:1:8000:63bf:f7f7:f7f7', 'private'], // server 10.0.0.1
  ])('http://%s/ is %s, %s', async (written, normalised, kind) => {
    const url = new URL(`http://${written}/`);
    expect(url.hostname.replace(/^\[|\]$/g, '')).toBe(normalised);
    expect(classifyAddress(normalised)).toBe(kind);
    const decision = await policy.check(url.href);
    expect(decision.allowed).toBe(kind === 'public');
    if (!decision.allowed) expect(decision.reason).toContain(phrase[kind]);
  });

  it('reads odd IPv4 spellings itself, names the embedded IPv4 and judges resolved addresses too', async () => {
    expect(['0x7f.1', '2130706433', '127.1'].map(classifyAddress)).toEqual([
      'loopback',
      'loopback',
      'loopback',
    ]);
    expect(classifyAddress('not an address')).toBe('reserved');
    const dns = fakeDns({ 'nat64.example': ['2606:4700::1111', '64:ff9b::a9fe:a9fe'] });
    const open = new TargetPolicy({ allowedTargets: ['nat64.example', '::/0'], resolve: dns });
    expect(await open.check('http://nat64.example/')).toMatchObject({
      allowed: false,
      reason:
        'nat64.example (64:ff9b::a9fe:a9fe, IPv4 169.254.169.254) is a link-local or cloud-metadata address',
    });
    expect(await open.check('http://[::7f00:1]/')).toMatchObject({ allowed: true });
    expect(await new TargetPolicy().check('http://[2002:7f00:1::1]/')).toMatchObject({
      allowed: false,
      reason: '2002:7f00:1::1 (IPv4 127.0.0.1) is a loopback address; add it to ALLOWED_TARGETS to test it',
    });
  });
});

describe('TargetPolicy', () => {
  const dns = fakeDns({
    'example.com': ['93.184.216.34'],
    'internal.example.com': ['10.0.0.5'],
    'rebind.example.com': ['93.184.216.34', '127.0.0.1'],
    localhost: ['127.0.0.1', '::1'],
  });

  it('allows public hosts and refuses loopback unless ALLOWED_TARGETS names it', async () => {
    const strict = new TargetPolicy({ resolve: dns });
    expect((await strict.check('https://example.com/')).allowed).toBe(true);
    const refused = await strict.check('http://127.0.0.1:3000/');
    expect(refused).toEqual({
      allowed: false,
      host: '127.0.0.1',
      reason: '127.0.0.1 is a loopback address; add it to ALLOWED_TARGETS to test it',
    });
    const open = new TargetPolicy({ allowedTargets: ['127.0.0.1'], resolve: dns });
    expect((await open.check('http://127.0.0.1:3000/')).allowed).toBe(true);
  });

  it('refuses the metadata address even when every private range is allowed', async () => {
    const policy = new TargetPolicy({ allowedTargets: ['0.0.0.0/0', '169.254.0.0/16'], resolve: dns });
    const decision = await policy.check('http://169.254.169.254/latest/meta-data/');
    expect(decision.allowed).toBe(false);
    expect(!decision.allowed && decision.reason).toMatch(/link-local or cloud-metadata/);
  });

  it('sees through IPv4-mapped IPv6 and integer host spellings', async () => {
    const policy = new TargetPolicy({ resolve: dns });
    for (const url of [
      'http://[::ffff:127.0.0.1]/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::1]:8080/',
    ]) {
      const decision = await policy.check(url);
      expect(decision.allowed, url).toBe(false);
      expect(!decision.allowed && decision.reason, url).toMatch(/loopback/);
    }
  });

  it('judges every address a name resolves to (one private answer is enough to refuse)', async () => {
    const policy = new TargetPolicy({ resolve: dns });
    const decision = await policy.check('https://rebind.example.com/');
    expect(decision.allowed).toBe(false);
    expect(!decision.allowed && decision.reason).toBe(
      'rebind.example.com (127.0.0.1) is a loopback address; add it to ALLOWED_TARGETS to test it',
    );
  });

  it('allows by host name or CIDR', async () => {
    const byName = new TargetPolicy({ allowedTargets: ['localhost'], resolve: dns });
    expect((await byName.check('http://localhost:5173/')).allowed).toBe(true);
    expect((await byName.check('http://127.0.0.1:5173/')).allowed).toBe(false);
    const byNet = new TargetPolicy({ allowedTargets: ['10.0.0.0/8'], resolve: dns });
    expect((await byNet.check('http://internal.example.com/')).allowed).toBe(true);
    expect((await byNet.check('http://192.168.0.1/')).allowed).toBe(false);
  });

  it('never allows the Argus server itself', async () => {
    const policy = new TargetPolicy({
      allowedTargets: ['127.0.0.0/8'],
      self: [{ host: '0.0.0.0', port: 8080 }],
      resolve: dns,
    });
    const decision = await policy.check('http://127.0.0.1:8080/api/sessions/');
    expect(!decision.allowed && decision.reason).toBe('127.0.0.1:8080 is the Argus server itself');
    expect((await policy.check('http://127.0.0.1:8081/')).allowed).toBe(true);
  });

  it('refuses other schemes and unresolvable hosts with a reason', async () => {
    const policy = new TargetPolicy({ resolve: dns });
    expect(await policy.check('file:///etc/passwd')).toMatchObject({
      allowed: false,
      reason: 'the file: scheme is not allowed',
    });
    expect(await policy.check('https://nowhere.invalid/')).toMatchObject({
      allowed: false,
      reason: 'the host name nowhere.invalid could not be resolved',
    });
  });

  it('rejects a malformed ALLOWED_TARGETS entry at start-up', () => {
    expect(() => new TargetPolicy({ allowedTargets: ['10.0.0.0/99'] })).toThrow(/bad prefix/);
    expect(() => new TargetPolicy({ allowedTargets: ['host/8'] })).toThrow(/neither a host name nor a CIDR/);
  });
});

describe('a host name that does not resolve', () => {
  it('is refused as unresolved, told apart from an address the policy refuses', async () => {
    const policy = new TargetPolicy({
      resolve: fakeDns({ 'intranet.example': ['10.0.0.8'], 'empty.example': [] }),
    });
    expect(await policy.check('https://nowhere.example/')).toEqual({
      allowed: false,
      host: 'nowhere.example',
      reason: 'the host name nowhere.example could not be resolved',
      unresolved: true,
    });
    expect(await policy.check('https://empty.example/')).toMatchObject({ allowed: false, unresolved: true });
    const refused = await policy.check('https://intranet.example/');
    expect(refused.allowed).toBe(false);
    expect('unresolved' in refused).toBe(false);
  });
});
