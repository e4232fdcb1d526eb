import WebSocket from 'ws';

export interface Message {
  type: string;
  /** The session the message concerns (null: none). */
  session_id: string | null;
  /** The request it answers, when that carried a `request_id`. */
  request_id?: string;
  data: Record<string, unknown>;
}

/** A test socket that records every message and lets a test wait for the next one of a type. */
export interface TestSocket {
  ws: WebSocket;
  /** Messages not yet taken by `next`. */
  messages: Message[];
  /** Every message received, in order. */
  all: Message[];
  closed: Promise<{ code: number; reason: string }>;
  opened: Promise<void>;
  next: (type: string, timeoutMs?: number) => Promise<Message>;
  send: (type: string, data: unknown, requestId?: string) => void;
}

/**
 * Opens `url` as the web client does: a `token` query parameter is taken out of the URL (the server
 * refuses tokens in URLs) and sent as the first `auth` message once the socket opens.
 */
export function openSocket(url: string): TestSocket {
  const parsed = new URL(url);
  const token = parsed.searchParams.get('token');
  parsed.searchParams.delete('token');
  const ws = new WebSocket(parsed.toString());
  if (token !== null) ws.once('open', () => ws.send(JSON.stringify({ type: 'auth', data: { token } })));
  const messages: Message[] = [];
  const all: Message[] = [];
  const waiters: { type: string; resolve: (m: Message) => void }[] = [];
  ws.on('message', (raw) => {
    const message = JSON.parse(raw.toString()) as Message;
    all.push(message);
    const waiter = waiters.findIndex((w) => w.type === message.type);
    if (waiter >= 0) waiters.splice(waiter, 1)[0].resolve(message);
    else messages.push(message);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const opened = new Promise<void>((resolve) => ws.once('open', () => resolve()));
  const next = (type: string, timeoutMs = 60_000) => {
    const seen = messages.find((m) => m.type === type);
    if (seen) {
      messages.splice(messages.indexOf(seen), 1);
      return Promise.resolve(seen);
    }
    return new Promise<Message>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no '${type}' message within ${timeoutMs} ms`)),
        timeoutMs,
      );
      waiters.push({
        type,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  };
  const send = (type: string, data: unknown, requestId?: string) =>
    ws.send(JSON.stringify({ type, data, ...(requestId ? { request_id: requestId } : {}) }));
  return { ws, messages, all, closed, opened, next, send };
}
