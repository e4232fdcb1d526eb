import { describe, expect, it } from 'vitest';
import { isLocalOnlyId, makeLocalOnlySession, stripLocalSuffix, toNewSession } from './local-only';

describe('local-only sessions (docs/PRODUCT.md#sessions)', () => {
  const now = new Date('2026-03-04T05:06:07.000Z');
  const local = makeLocalOnlySession(
    { type: 'automation', title: 'Smoke', url: 'https://a.example', metadata: { testCases: [] } },
    'u1',
    now,
    () => 'abc',
  );

  it('gets an id prefixed local_, a title suffixed (Local Only) and the flag', () => {
    expect(local).toMatchObject({
      id: 'local_abc',
      title: 'Smoke (Local Only)',
      isLocalOnly: true,
      status: 'active',
      userId: 'u1',
      createdAt: '2026-03-04T05:06:07.000Z',
      updatedAt: '2026-03-04T05:06:07.000Z',
      url: 'https://a.example',
    });
    expect(isLocalOnlyId(local.id)).toBe(true);
    expect(isLocalOnlyId('7c9e')).toBe(false);
  });

  it('syncs under its original title', () => {
    expect(stripLocalSuffix(local.title)).toBe('Smoke');
    expect(stripLocalSuffix('Plain')).toBe('Plain');
    expect(toNewSession(local)).toMatchObject({
      type: 'automation',
      title: 'Smoke',
      url: 'https://a.example',
    });
  });
});
