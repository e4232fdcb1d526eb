import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { checkRedis } from './redis-connections';

describe('starting without Redis', () => {
  it('fails at once, naming the address with its password hidden', async () => {
    // A port nothing listens on: taken, then freed.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const started = Date.now();
    const error = (await checkRedis(`redis://:hunter2@127.0.0.1:${port}/0`).catch((e: Error) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(
      new RegExp(
        `^Cannot connect to Redis \\(redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port}/0\\): .*ECONNREFUSED`,
      ),
    );
    expect(error.message).not.toContain('hunter2');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('passes when Redis answers', async () => {
    await checkRedis('redis://127.0.0.1:6379/9');
  });
});
