import { request as httpRequest } from 'node:http';
import { createScratchDatabase } from '@argus/db';
import type { FastifyInstance } from 'fastify';
import { startInProcess } from './in-process-server';
import type { RunningServer } from './spawn-server';

export interface ApiTarget {
  name: 'pglite' | 'postgresql';
  start: (env?: Record<string, string>) => Promise<RunningServer>;
}

const pgUrl = process.env.TEST_DATABASE_URL;

/**
 * The server on each database engine: PGlite always, PostgreSQL when TEST_DATABASE_URL is set
 * (CI sets it). Each start is an in-process server (testing/in-process-server.ts) on its own copy
 * of the migrated template database, dropped when the server stops.
 */
export function apiTargets(): ApiTarget[] {
  const targets: ApiTarget[] = [{ name: 'pglite', start: (env) => startInProcess(env) }];
  if (pgUrl) {
    targets.push({
      name: 'postgresql',
      start: async (env) => {
        const scratch = await createScratchDatabase(pgUrl);
        const server = await startInProcess({ ...env, DATABASE_URL: scratch.url });
        return {
          ...server,
          stop: async () => {
            const code = await server.stop();
            await scratch.drop();
            return code;
          },
        };
      },
    });
  } else {
    console.log('[api tests] TEST_DATABASE_URL is unset: the PostgreSQL runs are skipped (CI sets it).');
  }
  return targets;
}

/**
 * Small JSON client for API tests. Given an in-process server, requests go through `app.inject()`
 * (no socket, same routes, hooks and error handling); given a URL or a spawned server, over HTTP.
 */
export function client(target: string | { url: string; app?: FastifyInstance }) {
  const baseUrl = typeof target === 'string' ? target : target.url;
  const app = typeof target === 'string' ? undefined : target.app;
  const call = async (
    method: string,
    path: string,
    options: {
      token?: string;
      json?: unknown;
      body?: RequestInit['body'];
      headers?: Record<string, string>;
    } = {},
  ) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    if (
      app &&
      (body === undefined || body === null || typeof body === 'string' || body instanceof URLSearchParams)
    ) {
      if (body instanceof URLSearchParams) {
        headers['content-type'] ??= 'application/x-www-form-urlencoded;charset=UTF-8';
        body = body.toString();
      }
      const res = await app.inject({
        method: method as 'GET',
        url: path,
        headers,
        ...(typeof body === 'string' ? { payload: body } : {}),
      });
      return { status: res.statusCode, data: parseBody(res.body), headers: toHeaders(res.headers) };
    }
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
    return { status: res.status, data: parseBody(await res.text()), headers: res.headers };
  };
  return {
    call,
    async register(username: string, password = 'Passw0rd1', email = `${username}@example.com`) {
      return call('POST', '/api/auth/register', {
        json: { username, email, password, confirmPassword: password },
      });
    },
    async login(username: string, password = 'Passw0rd1') {
      return call('POST', '/api/auth/login', { body: new URLSearchParams({ username, password }) });
    },
    /** Registers and logs in; returns the token and user. */
    async signUp(username: string, password = 'Passw0rd1') {
      await this.register(username, password);
      const res = await this.login(username, password);
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.data)}`);
      return {
        token: res.data.access_token as string,
        user: res.data.user as { id: string; username: string },
      };
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes
function parseBody(text: string): any {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

/** `inject`'s header object as the `Headers` a fetch answer has, so tests read both alike. */
function toHeaders(raw: Record<string, string | string[] | number | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
  }
  return headers;
}

/**
 * Sends only the headers of a request that declares `contentLength` bytes, and resolves with the
 * answer. A server that refuses an oversized body answers from the headers alone and closes the
 * connection (Fastify sets `connection: close`); writing the body as well races that close and
 * fails with EPIPE, which is why fetch cannot test this reliably.
 */
export function declareOversizedBody(
  baseUrl: string,
  path: string,
  contentLength: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; data: unknown; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(contentLength), ...headers },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let data: unknown = text;
        try {
          data = JSON.parse(text);
        } catch {}
        req.destroy();
        resolve({ status: res.statusCode ?? 0, data, headers: res.headers });
      });
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}
