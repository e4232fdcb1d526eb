import type { Session, SessionListQuery } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { listAllSessions } from './list-sessions';

function fakeServer(total: number) {
  const asked: SessionListQuery[] = [];
  const rows = Array.from({ length: total }, (_, i) => ({ id: `s${i}` }) as unknown as Session);
  const fetchPage = async (query: SessionListQuery) => {
    asked.push(query);
    const offset = Number(query.offset ?? 0);
    return rows.slice(offset, offset + Number(query.limit ?? 100));
  };
  return { asked, fetchPage };
}

describe('listing every session', () => {
  it('reads page after page until a short page, so no session is left out', async () => {
    const server = fakeServer(1234);
    const all = await listAllSessions(server.fetchPage);
    expect(all).toHaveLength(1234);
    expect(new Set(all.map((s) => s.id)).size).toBe(1234);
    expect(server.asked.map((q) => q.offset)).toEqual([0, 500, 1000]);
  });

  it('asks once more after an exactly full page, and stops at an empty one', async () => {
    const server = fakeServer(500);
    expect(await listAllSessions(server.fetchPage)).toHaveLength(500);
    expect(server.asked).toHaveLength(2);
  });
});
