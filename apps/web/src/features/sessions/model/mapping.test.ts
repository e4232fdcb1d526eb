import type { Session } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { toClientSession, toClientStatus, toServerCreate, toServerStatus, toServerUpdate } from './mapping';

const server: Session = {
  id: 's1',
  user_id: 'u1',
  session_type: 'automation',
  title: 'Checkout suite',
  url: 'https://shop.example',
  status: 'ACTIVE',
  description: null,
  settings: {
    testMode: 'full',
    testCases: [{ test_name: 'Add to cart' }],
    metadata: { logs: ['one'] },
    name: 'Suite',
  },
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
};

describe('session mapping (docs/PRODUCT.md#sessions)', () => {
  it('lower-cases the status for the client and upper-cases it for the server', () => {
    expect(toClientStatus('CANCELLED')).toBe('cancelled');
    expect(toServerStatus('closed')).toBe('CLOSED');
  });

  it('maps a server session to the client shape', () => {
    const client = toClientSession(server);
    expect(client).toEqual({
      id: 's1',
      type: 'automation',
      title: 'Checkout suite',
      name: 'Suite',
      url: 'https://shop.example',
      status: 'active',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.000Z',
      userId: 'u1',
      description: null,
      settings: { testMode: 'full', testCases: [{ test_name: 'Add to cart' }] },
      isLocalOnly: false,
      metadata: { logs: ['one'], testCases: [{ test_name: 'Add to cart' }] },
    });
  });

  it('round-trips through an update body', () => {
    const body = toServerUpdate({ ...toClientSession(server), status: 'closed' });
    expect(body).toMatchObject({
      title: 'Checkout suite',
      session_type: 'automation',
      status: 'CLOSED',
      url: 'https://shop.example',
      settings: { testMode: 'full', name: 'Suite', metadata: { logs: ['one'] } },
    });
    expect(toClientSession({ ...server, ...body, status: 'CLOSED' } as Session).status).toBe('closed');
  });

  it('builds a create body without screenshots and with the last 10 logs', () => {
    const body = toServerCreate({
      type: 'conversational',
      title: 'Video chat',
      name: 'Video Chat Session',
      url: 'https://example.com',
      metadata: {
        screenshots: ['data:image/png;base64,AAAA'],
        logs: Array.from({ length: 15 }, (_, i) => i),
        messages: [{ role: 'user', content: 'hi' }],
      },
    });
    expect(body).toEqual({
      title: 'Video chat',
      session_type: 'conversational',
      description: null,
      url: 'https://example.com',
      settings: {
        name: 'Video Chat Session',
        metadata: { logs: [5, 6, 7, 8, 9, 10, 11, 12, 13, 14], messages: [{ role: 'user', content: 'hi' }] },
      },
    });
  });
});
