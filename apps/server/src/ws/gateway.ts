import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { type GatewayServices, GatewaySocket } from './gateway-socket';
import type { MessageHandlers } from './message-handlers';
import type { RealtimeHub } from './realtime-hub';
import { SocketCounts } from './socket-limits';

export type { GatewayServices } from './gateway-socket';

const HEARTBEAT_MS = 30_000;

/**
 * `/ws/{userId}`: the token comes as a first `auth` message within a few seconds (docs/ARCHITECTURE.md, The socket); a
 * missing, invalid or foreign token closes the socket with 4401, and so does a `?token=` in the URL
 * (proxies log URLs). Until then a frame may be at most WS_PREAUTH_MAX_PAYLOAD_BYTES, refused at its
 * header. Sockets are capped per user and per client address; each socket's messages are limited
 * by a token bucket and a number in flight, and a socket that keeps sending after refusals is closed
 * (each socket: gateway-socket.ts). A socket that stops answering pings is ended.
 */
export async function gatewayRoutes(
  app: FastifyInstance,
  { auth, orgs, config, hub, handlers }: GatewayServices & { hub: RealtimeHub; handlers: MessageHandlers },
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
  let payloadLimitWarned = false;
  const shared = {
    auth,
    orgs,
    config,
    hub,
    handlers,
    perAddress: new SocketCounts(),
    noPayloadLimit: (log: FastifyInstance['log']) => {
      if (payloadLimitWarned) return;
      payloadLimitWarned = true;
      log.error('this version of ws has no per-socket payload limit: unauthenticated frames may be large');
    },
  };

  app.get<{ Params: { userId: string }; Querystring: { token?: string } }>(
    '/ws/:userId',
    { websocket: true },
    (socket, request) => {
      alive.set(socket, true);
      socket.on('pong', () => alive.set(socket, true));
      new GatewaySocket(
        socket,
        {
          userId: request.params.userId,
          tokenInUrl: request.query.token !== undefined,
          ip: request.ip,
          log: request.log,
        },
        shared,
      );
    },
  );
}
