import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { TRACE_VIEWER_BASE } from './artifact-links';

/**
 * Playwright's trace viewer, served by Argus itself from the copy inside playwright-core (no external
 * site, no internet): `/trace-viewer/index.html?trace=<a trace's signed link>` opens a case's trace
 * (docs/DIAGNOSTICS.md). The viewer is a page and a service worker (`sw.bundle.js`, scope
 * /trace-viewer/) that fetches the zip from the `trace` URL, unpacks it in the browser and answers the
 * page's `contexts`, `snapshot/…` and `sha1/…` requests from it. So: same origin as the API (the link
 * needs no CORS), over http://localhost or https (service workers need a secure context), and framed by
 * itself (its DOM snapshots are same-origin iframes). Static files, not API routes: no login (the
 * trace's own link is signed) and no entry in the permission table.
 */

/** Where playwright-core keeps the built viewer. */
export function traceViewerRoot(): string | null {
  const core = createRequire(import.meta.url).resolve('playwright-core/package.json');
  const root = join(dirname(core), 'lib', 'vite', 'traceViewer');
  return existsSync(join(root, 'index.html')) ? root : null;
}

/** Vite's content-hashed file names (`index.BY2vkw8A.js`, `assets/urlMatch-Cgl6axSs.js`): safe to cache for good. */
const HASHED = /[.-][A-Za-z0-9_-]{8}\.(?:js|css|ttf|woff2?)$/;

/**
 * The viewer's policy: the app's (CONTENT_SECURITY_POLICY) but framed by its own origin, its fonts
 * from data: URLs, and its one inline script (it tells a file:// opener to use a web server) allowed by
 * its hash rather than by 'unsafe-inline'.
 */
function viewerPolicy(root: string): string {
  const html = readFileSync(join(root, 'index.html'), 'utf8');
  const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`,
  );
  return [
    "default-src 'self'",
    `script-src 'self' ${inline.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/**
 * Serves the viewer under /trace-viewer/ (nothing when playwright-core has no built viewer: the links
 * still download the trace). Hashed assets are cached for a year; the page, the service worker and
 * the rest are revalidated each time, so a new playwright-core takes effect at once.
 */
export async function registerTraceViewer(app: FastifyInstance, root = traceViewerRoot()): Promise<void> {
  if (!root) {
    app.log.warn('playwright-core has no built trace viewer: traces can be downloaded, not viewed here');
    return;
  }
  const policy = viewerPolicy(root);
  await app.register(async (scope) => {
    // After the app's own onSend (which sets SECURITY_HEADERS on every answer): the viewer frames itself.
    scope.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', policy);
      reply.header('x-frame-options', 'SAMEORIGIN');
    });
    await scope.register(fastifyStatic, {
      root,
      prefix: TRACE_VIEWER_BASE,
      decorateReply: false,
      index: 'index.html',
      cacheControl: false,
      setHeaders: (reply: FastifyReply, path: string) => {
        const cache = HASHED.test(basename(path)) ? 'public, max-age=31536000, immutable' : 'no-cache';
        reply.header('cache-control', cache);
      },
    });
  });
}
