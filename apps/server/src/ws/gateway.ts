import type { UserRow } from '@argus/db';
import { parseClientMessage, WS_AUTH_TIMEOUT_MS, WS_CLOSE } from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { checkJsonShape } from '../body-limits';
import { AppError } from '../errors';
import type { Services } from '../services';
import { dispatch, type MessageHandlers } from './message-handlers';
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

      const reject = (reason: string) => {
        if (socket.readyState === socket.OPEN) socket.close(WS_CLOSE.unauthenticated, reason);
      };
      const timer = setTimeout(() => reject('Authentication timed out'), WS_AUTH_TIMEOUT_MS);

      const authenticate = async (token: string) => {
        authenticating = true;
        try {
          const found = await services.auth.userFromToken(token);
          if (found.id !== userId) return reject('Token does not belong to this user');
          if (socket.readyState !== socket.OPEN) return;
          clearTimeout(timer);
          user = found;
          hub.add(found.id, socket);
          hub.send(socket, {
            type: 'connection_established',
            data: { user_id: found.id, server_time: new Date().toISOString() },
          });
          for (const text of pending.splice(0)) await handle(text);
        } catch (error) {
          reject(error instanceof AppError ? String(error.detail) : 'Authentication failed');
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
          else reject('Authenticate first');
          return;
        }
        if (!parsed.ok) {
          hub.send(socket, { type: 'error', data: { message: parsed.reason, code: 'VALIDATION' } });
          return;
        }
        const signedIn = user;
        try {
          await dispatch(handlers, parsed.message, {
            user: signedIn,
            reply: (message) => hub.send(socket, message),
            broadcast: (message) => hub.sendToUser(signedIn.id, message),
          });
        } catch (error) {
          if (error instanceof AppError) {
            hub.send(socket, { type: 'error', data: { message: String(error.message), code: error.code } });
          } else {
            log.error({ err: error, type: parsed.message.type }, 'socket handler failed');
            hub.send(socket, { type: 'error', data: { message: 'Internal server error', code: 'INTERNAL' } });
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
