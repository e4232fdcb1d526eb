import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * The server, as the command line talks to it: node:http rather than fetch, because fetch (undici) gives
 * up on an answer after 300 s without headers, and a generation answers only when it is over.
 */
export interface Connection {
  /** e.g. http://127.0.0.1:8080 (no trailing slash). */
  server: string;
  /** `argus_…`, sent only as `Authorization: Bearer`, never in a URL. */
  token: string;
}

/** The server answered with an error status: its `{detail, code}`, as errors.ts of the protocol says. */
export class HttpError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly code: string | null,
    readonly detail: string,
  ) {
    super(`${status}${code ? ` ${code}` : ''}: ${detail}`);
  }
}

/** The server could not be reached (refused, unknown host, timed out, connection lost). */
export class UnreachableError extends Error {
  constructor(
    readonly server: string,
    readonly reason: string,
  ) {
    super(`server unreachable at ${server} (${reason})`);
  }
}

/** The server answered something the command line cannot read (not JSON, or not the expected shape). */
export class AnswerError extends Error {}

export interface RequestOptions {
  body?: unknown;
  /** Without a byte from the server for this long the request fails. @default 30 s */
  idleTimeoutMs?: number;
  signal?: AbortSignal;
  accept?: string;
}

/** Opens a request and resolves with the response as soon as its headers arrive (its body unread). */
export function open(
  connection: Connection,
  method: string,
  path: string,
  { body, idleTimeoutMs = 30_000, signal, accept = 'application/json' }: RequestOptions = {},
): Promise<IncomingMessage> {
  // Relative to the server's URL, so an Argus behind a path (https://ci.example/argus) works too.
  const url = new URL(path.replace(/^\//, ''), `${connection.server.replace(/\/+$/, '')}/`);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method,
      signal,
      headers: {
        accept,
        authorization: `Bearer ${connection.token}`,
        'user-agent': 'argus-cli',
        ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
      },
    });
    req.setTimeout(idleTimeoutMs, () =>
      req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
    );
    req.once('response', resolve);
    req.once('error', (error: NodeJS.ErrnoException) => {
      if (error.name === 'AbortError') reject(error);
      else reject(new UnreachableError(connection.server, error.code ?? error.message));
    });
    req.end(payload);
  });
}

/** The whole body of a response, as text. */
export async function readText(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The `{detail, code}` of an error answer, in one line (a validation error's first issue). */
export function errorOf(method: string, path: string, status: number, text: string): HttpError {
  let code: string | null = null;
  let detail = text.trim().split('\n')[0]?.slice(0, 300) || `HTTP ${status}`;
  try {
    const parsed = JSON.parse(text) as { detail?: unknown; code?: unknown };
    if (typeof parsed.code === 'string') code = parsed.code;
    if (typeof parsed.detail === 'string') detail = parsed.detail;
    else if (Array.isArray(parsed.detail) && parsed.detail.length > 0) {
      const issue = parsed.detail[0] as { loc?: unknown[]; msg?: string };
      const where = Array.isArray(issue.loc) ? issue.loc.join('.') : '';
      detail = `${where ? `${where}: ` : ''}${issue.msg ?? 'invalid'}`;
    }
  } catch {
    // not JSON: the first line of the text, as it is
  }
  return new HttpError(method, path, status, code, detail);
}

/** A JSON request: the parsed answer of a 2xx, else HttpError; not JSON: AnswerError. */
export async function requestJson(
  connection: Connection,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<unknown> {
  const response = await open(connection, method, path, options);
  const text = await readText(response).catch((error: NodeJS.ErrnoException) => {
    throw new UnreachableError(connection.server, error.code ?? error.message);
  });
  const status = response.statusCode ?? 0;
  if (status < 200 || status >= 300) throw errorOf(method, path, status, text);
  if (status === 202 && text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    const type = response.headers['content-type'] ?? 'no content type';
    throw new AnswerError(
      `${method} ${path} answered ${status} with ${type}, not JSON: is ${connection.server} an Argus server?`,
    );
  }
}

/** A download: the body of a 2xx as text, else HttpError. */
export async function requestText(
  connection: Connection,
  path: string,
  accept: string,
  options: RequestOptions = {},
): Promise<string> {
  const response = await open(connection, 'GET', path, { ...options, accept });
  const text = await readText(response).catch((error: NodeJS.ErrnoException) => {
    throw new UnreachableError(connection.server, error.code ?? error.message);
  });
  const status = response.statusCode ?? 0;
  if (status < 200 || status >= 300) throw errorOf('GET', path, status, text);
  return text;
}

/** One server-sent event: its `event:` name (or 'message') and its `data:` lines joined. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Splits a text/event-stream into events (the WHATWG rules that matter here: `event:` and `data:`
 * fields, a blank line ends an event, `:` lines are comments, CRLF or LF line ends).
 */
export async function* serverSentEvents(
  stream: AsyncIterable<Buffer | string>,
): AsyncGenerator<ServerSentEvent> {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    for (;;) {
      const end = buffer.search(/\r\n|\r|\n/);
      // A CR at the very end may be the first half of a CRLF split between chunks.
      if (end === -1 || (end === buffer.length - 1 && buffer[end] === '\r')) break;
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
      if (line === '') {
        if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
  }
}
