import {
  type ClientMessageInput,
  ClientMessageSchema,
  PROTOCOL_VERSION,
  readServerMessage,
  type ServerMessage,
  WS_CLOSE,
  WS_CLOSE_REASONS,
} from '@argus/protocol';
import type { SocketStatus } from '../../lib/screen-realtime';

/**
 * The realtime channel (docs/ARCHITECTURE.md, The socket): one WebSocket per signed-in user at `/ws/{userId}`
 * on this origin, JSON `{type, data}` both ways, shared by every screen. The token goes in the first
 * message, `{type: 'auth', data: {token}}`, never in the URL (proxies log URLs; the server refuses it
 * there), and nothing else is sent until the server answers `connection_established`.
 * Screens subscribe with `onMessage` and keep the messages of their own feature and session
 * (`featureOf(message)`, `message.session_id`). A message that does not parse is logged and counted
 * (`invalidMessages`), never passed on; a server of another protocol version is said plainly.
 */

/** docs/PRODUCT.md#connection: reconnect 3 s after an abnormal close; give up after 5 attempts in a row. */
export const RECONNECT_DELAY_MS = 3000;
export const MAX_RECONNECT_ATTEMPTS = 5;

/** The texts of docs/PRODUCT.md#connection. */
export const REALTIME_ERRORS = {
  connection: 'WebSocket connection error',
  create: 'Failed to create WebSocket connection',
  notConnected: 'WebSocket is not connected',
  gaveUp: 'Failed to connect after multiple attempts',
  unauthenticated: 'Authentication failed',
  outdated: 'Argus has been updated on the server. Reload the page to continue.',
} as const;

export interface RealtimeState {
  status: SocketStatus;
  lastError: string | null;
  /** The server's clock at authentication (from `connection_established`). */
  serverTime: string | null;
  /** Set when the server speaks another protocol version: the page must be reloaded. */
  protocolMismatch: { client: number; server: number } | null;
}

/** The part of the browser WebSocket the client uses (tests pass a fake). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type SocketFactory = (url: string) => SocketLike;

export interface RealtimeClientOptions {
  createSocket?: SocketFactory;
  /** Page location, for the ws:// or wss:// URL (default: window.location). */
  location?: { protocol: string; host: string };
  reconnectDelayMs?: number;
  maxReconnectAttempts?: number;
}

const OPEN = 1;
/** Closes after which the client does not reconnect: normal, going away, signed out. */
const FINAL_CLOSE_CODES = new Set<number>([WS_CLOSE.normal, WS_CLOSE.goingAway, WS_CLOSE.unauthenticated]);

/** `ws://host/ws/{userId}` (or wss:// on an https page); the token is sent once the socket opens. */
export function buildSocketUrl(location: { protocol: string; host: string }, userId: string) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/ws/${encodeURIComponent(userId)}`;
}

export type MessageListener = (message: ServerMessage) => void;

export class RealtimeClient {
  private state: RealtimeState = {
    status: 'disconnected',
    lastError: null,
    serverTime: null,
    protocolMismatch: null,
  };
  /** Server messages dropped because they did not parse, since the client was made. */
  private invalid = 0;
  private readonly stateListeners = new Set<() => void>();
  private readonly messageListeners = new Set<MessageListener>();
  private socket: SocketLike | null = null;
  private credentials: { userId: string; token: string; organizationId: string | null } | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** Failed connection attempts since the last successful one. */
  private failures = 0;
  private readonly options: Required<Omit<RealtimeClientOptions, 'location'>> & {
    location: { protocol: string; host: string } | null;
  };

  constructor(options: RealtimeClientOptions = {}) {
    const hasWindow = typeof window !== 'undefined';
    this.options = {
      createSocket: options.createSocket ?? ((url) => new WebSocket(url)),
      location: options.location ?? (hasWindow ? window.location : null),
      reconnectDelayMs: options.reconnectDelayMs ?? RECONNECT_DELAY_MS,
      maxReconnectAttempts: options.maxReconnectAttempts ?? MAX_RECONNECT_ATTEMPTS,
    };
  }

  // ---- state, for useSyncExternalStore ----------------------------------------------------------

  getState = (): RealtimeState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

  private setState(patch: Partial<RealtimeState>) {
    this.state = { ...this.state, ...patch };
    for (const listener of this.stateListeners) listener();
  }

  get isConnected(): boolean {
    return this.socket?.readyState === OPEN && this.state.status === 'connected';
  }

  /** How many server messages were dropped because they did not parse. */
  get invalidMessages(): number {
    return this.invalid;
  }

  /** Every valid incoming message, of every feature and session: the listener keeps its own. */
  onMessage(listener: MessageListener): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  // ---- connection -------------------------------------------------------------------------------

  /**
   * Opens the user's socket (or keeps the open one when nothing changed), acting in `organizationId`
   * (the sidebar's choice; null: the personal organization). Another organization opens a new socket.
   */
  connect(userId: string, token: string, organizationId: string | null = null): void {
    const same =
      this.credentials?.userId === userId &&
      this.credentials.token === token &&
      this.credentials.organizationId === organizationId;
    this.credentials = { userId, token, organizationId };
    if (same && this.socket && this.state.status !== 'error') return;
    this.failures = 0;
    this.open();
  }

  /** Closes for good (sign-out, unmount): no reconnect. */
  disconnect(): void {
    this.credentials = null;
    this.clearReconnect();
    this.dropSocket('clientDisconnect');
    this.setState({ status: 'disconnected', lastError: null, serverTime: null, protocolMismatch: null });
  }

  /** Tries again now (e.g. after giving up, or when the browser comes back online). */
  reconnect(): void {
    if (!this.credentials) return;
    this.failures = 0;
    this.open();
  }

  private clearReconnect() {
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private dropSocket(why: 'clientDisconnect' | 'reconnecting' | 'versionMismatch') {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onopen = socket.onclose = socket.onerror = socket.onmessage = null;
    const { code, reason } = WS_CLOSE_REASONS[why];
    try {
      socket.close(code, reason);
    } catch {
      // already closed
    }
  }

  private open() {
    const credentials = this.credentials;
    if (!credentials) return;
    this.clearReconnect();
    this.dropSocket('reconnecting');
    const location = this.options.location;
    if (!location) {
      this.setState({ status: 'error', lastError: REALTIME_ERRORS.create });
      return;
    }
    let socket: SocketLike;
    try {
      socket = this.options.createSocket(buildSocketUrl(location, credentials.userId));
    } catch (error) {
      console.error(REALTIME_ERRORS.create, error);
      this.setState({ status: 'error', lastError: REALTIME_ERRORS.create });
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.setState({ status: 'connecting' });

    socket.onopen = () => {
      // The server authenticates the token and then sends `connection_established`.
      if (this.socket !== socket) return;
      const data = credentials.organizationId
        ? { token: credentials.token, organization_id: credentials.organizationId }
        : { token: credentials.token };
      socket.send(JSON.stringify({ type: 'auth', data }));
    };
    socket.onmessage = (event) => {
      if (this.socket === socket) this.receive(event.data);
    };
    socket.onerror = (event) => {
      if (this.socket !== socket) return;
      console.error(REALTIME_ERRORS.connection, event);
      this.setState({ lastError: REALTIME_ERRORS.connection });
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.onClosed(event.code, event.reason);
    };
  }

  private onClosed(code: number, reason: string) {
    if (code === WS_CLOSE.unauthenticated) {
      console.warn('The realtime connection was refused:', reason || 'not authenticated');
      this.setState({ status: 'error', lastError: REALTIME_ERRORS.unauthenticated, serverTime: null });
      return;
    }
    if (FINAL_CLOSE_CODES.has(code)) {
      this.setState({ status: 'disconnected', serverTime: null });
      return;
    }
    this.setState({ status: 'disconnected', serverTime: null });
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    if (!this.credentials) return;
    this.failures += 1;
    if (this.failures > this.options.maxReconnectAttempts) {
      this.setState({ status: 'error', lastError: REALTIME_ERRORS.gaveUp });
      return;
    }
    this.clearReconnect();
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.open();
    }, this.options.reconnectDelayMs);
  }

  // ---- messages ---------------------------------------------------------------------------------

  private receive(raw: unknown) {
    if (typeof raw !== 'string') {
      this.dropInvalid('a binary frame', '');
      return;
    }
    const read = readServerMessage(raw);
    if (!read.ok) {
      // A server of another version greets in a shape this page may not read: say so, do not guess.
      if (read.protocolVersion !== null && read.protocolVersion !== PROTOCOL_VERSION) {
        this.versionMismatch(read.protocolVersion);
        return;
      }
      this.dropInvalid(read.type ? `'${read.type}': ${read.reason}` : read.reason, raw);
      return;
    }
    const message = read.message;
    if (message.type === 'connection_established') {
      if (message.data.protocol_version !== PROTOCOL_VERSION) {
        this.versionMismatch(message.data.protocol_version);
        return;
      }
      this.failures = 0;
      this.setState({
        status: 'connected',
        lastError: null,
        serverTime: message.data.server_time,
        protocolMismatch: null,
      });
    }
    for (const listener of this.messageListeners) {
      try {
        listener(message);
      } catch (error) {
        console.error('A realtime message listener failed', error);
      }
    }
  }

  /** Logged and counted, never passed on. */
  private dropInvalid(what: string, raw: string) {
    this.invalid += 1;
    console.warn(
      `Dropped an unreadable realtime message (${this.invalid} so far): ${what}`,
      raw.slice(0, 200),
    );
  }

  /**
   * The server speaks another protocol version (it was updated, or this page is newer): messages
   * could be misread both ways, so the socket is closed for good and the user is asked to reload.
   */
  private versionMismatch(server: number) {
    console.warn(
      `The server speaks realtime protocol version ${server}; this page speaks ${PROTOCOL_VERSION}.`,
    );
    this.clearReconnect();
    this.dropSocket('versionMismatch');
    this.setState({
      status: 'error',
      lastError: REALTIME_ERRORS.outdated,
      serverTime: null,
      protocolMismatch: { client: PROTOCOL_VERSION, server },
    });
  }

  /**
   * Sends a client message after checking it against the protocol. Refused (throws) until the server
   * has confirmed authentication: 'WebSocket is not connected' (before that the server reads only
   * a small `auth` message).
   */
  send(message: ClientMessageInput): void {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN || this.state.status !== 'connected')
      throw new Error(REALTIME_ERRORS.notConnected);
    const parsed = ClientMessageSchema.safeParse(message);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const where = first?.path.length ? ` at ${first.path.join('.')}` : '';
      throw new Error(
        `Invalid ${String(message.type)} message${where}: ${first?.message ?? 'unknown error'}`,
      );
    }
    socket.send(JSON.stringify(message));
  }
}
