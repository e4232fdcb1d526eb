import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from './app';
import { apiTargets } from './testing/api-targets';
import type { RunningServer } from './testing/spawn-server';

describe('security headers (PGlite)', () => {
  const [{ start }] = apiTargets();
  let server: RunningServer;

  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('sends a strict Content-Security-Policy on the web app and on API answers', async () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    for (const path of ['/', '/login', '/api/health', '/api/auth/me', '/api/nope']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.headers.get('content-security-policy'), path).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});
