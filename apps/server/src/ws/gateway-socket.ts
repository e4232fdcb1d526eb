import type { UserRow } from '@argus/db';
import {
  CLIENT_MESSAGE_FEATURE,
  type ClientMessage,
  type ClientMessageType,
  describeClientFrame,
  type ErrorCode,
  PROTOCOL_VERSION,
  parseClientMessage,
  roleNeeded,
  SOCKET_ACTIONS,
  sessionIdOf,
  WS_AUTH_TIMEOUT_MS,
  WS_CLOSE_REASONS,
  WS_MAX_PAYLOAD_BYTES,
  WS_PREAUTH_MAX_PAYLOAD_BYTES,
  WS_PREAUTH_MAX_PENDING,
  type WsCloseReason,
} from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { Services } from '../app-services';
import { checkJsonShape } from '../body-limits';
import { AppError } from '../errors';
import { checkRole, type OrgAccess } from '../orgs/org-access';
import type { OrgContext } from '../orgs/org-context';
import { dispatch, errorAbout, type MessageHandlers, messageContext } from './message-handlers';
import type { RealtimeHub } from './realtime-hub';
import { limitPayload, RefusalCounter, type SocketCounts, stopReading, TokenBucket } from './socket-limits';

/** The window over which a socket's refused messages are counted (more than WS_MESSAGE_BURST: closed). */
const FLOOD_WINDOW_MS = 10_000;
/** A refused frame larger than this is not read to address its refusal: it goes to `connection`. */
const DESCRIBE_REFUSED_MAX_BYTES = 64 * 1024;

/** What the gateway uses of the app's services (app.ts hands it only these). */
export type GatewayServices = {
  auth: Pick<Services['auth'], 'userFromToken'>;
  /** The organization a socket acts in, and the role each message needs (the permission table). */
  orgs: OrgAccess;
  config: Pick<
    Services['config'],
    | 'wsMaxBufferedBytes'
    | 'wsMessagesPerSecond'
    | 'wsMessageBurst'
    | 'wsMaxInFlight'
    | 'maxSocketsPerUser'
    | 'maxSocketsPerAddress'
  >;
};

/** A parsed message as `describeClientFrame` tells an unparsed one (without reading it again). */
function aboutMessage(message: ClientMessage): ReturnType<typeof describeClientFrame> {
  return {
    type: message.type,
    feature: CLIENT_MESSAGE_FEATURE[message.type],
    session_id: sessionIdOf(message),
    ...(message.request_id ? { request_id: message.request_id } : {}),
  };
}

/** What every socket of the gateway shares. */
export interface GatewayShared extends GatewayServices {
  hub: RealtimeHub;
  handlers: MessageHandlers;
  /** Sockets per client address. */
  perAddress: SocketCounts;
  /** Called when this version of ws cannot limit a socket's payload (the gateway warns once). */
  noPayloadLimit: (log: FastifyBaseLogger) => void;
}

/** The socket's request as the gateway reads it. */
export interface SocketRequest {
  userId: string;
  /** A `?token=` in the URL (refused: proxies log URLs). */
  tokenInUrl: boolean;
  ip: string;
  log: FastifyBaseLogger;
}

/**
 * One socket of `/ws/{userId}`, from its opening to its close: refused frames before authentication,
 * the `auth` message (frames arriving meanwhile wait, in order), then each message limited (token
 * bucket, number in flight, closed after repeated refusals), parsed and dispatched to its handler.
 */
export class GatewaySocket {
  private user: UserRow | null = null;
  /** The organization the socket acts in, chosen by its `auth` message. */
  private org: OrgContext | null = null;
  private authenticating = false;
  /** Frames that arrive while the auth message is being checked wait for the verdict, in order. */
  private readonly pending: string[] = [];
  private readonly timer: NodeJS.Timeout;
  private readonly bucket: TokenBucket;
  private readonly refusals: RefusalCounter;
  private inFlight = 0;
  private readonly log: FastifyBaseLogger;

  constructor(
    private readonly socket: WebSocket,
    private readonly request: SocketRequest,
    private readonly shared: GatewayShared,
  ) {
    const { config, perAddress } = shared;
    this.log = request.log.child({ ws: request.userId });
    // Before anything is read: an unauthenticated socket may only send a small frame.
    const limited = limitPayload(socket, WS_PREAUTH_MAX_PAYLOAD_BYTES, () => {
      this.reject(this.user ? 'tooLarge' : 'preAuthTooLarge');
      stopReading(socket);
    });
    if (!limited) shared.noPayloadLimit(this.log);
    perAddress.add(request.ip);
    this.timer = setTimeout(() => this.reject('authTimeout'), WS_AUTH_TIMEOUT_MS);
    this.bucket = new TokenBucket(config.wsMessagesPerSecond, config.wsMessageBurst);
    this.refusals = new RefusalCounter(config.wsMessageBurst, FLOOD_WINDOW_MS);
    socket.on('message', (raw, isBinary) => this.received(raw as Buffer, isBinary));
    socket.on('close', () => this.closed());
    socket.on('error', (error: Error & { code?: string }) => {
      // A frame over the limit is an attacker's (or a bug's) doing, closed with its reason: one
      // warning per such socket would let a flood of them flood the log too.
      if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH')
        this.log.debug({ err: error }, 'frame too large');
      else this.log.warn({ err: error }, 'socket error');
    });
    if (request.tokenInUrl) this.reject('tokenInUrl');
    else if (perAddress.get(request.ip) > config.maxSocketsPerAddress)
      this.reject('tooManySocketsForAddress');
  }

  private reject(why: WsCloseReason): void {
    const { code, reason } = WS_CLOSE_REASONS[why];
    if (this.socket.readyState === this.socket.OPEN) this.socket.close(code, reason);
  }

  private received(raw: Buffer, isBinary: boolean): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (!this.user) {
      const text = isBinary ? '' : raw.toString();
      if (!this.authenticating) void this.handle(text);
      else if (this.pending.length >= WS_PREAUTH_MAX_PENDING) this.reject('preAuthFlood');
      else this.pending.push(text);
      return;
    }
    const { config } = this.shared;
    // Refused before the frame is handled: a flood costs the server as little as possible.
    if (!this.bucket.take()) {
      this.refuse(
        raw,
        isBinary,
        `Too many messages: at most ${config.wsMessagesPerSecond} a second with a burst of ${config.wsMessageBurst} per socket (WS_MESSAGES_PER_SECOND, WS_MESSAGE_BURST); this one was dropped.`,
      );
      return;
    }
    if (this.inFlight >= config.wsMaxInFlight) {
      this.refuse(
        raw,
        isBinary,
        `Too many messages in progress on this socket: at most ${config.wsMaxInFlight} at once (WS_MAX_IN_FLIGHT); this one was dropped.`,
      );
      return;
    }
    this.inFlight++;
    void this.handle(isBinary ? '' : raw.toString()).finally(() => {
      this.inFlight--;
    });
  }

  /** A message refused for a limit: said with an `error` naming it; a socket that keeps on is closed. */
  private refuse(raw: Buffer, isBinary: boolean, message: string): void {
    if (this.refusals.add()) {
      this.reject('messageFlood');
      return;
    }
    // Addressed to its screen when that is cheap to read; a large refused frame is not decoded.
    const about =
      !isBinary && raw.length <= DESCRIBE_REFUSED_MAX_BYTES
        ? describeClientFrame(raw.toString())
        : { feature: 'connection' as const, session_id: null };
    this.shared.hub.send(this.socket, {
      ...errorAbout({ feature: about.feature, sessionId: about.session_id }, message, 'RATE_LIMITED'),
      ...(about.request_id ? { request_id: about.request_id } : {}),
    });
  }

  private async authenticate(token: string, organizationId: string | undefined): Promise<void> {
    const { auth, config, hub, orgs } = this.shared;
    const { socket } = this;
    this.authenticating = true;
    try {
      const found = await auth.userFromToken(token);
      if (found.id !== this.request.userId) return this.reject('tokenForeign');
      // An organization the user is not in (a stale choice) falls back to their personal one.
      const org = await orgs.forLogin(found, organizationId, 'self');
      if (socket.readyState !== socket.OPEN) return;
      clearTimeout(this.timer);
      // Counted and added in one synchronous step, so concurrent sign-ins cannot both slip in.
      if (hub.connectionCount(found.id) >= config.maxSocketsPerUser)
        return this.reject('tooManySocketsForUser');
      this.user = found;
      this.org = org;
      limitPayload(socket, WS_MAX_PAYLOAD_BYTES);
      hub.add(found.id, socket, org.id);
      hub.send(socket, {
        type: 'connection_established',
        session_id: null,
        data: {
          user_id: found.id,
          server_time: new Date().toISOString(),
          protocol_version: PROTOCOL_VERSION,
        },
      });
      for (const text of this.pending.splice(0)) await this.handle(text);
    } catch (error) {
      // A token the auth service refuses, or a failure to check it at all.
      this.reject(error instanceof AppError ? 'tokenInvalid' : 'authFailed');
    } finally {
      this.authenticating = false;
    }
  }

  private async handle(text: string): Promise<void> {
    const { hub, handlers } = this.shared;
    // The same nesting and size bounds as request bodies, checked on the raw text before parsing.
    let parsed: ReturnType<typeof parseClientMessage>;
    try {
      checkJsonShape(text);
      parsed = parseClientMessage(text);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      parsed = { ok: false, reason: String(error.detail) };
    }
    if (!this.user) {
      // Before authentication only an `auth` message is acceptable.
      if (parsed.ok && parsed.message.type === 'auth') {
        await this.authenticate(parsed.message.data.token, parsed.message.data.organization_id);
      } else this.reject('authFirst');
      return;
    }
    // Who may send it before whether it is well formed: the permission table by the frame's type.
    const about = parsed.ok ? aboutMessage(parsed.message) : describeClientFrame(text);
    const answerRefusal = (message: string, code: ErrorCode) =>
      hub.send(this.socket, {
        ...errorAbout({ feature: about.feature, sessionId: about.session_id }, message, code),
        ...(about.request_id ? { request_id: about.request_id } : {}),
      });
    let org = this.org as OrgContext;
    if (about.type) {
      try {
        org = await this.roleFor(about.type);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return answerRefusal(String(error.message), error.code);
      }
    }
    // Addressed as far as the frame can tell: its feature, session and request, if readable.
    if (!parsed.ok) return answerRefusal(parsed.reason, 'VALIDATION');
    const signedIn = this.user;
    const ctx = messageContext(signedIn, org, parsed.message, {
      toSender: (message) => hub.send(this.socket, message),
      toUser: (message) => hub.sendToUser(signedIn.id, message),
    });
    try {
      await dispatch(handlers, parsed.message, ctx);
    } catch (error) {
      if (error instanceof AppError) {
        ctx.reply(errorAbout(ctx, String(error.message), error.code));
      } else {
        this.log.error({ err: error, type: parsed.message.type }, 'socket handler failed');
        ctx.reply(errorAbout(ctx, 'Internal server error', 'INTERNAL'));
      }
    }
  }

  /**
   * The socket's organization with the user's role as of now, checked against what `type` needs
   * (the permission table): a role changed or a membership ended since the socket opened counts at
   * once. Messages that need no role (the user's own work) are not looked up.
   */
  private async roleFor(type: ClientMessageType): Promise<OrgContext> {
    const org = this.org as OrgContext;
    const action = SOCKET_ACTIONS[type];
    if (roleNeeded(action) === null) return org;
    const now = await this.shared.orgs.forLogin(this.user as UserRow, org.id, action);
    if (now.id !== org.id) throw new AppError('ORGANIZATION_NOT_FOUND');
    checkRole(now, action);
    return now;
  }

  private closed(): void {
    clearTimeout(this.timer);
    this.shared.perAddress.remove(this.request.ip);
    if (this.user) this.shared.hub.remove(this.user.id, this.socket);
  }
}
