import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FigmaFileResponse, FigmaNode } from './figma-types';
import { findNode } from './frame-select';

/**
 * How the fake answers for one file: `ok`; `forbidden` (403, a file the token's account may not open);
 * `not_found` (404, how Figma answers for a private file too); `rate_limited` (429 with Retry-After for
 * the first `times` requests, then ok).
 */
export type FakeFileBehaviour =
  | 'ok'
  | 'forbidden'
  | 'not_found'
  | { rateLimited: { retryAfterSeconds: number; times: number } };

export interface FakeFigmaFile {
  file: FigmaFileResponse;
  /** Node id to the PNG the images endpoint renders for it; a node without one renders as `null`. */
  renders?: Record<string, Buffer>;
  behaviour?: FakeFileBehaviour;
}

export interface FakeFigmaApi {
  /** `http://127.0.0.1:<port>`: pass as `apiBase` / `FIGMA_API_BASE`. */
  url: string;
  /** Every request, as `GET /v1/files/KEY?depth=2`, in order. */
  requests: string[];
  /** Replaces or adds a file's behaviour while running. */
  setBehaviour(key: string, behaviour: FakeFileBehaviour): void;
  close(): Promise<void>;
}

export interface FakeFigmaOptions {
  files: Record<string, FakeFigmaFile>;
  /** Tokens the fake accepts (`X-Figma-Token`); another token gets 403 'Invalid token'. Default: any. */
  tokens?: string[];
}

/** The fixture file `fixtures/figma/landing.json` and its rendered Desktop frame. */
export function landingFixture(): { file: FigmaFileResponse; desktopPng: Buffer } {
  const root = new URL('../../../../fixtures/figma/', import.meta.url);
  return {
    file: JSON.parse(readFileSync(new URL('landing.json', root), 'utf8')) as FigmaFileResponse,
    desktopPng: readFileSync(new URL('landing-desktop.png', root)),
  };
}

function prune(node: FigmaNode, depth: number | undefined): FigmaNode {
  if (depth === undefined || !node.children) return node;
  if (depth <= 0) {
    const { children: _dropped, ...rest } = node;
    return rest as FigmaNode;
  }
  return { ...node, children: node.children.map((c) => prune(c, depth - 1)) };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/**
 * A local stand-in for Figma's REST API (node:http on 127.0.0.1) with the real answer shapes:
 * `GET /v1/files/:key[?depth=]`, `GET /v1/files/:key/nodes?ids=`, `GET /v1/images/:key?ids=&format=&scale=`
 * (whose URLs point at its own `/render/:key/:id.png`, served without a token like Figma's storage).
 */
export async function startFakeFigmaApi(options: FakeFigmaOptions): Promise<FakeFigmaApi> {
  const files = new Map(Object.entries(options.files));
  const behaviours = new Map<string, FakeFileBehaviour>(
    [...files].map(([key, f]) => [key, f.behaviour ?? 'ok'] as const),
  );
  const rateCounts = new Map<string, number>();
  const requests: string[] = [];
  let base = '';

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (req.method !== 'GET') return send(res, 405, { status: 405, err: 'Method not allowed' });

    const render = /^\/render\/([^/]+)\/([^/]+)\.png$/.exec(url.pathname);
    if (render) {
      const png = files.get(decodeURIComponent(render[1]))?.renders?.[decodeURIComponent(render[2])];
      if (!png) return send(res, 404, { status: 404, err: 'Not found' });
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
      return res.end(png);
    }

    const token = req.headers['x-figma-token'];
    if (typeof token !== 'string' || !token) return send(res, 403, { status: 403, err: 'Invalid token' });
    if (options.tokens && !options.tokens.includes(token))
      return send(res, 403, { status: 403, err: 'Invalid token' });

    const route = /^\/v1\/(files|images)\/([^/]+)(\/nodes)?$/.exec(url.pathname);
    if (!route) return send(res, 404, { status: 404, err: 'Not found' });
    const key = decodeURIComponent(route[2]);
    const entry = files.get(key);
    const behaviour = behaviours.get(key) ?? 'ok';
    if (!entry || behaviour === 'not_found') return send(res, 404, { status: 404, err: 'Not found' });
    if (behaviour === 'forbidden') return send(res, 403, { status: 403, err: 'Forbidden' });
    if (typeof behaviour === 'object') {
      const count = (rateCounts.get(key) ?? 0) + 1;
      rateCounts.set(key, count);
      if (count <= behaviour.rateLimited.times) {
        return send(
          res,
          429,
          { status: 429, err: 'Rate limit exceeded' },
          {
            'retry-after': String(behaviour.rateLimited.retryAfterSeconds),
            'x-figma-rate-limit-type': 'low',
            'x-figma-plan-tier': 'starter',
          },
        );
      }
    }
    const depthParam = url.searchParams.get('depth');
    const depth = depthParam === null ? undefined : Number(depthParam);
    const ids = (url.searchParams.get('ids') ?? '').split(',').filter(Boolean);
    const { document, ...meta } = entry.file;

    if (route[1] === 'files' && !route[3])
      return send(res, 200, { ...meta, document: prune(document, depth) });
    if (route[1] === 'files') {
      if (!ids.length) return send(res, 400, { status: 400, err: 'Missing ids' });
      const nodes: Record<string, unknown> = {};
      for (const id of ids) {
        const node = findNode(document, id);
        nodes[id] = node
          ? { document: prune(node, depth), components: {}, styles: {}, schemaVersion: 0 }
          : null;
      }
      return send(res, 200, {
        name: meta.name,
        lastModified: meta.lastModified,
        version: meta.version,
        nodes,
      });
    }
    if (!ids.length) return send(res, 400, { status: 400, err: 'Missing ids' });
    const format = url.searchParams.get('format') ?? 'png';
    const scale = Number(url.searchParams.get('scale') ?? '1');
    if (format !== 'png' || !(scale >= 0.01 && scale <= 4)) {
      return send(res, 400, { status: 400, err: 'Invalid parameter' });
    }
    const images: Record<string, string | null> = {};
    for (const id of ids) {
      images[id] = entry.renders?.[id]
        ? `${base}/render/${encodeURIComponent(key)}/${encodeURIComponent(id)}.png`
        : null;
    }
    return send(res, 200, { err: null, images });
  };

  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (error) {
      send(res, 500, { status: 500, err: String(error) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    setBehaviour: (key, behaviour) => {
      behaviours.set(key, behaviour);
      rateCounts.delete(key);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
