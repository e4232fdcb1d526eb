import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '@argus/db';
import { WS_CLOSE_REASONS, WS_MAX_PAYLOAD_BYTES } from '@argus/protocol';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Services } from './app-services';
import { AuditRecorder } from './audit/recorder';
import { parseFormText, registerJsonBodyParser } from './body-limits';
import { composeApp } from './compose/compose-app';
import { runSteps } from './compose/lifecycle';
import type { Config } from './config';
import { registerTraceViewer } from './diagnostics/trace-viewer';
import { openApiRoutes } from './openapi/openapi-route';
import { invitationMailer } from './orgs/invitation-mailer';
import { InvitationService } from './orgs/invitation-service';
import { OrgAccess } from './orgs/org-access';
import { OrganizationService } from './orgs/organization-service';
import { registerAuthentication } from './plugins/authenticate';
import { registerErrorHandler } from './plugins/error-handler';
import { registerStatementScope } from './plugins/statement-scope';
import { RepairService } from './repairs/repair-service';
import { analyticsRoutes } from './routes/analytics';
import { auditRoutes } from './routes/audit';
import { authRoutes } from './routes/auth';
import { automationRoutes } from './routes/automation';
import { caseFileRoutes } from './routes/case-files';
import { cleanupRoutes } from './routes/cleanup';
import { comparisonRoutes } from './routes/comparisons';
import { conversationRoutes } from './routes/conversations';
import { demoRequestRoutes } from './routes/demo-requests';
import { exportRoutes } from './routes/exports';
import { failureGroupRoutes } from './routes/failure-groups';
import { generationRoutes } from './routes/generations';
import { healthRoutes } from './routes/health';
import { historyRoutes } from './routes/history';
import { invitationRoutes, organizationRoutes, organizationsRoutes } from './routes/organizations';
import { projectRoutes } from './routes/projects';
import { repairRoutes } from './routes/repairs';
import { runRoutes } from './routes/runs';
import { scheduleRoutes } from './routes/schedules';
import { screenshotRoutes } from './routes/screenshots';
import { sessionRoutes } from './routes/sessions';
import { settingsRoutes } from './routes/settings';
import { ssoRoutes } from './routes/sso';
import { suiteComparisonRoutes } from './routes/suite-comparisons';
import { tokenRoutes } from './routes/tokens';
import { uploadRoutes } from './routes/uploads';
import { visualRoutes } from './routes/visual';
import { webhookRoutes } from './routes/webhooks';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from './security-headers';
import { VisualService } from './visual/visual-service';
import { gatewayRoutes } from './ws/gateway';
import { automationHandlers } from './ws/handlers/automation';
import { comparisonHandlers } from './ws/handlers/comparison';
import { conversationHandlers } from './ws/handlers/conversation';
import { foundationHandlers, type MessageHandlers } from './ws/message-handlers';
import { RealtimeHub } from './ws/realtime-hub';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    hub: RealtimeHub;
  }
}

export { CONTENT_SECURITY_POLICY };

/**
 * Signatures travel in screenshot links; a client may still put a token in a URL (the socket refuses it,
 * 4401), and logs must never carry either; nor a single sign-on's code and state (routes/sso.ts).
 */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:token|access_token|sig|code|state)=)[^&]*/gi, '$1[redacted]');
}

export interface BuildOptions {
  config: Config;
  db: Database;
  /** Use `false` to silence logs in tests that build the app in-process. */
  logger?: boolean;
  /** Where log lines go (`server.ts`: a non-blocking standard output, logging/log-destination.ts). @default pino's stdout */
  logStream?: { write(line: string): unknown };
}

/** Builds the whole app: plugins, then services, then routes. `server.ts` only listens. */
export async function buildApp({
  config,
  db,
  logger = true,
  logStream,
}: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger && loggerOptions(config, logStream),
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
  });
  await registerPlugins(app, config);

  // The sockets' hub first: the services reach users through it (realtime/user-channel.ts).
  const hub = new RealtimeHub(app.log);

  // Services: one process's, or with REDIS_URL a web process's whose work is queued for worker
  // processes (compose/compose-app.ts). Its lifecycle starts once the app is ready and stops with it.
  const { services, lifecycle } = await composeApp(config, db, app.log, hub);
  app.addHook('onReady', async () => runSteps(lifecycle.start));
  app.addHook('onClose', async () => runSteps(lifecycle.stop));
  app.decorate('services', services);
  app.decorate('hub', hub);
  // The audit log's one recorder, which routes reach through the request (audit/recorder.ts).
  app.decorate('auditRecorder', new AuditRecorder(services.repos.auditLog, app.log));
  const orgs = new OrgAccess(services.repos.organizations);
  registerAuthentication(app, services.auth, services.apiTokens, orgs);
  await registerRoutes(app, services, hub, orgs);
  await registerTraceViewer(app);
  await registerWebApp(app, config.webDist);

  return app;
}

/** Log lines at LOG_LEVEL, with tokens, cookies, passwords and signatures left out. */
function loggerOptions(config: Config, logStream: BuildOptions['logStream']): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    ...(logStream && { stream: logStream }),
    redact: ['req.headers.authorization', 'req.headers.cookie', 'body.password', 'body.token'],
    serializers: {
      req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
    },
  };
}

/** The error handler, the body parsers, the socket server and the security headers. */
async function registerPlugins(app: FastifyInstance, config: Config): Promise<void> {
  registerErrorHandler(app);
  // Each API read's database work is limited in time and ends with its client (docs/HISTORY.md#limits).
  registerStatementScope(app, config.databaseStatementTimeoutMs);
  registerJsonBodyParser(app, config.bodyLimit);
  await app.register(formbody, { bodyLimit: config.bodyLimit, parser: parseFormText });
  await app.register(websocket, {
    // The server-wide limit, for authenticated sockets; ws/gateway.ts lowers it on each socket until
    // it is authenticated.
    options: { maxPayload: WS_MAX_PAYLOAD_BYTES },
    // A frame over the limit has been answered with a close saying why (ws/gateway.ts, which also
    // stops reading the socket), and ws ends the socket itself: terminating it here could reset the
    // connection before the close frame is read, and an error line per socket would let a flood of
    // them flood the log. Any other socket error ends that socket, as the plugin's default does.
    errorHandler(error, socket, request) {
      if ((error as { code?: string }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') return;
      request.log.error(error);
      socket.terminate();
    },
    // Tell clients why they were dropped (1012: restarting), so they reconnect instead of giving up.
    preClose(this: FastifyInstance, done: () => void) {
      const { code, reason } = WS_CLOSE_REASONS.serverShutdown;
      for (const socket of this.websocketServer.clients) {
        // One closing already was told why (a limit, ws/gateway.ts) and may never answer: the
        // server's stop does not wait ws's 30 s for it.
        if (socket.readyState === socket.CLOSING) socket.terminate();
        else socket.close(code, reason);
      }
      this.websocketServer.close(() => done());
    },
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.headers(SECURITY_HEADERS);
  });
}

/** The socket handlers and every route plugin, each given the services it uses, never the whole bag. */
async function registerRoutes(
  app: FastifyInstance,
  services: Services,
  hub: RealtimeHub,
  orgs: OrgAccess,
): Promise<void> {
  const { config } = services;
  // Socket handlers, one set per capability, built on its services.
  const handlers: MessageHandlers = {
    ...foundationHandlers(),
    ...automationHandlers(services.automation),
    ...conversationHandlers(services.conversationFront),
    ...comparisonHandlers(services.comparisonFront),
  };

  // Each route plugin gets the services it uses (its options type lists them), never the whole bag.
  const { auth, repos, blobs, urls, limits } = services;
  await app.register(healthRoutes, { db: services.db, config });
  await app.register(openApiRoutes, { config });
  await app.register(authRoutes, { prefix: '/api/auth', auth, repos, config, limits });
  await app.register(authRoutes, { prefix: '/auth', auth, repos, config, limits });
  await app.register(ssoRoutes, { prefix: '/api/auth/sso', auth, repos, config, limits });
  await app.register(sessionRoutes, { prefix: '/api/sessions', repos });
  await app.register(projectRoutes, {
    prefix: '/api/projects',
    projects: services.projects,
    automation: services.automation,
  });
  await app.register(generationRoutes, {
    prefix: '/api/projects',
    projects: services.projects,
    automation: services.automation,
    repos,
  });
  await app.register(exportRoutes, { prefix: '/api/projects', projects: services.projects, limits });
  await app.register(suiteComparisonRoutes, {
    prefix: '/api/projects',
    projects: services.projects,
    automation: services.automation,
    repos,
    db: services.db,
  });
  await app.register(tokenRoutes, { prefix: '/api/tokens', apiTokens: services.apiTokens });
  await registerOrganizationRoutes(app, services, hub);
  await app.register(runRoutes, {
    prefix: '/api/runs',
    repos,
    automation: services.automation,
    urls,
    publicUrl: config.publicUrl ?? null,
  });
  await app.register(historyRoutes, { prefix: '/api/history', history: services.history });
  await app.register(failureGroupRoutes, { prefix: '/api/failure-groups', repos });
  await app.register(repairRoutes, {
    prefix: '/api',
    repairs: new RepairService({ repos, projects: services.projects }),
  });
  await app.register(visualRoutes, {
    prefix: '/api',
    visual: new VisualService({ repos, urls }),
    blobs,
    urls,
  });
  await app.register(analyticsRoutes, { prefix: '/api/analytics', analytics: services.analytics, limits });
  await app.register(auditRoutes, { prefix: '/api/audit', repos, limits });
  await app.register(scheduleRoutes, { prefix: '/api/projects', schedules: services.schedules });
  await app.register(webhookRoutes, { prefix: '/api/projects', notifications: services.notifications });
  await app.register(settingsRoutes, {
    prefix: '/api/settings',
    modelSettings: services.modelSettings,
    limits,
    repos,
    config,
  });
  await app.register(demoRequestRoutes, { repos, limits });
  await app.register(automationRoutes, {
    prefix: '/api/automation',
    repos,
    urls,
    config,
    automation: services.automation,
  });
  await app.register(screenshotRoutes, { repos, blobs, urls, config });
  await app.register(caseFileRoutes, { prefix: '/api/runs', repos, blobs, urls, config });
  await app.register(conversationRoutes, {
    prefix: '/api/conversations',
    repos,
    config,
    conversations: services.conversations,
    pool: services.pool,
  });
  await app.register(uploadRoutes, { repos, blobs, urls, config, comparisons: services.comparisons });
  await app.register(comparisonRoutes, { repos, blobs, urls, comparisons: services.comparisons });
  await app.register(gatewayRoutes, { auth, orgs, config, hub, handlers });
  await app.register(cleanupRoutes, { auth, limits, hub, handlers });
}

/** Organizations, their members, invitations and tokens (orgs/, routes/organizations.ts). */
async function registerOrganizationRoutes(app: FastifyInstance, services: Services, hub: RealtimeHub) {
  const departure = { closeSockets: (orgId: string, userId: string) => hub.closeMember(orgId, userId) };
  const deps = {
    organizations: new OrganizationService(services.repos, services.apiTokens, departure),
    invitations: new InvitationService(services.repos, invitationMailer(services.config)),
    publicUrl: services.config.publicUrl ?? null,
    ssoConfigured: services.config.oidc !== undefined,
  };
  await app.register(organizationsRoutes, { prefix: '/api/organizations', ...deps });
  await app.register(organizationRoutes, { prefix: '/api/organization', ...deps });
  await app.register(invitationRoutes, { prefix: '/api/invitations', ...deps });
}

/** Serves the built SPA; unknown non-API GETs get index.html so client-side routes survive a reload. */
async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const hasBuild = existsSync(join(webDist, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, { root: webDist, prefix: '/', index: 'index.html', wildcard: true });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const isApi = /^\/(api|auth|ws|cleanup)(\/|$)/.test(path);
    if (request.method === 'GET' && !isApi) {
      if (hasBuild) return reply.type('text/html').sendFile('index.html');
      return reply
        .code(503)
        .type('text/plain')
        .send('The web app is not built: run `npm run build` (npm start does it for you).');
    }
    return reply.code(404).send({ detail: 'Not found', code: 'NOT_FOUND' });
  });
}
