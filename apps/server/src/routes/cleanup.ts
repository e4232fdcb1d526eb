import { CleanupBeaconSchema } from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../app-services';
import { parseJsonText } from '../body-limits';
import { AppError } from '../errors';
import { parseWith } from '../validation';
import { dispatch, type MessageHandlers, messageContext } from '../ws/message-handlers';
import type { RealtimeHub } from '../ws/realtime-hub';

/** What the beacon uses of the app's services (app.ts hands it only these). */
export type CleanupRouteServices = Pick<Services, 'auth'> & {
  limits: Pick<Services['limits'], 'cleanupPerIp'>;
};

/** `POST /cleanup`: the page-unload beacon; it can stop only the caller's own sessions. */
export async function cleanupRoutes(
  app: FastifyInstance,
  { hub, handlers, ...services }: CleanupRouteServices & { hub: RealtimeHub; handlers: MessageHandlers },
) {
  app.post('/cleanup', async (request, reply) => {
    // No login here (the token is in the body): bound what one client can make the server check.
    const { allowed, retryAfterSeconds } = await services.limits.cleanupPerIp.hit(request.ip);
    if (!allowed) throw new AppError('RATE_LIMITED', undefined, { 'retry-after': String(retryAfterSeconds) });
    let body: unknown = request.body;
    // sendBeacon with a string body arrives as text/plain: the same limits as a JSON body.
    if (typeof body === 'string') body = parseJsonText(body);
    // A beacon cannot set headers, so its token travels in the body (a departure: docs/ARCHITECTURE.md#departures-from-the-spec-and-why).
    const { token, ...message } = parseWith(CleanupBeaconSchema, body, 'body');
    const user = await services.auth.userFromToken(token);
    const toUser = (m: Parameters<typeof hub.sendToUser>[1]) => hub.sendToUser(user.id, m);
    // What a beacon stops is the caller's own (its actions are `self`): their personal organization.
    const org = { id: user.id, name: user.username, role: 'owner' as const, personal: true };
    await dispatch(handlers, message, messageContext(user, org, message, { toSender: toUser, toUser }));
    return reply.code(202).send({ detail: 'Cleanup accepted' });
  });
}
