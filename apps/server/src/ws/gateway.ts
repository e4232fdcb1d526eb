import type { UserRow } from '@argus/db';
import {
  describeClientFrame,
  PROTOCOL_VERSION,
  parseClientMessage,
  WS_AUTH_TIMEOUT_MS,
  WS_CLOSE_REASONS,
  WS_MAX_PAYLOAD_BYTES,
  WS_PREAUTH_MAX_PAYLOAD_BYTES,
  WS_PREAUTH_MAX_PENDING,
  type WsCloseReason,
} from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { Services } from '../app-services';
import { checkJsonShape } from '../body-limits';
import { AppError } from '../errors';
import { dispatch, errorAbout, type MessageHandlers, messageContext } from './message-handlers';
import type { RealtimeHub } from './realtime-hub';
import { limitPayload, RefusalCounter, SocketCounts, stopReading, TokenBucket } from './socket-limits';

const HEARTBEAT_MS = 30_000;
/** The window over which a socket's refused messages are counted (more than WS_MESSAGE_BURST: closed). */
const FLOOD_WINDOW_MS = 10_000;
/** A refused frame larger than this is not read to address its refusal: it goes to `connection`. */
const DESCRIBE_REFUSED_MAX_BYTES = 64 * 1024;

/** What the gateway uses of the app's services (app.ts hands it only these). */
export type GatewayServices = {
  auth: Pick<Services['auth'], 'userFromToken'>;
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

/**
 * `/ws/{userId}`: the token comes as a first `auth` message within a few seconds (docs/ARCHITECTURE.md, The socket); a
 * missing, invalid or foreign token closes the socket with 4401, and so does a `?token=` in the URL
 * (proxies log URLs). Until then a frame may be at most WS_PREAUTH_MAX_PAYLOAD_BYTES, refused at its
 * header. Sockets are capped per user and per client address; each socket's messages are limited
 * by a token bucket and a number in flight, and a socket that keeps sending after refusals is closed.
 */
export async function gatewayRoutes(
  app: FastifyInstance,
  { auth, config, hub, handlers }: GatewayServices & { hub: RealtimeHub; handlers: MessageHandlers },
) {
  const alive = new WeakMap<WebSocket, boolean>();
  const heartbeat = setInterval(() => {
    for (const client of app.websocketServer.clients) {
      if (alive.get(client) === false) {
        client.terminate();
        continue;
      }
      alive.set(client, false);
      client.ping();
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  app.addHook('onClose', async () => clearInterval(heartbeat));

  hub.setSendLimit(config.wsMaxBufferedBytes);
  const perAddress = new SocketCounts();
  let payloadLimitWarned = false;

  app.get<{ Params: { userId: string }; Querystring: { token?: string } }>(
    '/ws/:userId',
    { websocket: true },
    (socket, request) => {
      const { userId } = request.params;
      const log = request.log.child({ ws: userId });
      let user: UserRow | null = null;
      let authenticating = false;
      // Frames that arrive while the auth message is being checked wait for the verdict, in order.
      const pending: string[] = [];
      alive.set(socket, true);
      socket.on('pong', () => alive.set(socket, true));

      const reject = (why: WsCloseReason) => {
        const { code, reason } = WS_CLOSE_REASONS[why];
        if (socket.readyState === socket.OPEN) socket.close(code, reason);
      };
      // Before anything is read: an unauthenticated socket may only send a small frame.
      const limited = limitPayload(socket, WS_PREAUTH_MAX_PAYLOAD_BYTES, () => {
        reject(user ? 'tooLarge' : 'preAuthTooLarge');
        stopReading(socket);
      });
      if (!limited && !payloadLimitWarned) {
        payloadLimitWarned = true;
        log.error('this version of ws has no per-socket payload limit: unauthenticated frames may be large');
      }
      const address = request.ip;
      perAddress.add(address);
      const timer = setTimeout(() => reject('authTimeout'), WS_AUTH_TIMEOUT_MS);
      const bucket = new TokenBucket(config.wsMessagesPerSecond, config.wsMessageBurst);
      const refusals = new RefusalCounter(config.wsMessageBurst, FLOOD_WINDOW_MS);
      let inFlight = 0;

      const authenticate = async (token: string) => {
        authenticating = true;
        try {
          const found = await auth.userFromToken(token);
          if (found.id !== userId) return reject('tokenForeign');
          if (socket.readyState !== socket.OPEN) return;
          clearTimeout(timer);
          // Counted and added in one synchronous step, so concurrent sign-ins cannot both slip in.
          if (hub.connectionCount(found.id) >= config.maxSocketsPerUser)
            return reject('tooManySocketsForUser');
          user = found;
          limitPayload(socket, WS_MAX_PAYLOAD_BYTES);
          hub.add(found.id, socket);
          hub.send(socket, {
            type: 'connection_established',
            session_id: null,
            data: {
              user_id: found.id,
              server_time: new Date().toISOString(),
              protocol_version: PROTOCOL_VERSION,
            },
          });
          for (const text of pending.splice(0)) await handle(text);
        } catch (error) {
          // A token the auth service refuses, or a failure to check it at all.
          reject(error instanceof AppError ? 'tokenInvalid' : 'authFailed');
        } finally {
          authenticating = false;
        }
      };

      /** A message refused for a limit: said with an `error` naming it; a socket that keeps on is closed. */
      const refuse = (raw: Buffer, isBinary: boolean, message: string) => {
        if (refusals.add()) return reject('messageFlood');
        // Addressed to its screen when that is cheap to read; a large refused frame is not decoded.
        const about =
          !isBinary && raw.length <= DESCRIBE_REFUSED_MAX_BYTES
            ? describeClientFrame(raw.toString())
            : { feature: 'connection' as const, session_id: null };
        hub.send(socket, {
          ...errorAbout({ feature: about.feature, sessionId: about.session_id }, message, 'RATE_LIMITED'),
          ...(about.request_id ? { request_id: about.request_id } : {}),
        });
      };

      socket.on('message', (raw, isBinary) => {
        if (socket.readyState !== socket.OPEN) return;
        if (!user) {
          const text = isBinary ? '' : raw.toString();
          if (!authenticating) void handle(text);
          else if (pending.length >= WS_PREAUTH_MAX_PENDING) reject('preAuthFlood');
          else pending.push(text);
          return;
        }
        // Refused before the frame is handled: a flood costs the server as little as possible.
        if (!bucket.take()) {
          refuse(
            raw as Buffer,
            isBinary,
            `Too many messages: at most ${config.wsMessagesPerSecond} a second with a burst of ${config.wsMessageBurst} per socket (WS_MESSAGES_PER_SECOND, WS_MESSAGE_BURST); this one was dropped.`,
          );
          return;
        }
        if (inFlight >= config.wsMaxInFlight) {
          refuse(
            raw as Buffer,
            isBinary,
            `Too many messages in progress on this socket: at most ${config.wsMaxInFlight} at once (WS_MAX_IN_FLIGHT); this one was dropped.`,
          );
          return;
        }
        inFlight++;
        void handle(isBinary ? '' : raw.toString()).finally(() => {
          inFlight--;
        });
      });

      const handle = async (text: string) => {
        // The same nesting and size bounds as request bodies, checked on the raw text before parsing.
        let parsed: ReturnType<typeof parseClientMessage>;
        try {
          checkJsonShape(text);
          parsed = parseClientMessage(text);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          parsed = { ok: false, reason: String(error.detail) };
        }
        if (!user) {
          // Before authentication only an `auth` message is acceptable.
          if (parsed.ok && parsed.message.type === 'auth') await authenticate(parsed.message.data.token);
          else reject('authFirst');
          return;
        }
        if (!parsed.ok) {
          // Addressed as far as the frame can tell: its feature, session and request, if readable.
          const about = describeClientFrame(text);
          hub.send(socket, {
            ...errorAbout(
              { feature: about.feature, sessionId: about.session_id },
              parsed.reason,
              'VALIDATION',
            ),
            ...(about.request_id ? { request_id: about.request_id } : {}),
          });
          return;
        }
        const signedIn = user;
        const ctx = messageContext(signedIn, parsed.message, {
          toSender: (message) => hub.send(socket, message),
          toUser: (message) => hub.sendToUser(signedIn.id, message),
        });
        try {
          await dispatch(handlers, parsed.message, ctx);
        } catch (error) {
          if (error instanceof AppError) {
            ctx.reply(errorAbout(ctx, String(error.message), error.code));
          } else {
            log.error({ err: error, type: parsed.message.type }, 'socket handler failed');
            ctx.reply(errorAbout(ctx, 'Internal server error', 'INTERNAL'));
          }
        }
      };

      socket.on('close', () => {
        clearTimeout(timer);
        perAddress.remove(address);
        if (user) hub.remove(user.id, socket);
      });
      socket.on('error', (error: Error & { code?: string }) => {
        // A frame over the limit is an attacker's (or a bug's) doing, closed with its reason: one
        // warning per such socket would let a flood of them flood the log too.
        if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') log.debug({ err: error }, 'frame too large');
        else log.warn({ err: error }, 'socket error');
      });

      if (request.query.token !== undefined) return reject('tokenInUrl');
      if (perAddress.get(address) > config.maxSocketsPerAddress) reject('tooManySocketsForAddress');
    },
  );
}
