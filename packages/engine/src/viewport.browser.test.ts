import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from './browser-pool';
import { TargetPolicy } from './target-policy';

/**
 * One browser serves every user: a 99999x99999 page would take its memory from all of them. The
 * protocol's viewport limits (200 to 7680 pixels each way) hold wherever the engine sets a viewport,
 * also for steps that never went through the parser (a planner's or a chat's).
 */

let server: Server;
let site: string;
beforeAll(async () => {
  server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Page</title>'),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 1 });
afterAll(() => pool.close());

const LIMIT = /A viewport can be 200 to 7680 pixels wide and high; 99999x99999 is outside that/;

describe('viewport sizes', () => {
  it('a session cannot open at a viewport past the limits, and its slot is given back', async () => {
    await expect(pool.openSession({ viewport: { width: 99_999, height: 99_999 } })).rejects.toThrow(LIMIT);
    await expect(
      pool.withContext(async () => 0, { viewport: { width: 99_999, height: 99_999 } }),
    ).rejects.toThrow(LIMIT);
    expect(pool.stats().active).toBe(0);
  });

  it('a viewport step past the limits fails naming them and leaves the page as it was; one within them resizes', async () => {
    const session = await pool.openSession({ viewport: { width: 390, height: 844 } });
    try {
      await session.navigate(`${site}/`);
      await expect(session.perform({ verb: 'viewport', width: 99_999, height: 99_999 })).rejects.toThrow(
        LIMIT,
      );
      expect(session.viewport).toEqual({ width: 390, height: 844 });
      await session.perform({ verb: 'viewport', width: 7680, height: 200 });
      expect(session.viewport).toEqual({ width: 7680, height: 200 });
    } finally {
      await session.close();
    }
  });
});
