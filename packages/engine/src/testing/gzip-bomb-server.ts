import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';

let member: Buffer | undefined;

/**
 * A loopback server whose every answer is ~1 MB of gzip inflating to 1 GiB: 64 copies of one gzip
 * member of 16 MiB of spaces (a gzip stream may hold several members), so neither the test nor the
 * server holds the inflated body. For tests that a reader stops counting at a cap after decompression.
 */
export async function startGzipBombServer(): Promise<{
  url: string;
  port: number;
  close: () => Promise<void>;
}> {
  member ??= gzipSync(Buffer.alloc(16 * 1024 * 1024, 0x20), { level: 9 });
  const gzipMember = member;
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    const members = Readable.from(
      (function* () {
        for (let i = 0; i < 64; i++) yield gzipMember;
      })(),
    );
    pipeline(members, res).catch(() => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
