import { PROTOCOL_VERSION, type ServerMessage } from '@argus/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  buildSocketUrl,
  MAX_RECONNECT_ATTEMPTS,
  RECONNECT_DELAY_MS,
  RealtimeClient,
  type SocketLike,
} from './realtime-client';

/** A WebSocket stand-in the test drives by hand. */
class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  closedWith: number | null = null;
  closedReason: string | null = null;
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;

  constructor(readonly url: string) {}

  send(data: string) {
    this.sent.push(data);
  }

  close(code = 1000, reason = '') {
    this.closedWith = code;
    this.closedReason = reason;
    this.readyState = 3;
  }

  // ---- test controls ----
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  receive(data: unknown) {
    this.onmessage?.({ data: typeof data === 'string' ? data : JSON.stringify(data) } as MessageEvent);
  }

  established(protocolVersion = PROTOCOL_VERSION) {
    this.open();
    this.receive({
      type: 'connection_established',
      session_id: null,
      data: { user_id: 'u1', server_time: '2026-01-01T00:00:00Z', protocol_version: protocolVersion },
    });
  }

  drop(code: number, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason } as CloseEvent);
  }

  fail() {
    this.onerror?.(new Event('error'));
  }
}

describe('RealtimeClient', () => {
  let sockets: FakeSocket[];
  let client: RealtimeClient;
  const latest = () => sockets[sockets.length - 1];

  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    sockets = [];
    client = new RealtimeClient({
      createSocket: (url) => {
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket;
      },
      location: { protocol: 'https:', host: 'argus.example:8443' },
    });
  });

  afterEach(() => {
    client.disconnect();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('opens /ws/{userId} on the page origin (wss on https) with no token in the URL, and sends it as the first message', () => {
    client.connect('u 1', 't/k');
    expect(latest().url).toBe('wss://argus.example:8443/ws/u%201');
    expect(buildSocketUrl({ protocol: 'http:', host: 'localhost:8080' }, 'u1')).toBe(
      'ws://localhost:8080/ws/u1',
    );
    expect(latest().sent).toEqual([]);
    latest().open();
    expect(latest().sent.map((m) => JSON.parse(m))).toEqual([{ type: 'auth', data: { token: 't/k' } }]);
  });

  it('names the current organization in the auth message, and opens a new socket when it changes', () => {
    client.connect('u1', 'tok', 'org-a');
    const first = latest();
    first.open();
    expect(first.sent.map((m) => JSON.parse(m))).toEqual([
      { type: 'auth', data: { token: 'tok', organization_id: 'org-a' } },
    ]);
    client.connect('u1', 'tok', 'org-a');
    expect(latest()).toBe(first);
    client.connect('u1', 'tok', null);
    expect(latest()).not.toBe(first);
    expect(first.closedWith).not.toBeNull();
    latest().open();
    expect(latest().sent.map((m) => JSON.parse(m))).toEqual([{ type: 'auth', data: { token: 'tok' } }]);
  });

  it('is connected once the server confirms authentication', () => {
    client.connect('u1', 'tok');
    expect(client.getState().status).toBe('connecting');
    latest().established();
    expect(client.getState()).toMatchObject({ status: 'connected', lastError: null });
    expect(client.isConnected).toBe(true);
  });

  it('hands every valid message to its listeners, of every feature and session, and fires no window event', () => {
    const heard: ServerMessage[] = [];
    const dispatched = vi.spyOn(EventTarget.prototype, 'dispatchEvent');
    client.onMessage((message) => heard.push(message));
    client.connect('u1', 'tok');
    latest().established();
    latest().receive({ type: 'progress_update', session_id: 's1', data: { message: 'Crawling' } });
    latest().receive({
      type: 'error',
      session_id: 's2',
      request_id: 'r7',
      data: { message: 'No browser free', code: 'BROWSER_LIMIT_REACHED', feature: 'conversational' },
    });
    expect(heard.map((m) => [m.type, m.session_id])).toEqual([
      ['connection_established', null],
      ['progress_update', 's1'],
      ['error', 's2'],
    ]);
    expect(heard[2]).toMatchObject({ request_id: 'r7', data: { feature: 'conversational' } });
    expect(dispatched).not.toHaveBeenCalled();
  });

  it('logs and counts messages it cannot read, and passes none of them on', () => {
    const heard: unknown[] = [];
    client.onMessage((message) => heard.push(message));
    client.connect('u1', 'tok');
    latest().established();
    heard.length = 0;
    latest().receive('not json');
    latest().receive({ type: 'progress_update', session_id: null, data: { message: 42 } });
    latest().receive({ type: 'no_such_type', session_id: null, data: {} });
    // Version 1's shape (no session_id) is not this version's.
    latest().receive({ type: 'progress_update', data: { message: 'Crawling' } });
    latest().onmessage?.({ data: new ArrayBuffer(4) } as MessageEvent);
    expect(heard).toEqual([]);
    expect(client.invalidMessages).toBe(5);
    expect(console.warn).toHaveBeenCalledTimes(5);
    expect(client.getState().status).toBe('connected');
  });

  it('says so when the server speaks another protocol version, and stops instead of misreading it', () => {
    const heard: unknown[] = [];
    client.onMessage((message) => heard.push(message));
    client.connect('u1', 'tok');
    latest().established(PROTOCOL_VERSION + 1);
    expect(client.getState()).toMatchObject({
      status: 'error',
      lastError: 'Argus has been updated on the server. Reload the page to continue.',
      protocolMismatch: { client: PROTOCOL_VERSION, server: PROTOCOL_VERSION + 1 },
    });
    expect(heard).toEqual([]);
    expect([latest().closedWith, latest().closedReason]).toEqual([1000, 'Protocol version mismatch']);
    vi.advanceTimersByTime(RECONNECT_DELAY_MS * 10);
    expect(sockets).toHaveLength(1);
  });

  it('reads a greeting of an older server (no protocol_version: version 1) as a mismatch', () => {
    client.connect('u1', 'tok');
    latest().open();
    latest().receive({
      type: 'connection_established',
      data: { user_id: 'u1', server_time: '2026-01-01T00:00:00Z' },
    });
    expect(client.getState().protocolMismatch).toEqual({ client: PROTOCOL_VERSION, server: 1 });
    expect(client.invalidMessages).toBe(0);
  });

  it('refuses to send while disconnected, and while open but not yet authenticated', () => {
    expect(() => client.send({ type: 'stop_comparison', data: {} })).toThrow('WebSocket is not connected');
    client.connect('u1', 'tok');
    expect(() => client.send({ type: 'stop_comparison', data: {} })).toThrow('WebSocket is not connected');
    latest().open();
    expect(() => client.send({ type: 'stop_comparison', data: {} })).toThrow('WebSocket is not connected');
    expect(latest().sent.map((m) => JSON.parse(m).type)).toEqual(['auth']);
  });

  it('validates outgoing messages against the protocol', () => {
    client.connect('u1', 'tok');
    latest().established();
    client.send({ type: 'generate_test_cases', data: { url: 'https://shop.example', session_id: 's1' } });
    expect(JSON.parse(latest().sent[1])).toEqual({
      type: 'generate_test_cases',
      data: { url: 'https://shop.example', session_id: 's1' },
    });
    expect(() =>
      client.send({ type: 'generate_test_cases', data: { url: 'not a url', session_id: 's1' } }),
    ).toThrow(/Invalid generate_test_cases message at data.url/);
    expect(latest().sent).toHaveLength(2);
  });

  it('reconnects 3 s after an abnormal close', () => {
    client.connect('u1', 'tok');
    latest().established();
    latest().fail();
    expect(client.getState().lastError).toBe('WebSocket connection error');
    latest().drop(1006);
    expect(client.getState().status).toBe('disconnected');
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(RECONNECT_DELAY_MS - 1);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    latest().established();
    expect(client.getState()).toMatchObject({ status: 'connected', lastError: null });
  });

  it.each([
    [1000, 'disconnected'],
    [1001, 'disconnected'],
    [4401, 'error'],
  ])('does not reconnect after close code %i', (code, status) => {
    client.connect('u1', 'tok');
    latest().established();
    latest().drop(code);
    vi.advanceTimersByTime(RECONNECT_DELAY_MS * 10);
    expect(sockets).toHaveLength(1);
    expect(client.getState().status).toBe(status);
  });

  it('gives up after repeated failures and says so', () => {
    client.connect('u1', 'tok');
    for (let i = 0; i <= MAX_RECONNECT_ATTEMPTS; i++) {
      latest().drop(1006);
      vi.advanceTimersByTime(RECONNECT_DELAY_MS);
    }
    expect(sockets).toHaveLength(MAX_RECONNECT_ATTEMPTS + 1);
    expect(client.getState()).toMatchObject({
      status: 'error',
      lastError: 'Failed to connect after multiple attempts',
    });
    client.reconnect();
    expect(sockets).toHaveLength(MAX_RECONNECT_ATTEMPTS + 2);
  });

  it('reports a socket that cannot be created', () => {
    const broken = new RealtimeClient({
      createSocket: () => {
        throw new SyntaxError('bad url');
      },
      location: { protocol: 'http:', host: 'x' },
    });
    broken.connect('u1', 'tok');
    expect(broken.getState()).toMatchObject({
      status: 'error',
      lastError: 'Failed to create WebSocket connection',
    });
    broken.disconnect();
  });

  it('closes normally on disconnect and ignores the old socket afterwards', () => {
    client.connect('u1', 'tok');
    const first = latest();
    first.established();
    client.disconnect();
    expect([first.closedWith, first.closedReason]).toEqual([1000, 'Client disconnect']);
    expect(client.getState().status).toBe('disconnected');
    first.drop(1006);
    vi.advanceTimersByTime(RECONNECT_DELAY_MS * 2);
    expect(sockets).toHaveLength(1);
  });

  it('opens a new socket when the user or token changes', () => {
    client.connect('u1', 'tok');
    client.connect('u1', 'tok');
    expect(sockets).toHaveLength(1);
    client.connect('u2', 'tok2');
    expect(sockets).toHaveLength(2);
    expect(sockets[0].closedWith).toBe(1000);
  });
});
