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
