import type { UserRow } from '@argus/db';
import {
  describeClientFrame,
  PROTOCOL_VERSION,
  parseClientMessage,
  WS_AUTH_TIMEOUT_MS,
  WS_CLOSE_REASONS,
  type WsCloseReason,
} from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { checkJsonShape } from '../body-limits';
import { AppError } from '../errors';
import type { Services } from '../services';
import { dispatch, errorAbout, type MessageHandlers, messageContext } from './message-handlers';
import type { RealtimeHub } from './realtime-hub';

const HEARTBEAT_MS = 30_000;

/**
 * `/ws/{userId}`: the token comes as `?token=` or as a first `auth` message within a few seconds
 * (DESIGN.md §5); a missing, invalid or foreign token closes the socket with 4401.
 */
export async function gatewayRoutes(
  app: FastifyInstance,
  { services, hub, handlers }: { services: Services; hub: RealtimeHub; handlers: MessageHandlers },
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

  app.get<{ Params: { userId: string }; Querystring: { token?: string } }>(
    '/ws/:userId',
    { websocket: true },
    (socket, request) => {
      const { userId } = request.params;
      const log = request.log.child({ ws: userId });
      let user: UserRow | null = null;
      let authenticating = false;
      // Frames that arrive while the query token is being checked wait for the verdict, in order.
      const pending: string[] = [];
      alive.set(socket, true);
      socket.on('pong', () => alive.set(socket, true));

      const reject = (why: WsCloseReason) => {
        const { code, reason } = WS_CLOSE_REASONS[why];
        if (socket.readyState === socket.OPEN) socket.close(code, reason);
      };
      const timer = setTimeout(() => reject('authTimeout'), WS_AUTH_TIMEOUT_MS);

      const authenticate = async (token: string) => {
        authenticating = true;
        try {
          const found = await services.auth.userFromToken(token);
          if (found.id !== userId) return reject('tokenForeign');
          if (socket.readyState !== socket.OPEN) return;
          clearTimeout(timer);
          user = found;
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

      socket.on('message', (raw, isBinary) => {
        const text = isBinary ? '' : raw.toString();
        if (!user && authenticating) pending.push(text);
        else void handle(text);
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
        if (user) hub.remove(user.id, socket);
      });
      socket.on('error', (error) => log.warn({ err: error }, 'socket error'));

      const token = request.query.token;
      if (token) void authenticate(token);
    },
  );
}
