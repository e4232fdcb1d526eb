import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines, UniqueViolation } from './index';
import { type TwoUsers, twoUserDatabase } from './repository-fixture';

describe.each(testEngines())('single sign-on records on $name', ({ open }) => {
  let repos: TwoUsers['repos'];
  let alice: string;
  const fixture = twoUserDatabase(open);
  beforeAll(async () => {
    ({ repos, alice } = await fixture.open());
  }, 60_000);
  afterAll(fixture.close);

  const issuer = 'https://id.example.com';
  const minute = 60_000;

  it('finds a user by the provider account linked to them, and only by that issuer and subject', async () => {
    const who = { issuer, subject: 'alice-sub' };
    expect(await repos.sso.findUser(who)).toBeUndefined();
    await repos.sso.link(who, alice, 'a@example.com');
    expect((await repos.sso.findUser(who))?.id).toBe(alice);
    expect(
      await repos.sso.findUser({ issuer: 'https://other.example.com', subject: 'alice-sub' }),
    ).toBeUndefined();
    expect(await repos.sso.findUser({ issuer, subject: 'ALICE-SUB' })).toBeUndefined();
  });

  it('finds a user by email in any case, never by username', async () => {
    expect((await repos.sso.findUserByEmail(' A@Example.COM '))?.id).toBe(alice);
    expect(await repos.sso.findUserByEmail('alice')).toBeUndefined();
  });

  it('makes a user with their provider account at once, and refuses a taken username without half a user', async () => {
    const who = { issuer, subject: 'carol-sub' };
    const carol = await repos.sso.createUser(
      { username: 'carol', email: 'carol@example.com', password_hash: 'h' },
      who,
    );
    expect((await repos.sso.findUser(who))?.id).toBe(carol.id);
    const again = { issuer, subject: 'carol-2' };
    await expect(
      repos.sso.createUser({ username: 'Carol', email: 'carol2@example.com', password_hash: 'h' }, again),
    ).rejects.toBeInstanceOf(UniqueViolation);
    expect(await repos.sso.findUser(again)).toBeUndefined();
    expect(await repos.sso.findUserByEmail('carol2@example.com')).toBeUndefined();
  });

  it('hands out a sign-in flow once, and never after its expiry', async () => {
    const now = new Date();
    const flow = {
      state_hash: 's1',
      nonce: 'n',
      code_verifier: 'v',
      expires_at: new Date(now.getTime() + minute),
    };
    await repos.sso.saveFlow(flow, now);
    expect(await repos.sso.takeFlow('s1', now)).toMatchObject({ nonce: 'n', code_verifier: 'v' });
    expect(await repos.sso.takeFlow('s1', now)).toBeUndefined();
    await repos.sso.saveFlow({ ...flow, state_hash: 's2' }, now);
    expect(await repos.sso.takeFlow('s2', new Date(now.getTime() + 2 * minute))).toBeUndefined();
  });

  it('hands a one-time code to its user once, and never after its expiry', async () => {
    const now = new Date();
    await repos.sso.saveHandoff('c1', alice, new Date(now.getTime() + minute), now);
    expect((await repos.sso.takeHandoff('c1', now))?.id).toBe(alice);
    expect(await repos.sso.takeHandoff('c1', now)).toBeUndefined();
    await repos.sso.saveHandoff('c2', alice, new Date(now.getTime() + minute), now);
    expect(await repos.sso.takeHandoff('c2', new Date(now.getTime() + 2 * minute))).toBeUndefined();
  });
});
