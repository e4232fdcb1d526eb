import { join } from 'node:path';
import { poolBrowsers } from '@argus/ai';
import { type Database, type Repositories, repositories } from '@argus/db';
import { BrowserPool, runTestCase, TargetPolicy } from '@argus/engine';
import { Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import { ActivityRegistry } from '../activity/activity-registry';
import { ApiTokenService } from '../auth/api-tokens';
import { type AuthService, createAuthService, loadJwtSecret } from '../auth/auth-service';
import type { AutomationFront } from '../automation/automation-front';
import { AutomationService } from '../automation/automation-service';
import { engineResolver, modelClientResolver } from '../automation/engines';
import { ComparisonService } from '../comparison/comparison-service';
import type { Config } from '../config';
import { chatResolver } from '../conversation/chat-engines';
import type { ConversationFront } from '../conversation/conversation-front';
import { ConversationService } from '../conversation/conversation-service';
import { BrowserBudget } from '../limits/quotas';
import { RateLimiter } from '../limits/rate-limiter';
import { Notifications } from '../notifications/webhooks';
import { ProjectService } from '../projects/project-service';
import type { UserChannel } from '../realtime/user-channel';
import { RetentionSweeper } from '../retention/retention-sweeper';
import { RunRecorder } from '../runs/run-recorder';
import { OrphanRunSweeper } from '../scale/orphan-runs';
import { QueuedAutomation } from '../scale/queued-automation';
import { QueuedComparisons } from '../scale/queued-comparisons';
import { QueuedConversations } from '../scale/queued-conversations';
import { RedisUserChannel } from '../scale/redis-channel';
import type { RedisConnections } from '../scale/redis-connections';
import { AUTOMATION_QUEUE, COMPARISON_QUEUE, CONVERSATION_QUEUE } from '../scale/redis-keys';
import { ScheduleService } from '../schedules/schedule-service';
import { Scheduler } from '../schedules/scheduler';
import { cappedFetch, policyFetch } from '../security/policy-fetch';
import { loadSecretsKey, Secrets } from '../security/secrets';
import { ModelSettingsService } from '../settings/model-settings';
import { BlobStore } from '../storage/blob-store';
import { createSignedUrls, type SignedUrls } from '../storage/signed-urls';

/** Everything routes and the socket gateway use, built once per app. */
export interface Services {
  config: Config;
  db: Database;
  repos: Repositories;
  auth: AuthService;
  /** Personal API tokens (docs/CI.md#api-tokens), accepted beside login tokens on the REST API. */
  apiTokens: ApiTokenService;
  blobs: BlobStore;
  /** Short-lived signed links to stored screenshots. */
  urls: SignedUrls;
  pool: BrowserPool;
  /** MAX_BROWSERS_PER_USER: the browser contexts each user's work holds. */
  browsers: BrowserBudget;
  /** What is under way per user: generations, runs, live browsers and comparisons. */
  activities: ActivityRegistry;
  /** Writes runs, results, logs and screenshots as they happen. */
  recorder: RunRecorder;
  /**
   * Generations and runs as routes, sockets and the scheduler start them: this process's own
   * (`localAutomation`), or with REDIS_URL in a web process, queued for worker processes.
   */
  automation: AutomationFront;
  /** This process's automation over its own browsers (what a worker process runs its jobs on). */
  localAutomation: AutomationService;
  /** With REDIS_URL in a web process: the queue's side here (app.ts starts and stops it). */
  queuedAutomation?: QueuedAutomation;
  /** With REDIS_URL, in a web process: marks runs whose job is lost interrupted (app.ts starts it). */
  orphanRuns?: OrphanRunSweeper;
  /** With REDIS_URL, in a web process: the comparisons' queue (their work runs on workers). */
  queuedComparisons?: QueuedComparisons;
  /** Conversational mode's live browsers. */
  conversations: ConversationService;
  /**
   * Conversational mode as the socket handlers call it: `conversations`, or with REDIS_URL in a web
   * process, live browsers held by workers (scale/queued-conversations.ts).
   */
  conversationFront: ConversationFront;
  /** With REDIS_URL, in a web process: the live browsers' queue (app.ts stops it). */
  queuedConversations?: QueuedConversations;
  /** Design comparison: uploads' checks live in comparison/design-uploads.ts, the work here. */
  comparisons: ComparisonService;
  /** Encrypts users' API keys and tokens at rest (SECRETS_KEY, else DATA_DIR/secrets.key). */
  secrets: Secrets;
  /** Projects: environments, variables and secrets (encrypted with `secrets`), saved suites. */
  projects: ProjectService;
  /** Each user's model, Figma token and monthly budget (Settings), over the server's AI_* defaults. */
  modelSettings: ModelSettingsService;
  /** Saved suites' schedules (docs/SCHEDULES.md): what the project page reads and writes. */
  schedules: ScheduleService;
  /** Runs schedules when they come due and sweeps due webhook deliveries (SCHEDULER_ENABLED; app.ts starts it). */
  scheduler: Scheduler;
  /** A project's webhooks: told when a saved suite's run is over, signs and delivers with retries. */
  notifications: Notifications;
  /** Removes history older than HISTORY_RETENTION_DAYS, rows and blobs together (app.ts starts it). */
  retention: RetentionSweeper;
  limits: {
    loginPerIp: RateLimiter;
    loginFailuresPerUser: RateLimiter;
    registrationsPerIp: RateLimiter;
    demoRequestsPerIp: RateLimiter;
    cleanupPerIp: RateLimiter;
    /** 'Test connection' presses per user per minute. */
    testConnectionPerUser: RateLimiter;
  };
}

export async function createServices(
  config: Config,
  db: Database,
  log: FastifyBaseLogger,
  /** The user's sockets (the socket layer's hub, built first so no service is wired after construction). */
  channel: UserChannel,
  /**
   * One process (the default); or, with REDIS_URL, a web process queueing automation for workers over
   * `redis`, or a worker (docs/DEPLOYMENT.md#how-work-flows).
   */
  scale: { role: 'single' } | { role: 'web'; redis: RedisConnections } | { role: 'worker' } = {
    role: 'single',
  },
): Promise<Services> {
  const repos = repositories(db);
  const blobs = new BlobStore(join(config.dataDir, 'blobs'));
  // The browser must never reach this server, whatever ALLOWED_TARGETS says.
  const self = [{ host: config.host === 'localhost' ? '127.0.0.1' : config.host, port: config.port }];
  const pool = new BrowserPool({
    policy: new TargetPolicy({ allowedTargets: config.allowedTargets, self }),
    chromiumPath: config.chromiumPath,
    wsEndpoint: config.browserWsEndpoint,
    proxyHost: config.policyProxyHost,
    proxyPublicHost: config.policyProxyPublicHost,
    maxContexts: config.maxBrowsers,
  });
  const secret = await loadJwtSecret(config.dataDir, config.jwtSecret);
  const urls = createSignedUrls({ secret, ttlSeconds: config.signedUrlTtlSeconds });
  const browsers = new BrowserBudget(config.maxBrowsersPerUser);
  const activities = new ActivityRegistry({ browsers, log });
  const recorder = new RunRecorder({
    repos,
    blobs,
    urls,
    log,
    maxStoredBytesPerUser: config.maxStoredBytesPerUser,
  });
  const secrets = new Secrets(await loadSecretsKey(config.dataDir, config.secretsKey));
  const projects = new ProjectService({ repos, secrets, policy: pool.policy });
  // A base URL a user types is held to the same policy as the browser (ALLOWED_TARGETS, never metadata).
  const modelSettings = new ModelSettingsService({
    config,
    repos,
    secrets,
    policy: pool.policy,
    fetch: policyFetch(pool.policy),
    // The operator's own model is not held to the policy (it may be local), but its answers are capped too.
    serverFetch: cappedFetch(),
  });
  // Webhook URLs are held to the browser's policy when saved, and each delivery's connection again.
  const notifications = new Notifications({
    config,
    repos,
    secrets,
    policy: pool.policy,
    fetch: policyFetch(pool.policy, { maxResponseBytes: 64 * 1024 }),
    log,
  });
  // The engine, over this server's browser pool, is handed to the capabilities that drive it.
  const localAutomation = new AutomationService({
    config,
    activities,
    recorder,
    // The same browser work the mutation test and the bench hand generateSuite.
    browsers: poolBrowsers(pool),
    runTest: (testCase, options) => runTestCase(pool, testCase, options),
    // Work on a project environment signs in through the pool and reads the project's values.
    sessions: pool,
    projects,
    engineFor: engineResolver({
      effectiveModel: (userId) => modelSettings.effectiveModel(userId),
      checkBudget: (userId) => modelSettings.checkBudget(userId),
      recordUsage: (userId, record, refs) => modelSettings.recordUsage(userId, record, refs),
      stepCache: repos.stepCache,
      log,
    }),
    log,
    savedRunFinished: (userId, runId) => notifications.runFinished(userId, runId),
    channel,
  });
  // A web process with REDIS_URL: automation and comparisons are queued for workers.
  const redis = scale.role === 'web' ? scale.redis : undefined;
  const users = redis
    ? new RedisUserChannel({ messages: redis.commands, frames: redis.frames, log })
    : undefined;
  const automationQueue = redis ? new Queue(AUTOMATION_QUEUE, { connection: redis.queue }) : undefined;
  const queuedAutomation =
    redis && automationQueue && users
      ? new QueuedAutomation({
          queue: automationQueue,
          redis: redis.commands,
          subscriber: redis.subscriber,
          users,
          createRun: (userId, ids) => localAutomation.prepareSavedRun(userId, ids),
          log,
        })
      : undefined;
  const orphanRuns = automationQueue
    ? new OrphanRunSweeper({ queue: automationQueue, testRuns: repos.testRuns, log })
    : undefined;
  const queuedComparisons =
    redis && users
      ? new QueuedComparisons({
          queue: new Queue(COMPARISON_QUEUE, { connection: redis.queue }),
          redis: redis.commands,
          users,
          log,
        })
      : undefined;
  const automation: AutomationFront = queuedAutomation ?? localAutomation;
  const schedules = new ScheduleService({ repos, projects });
  const scheduler = new Scheduler({
    config,
    repos,
    automation,
    deliverDue: (now) => notifications.deliverDue(now),
    log,
  });
  const conversations = new ConversationService({
    config,
    activities,
    openSession: (options) => pool.openSession(options),
    chatFor: chatResolver({
      effectiveModel: (userId) => modelSettings.effectiveModel(userId),
      checkBudget: (userId) => modelSettings.checkBudget(userId),
      recordUsage: (userId, record, refs) => modelSettings.recordUsage(userId, record, refs),
      log,
    }),
    store: {
      forSession: (userId, sessionId) => repos.conversations.forSession(userId, sessionId),
      create: (userId, input) => repos.conversations.create(userId, input),
      addMessage: (userId, id, input) => repos.conversations.addMessage(userId, id, input),
    },
    checkSession: (userId, sessionId) => recorder.checkSession(userId, sessionId),
    hub: channel,
    log,
  });
  const queuedConversations =
    redis && users
      ? new QueuedConversations({
          config,
          queue: new Queue(CONVERSATION_QUEUE, { connection: redis.queue }),
          redis: redis.commands,
          users,
          local: conversations,
          checkSession: (userId, sessionId) => recorder.checkSession(userId, sessionId),
          log,
        })
      : undefined;
  const comparisons = new ComparisonService({
    config,
    repos,
    blobs,
    urls,
    activities,
    openSession: (options) => pool.openSession(options),
    policy: pool.policy,
    figmaToken: (userId) => modelSettings.figmaToken(userId),
    reviewModel: modelClientResolver({
      effectiveModel: (userId) => modelSettings.effectiveModel(userId),
      checkBudget: (userId) => modelSettings.checkBudget(userId),
      recordUsage: (userId, record, refs) => modelSettings.recordUsage(userId, record, refs),
      log,
    }),
    checkSession: (userId, sessionId) => recorder.checkSession(userId, sessionId),
    handOff: queuedComparisons,
    log,
  });
  const windowMs = config.rateLimitWindowSeconds * 1000;
  return {
    config,
    db,
    repos,
    auth: createAuthService({ users: repos.users, secret, tokenTtlSeconds: config.tokenTtlSeconds }),
    apiTokens: new ApiTokenService(repos),
    blobs,
    urls,
    pool,
    browsers,
    activities,
    recorder,
    automation,
    localAutomation,
    queuedAutomation,
    queuedComparisons,
    orphanRuns,
    conversations,
    conversationFront: queuedConversations ?? conversations,
    queuedConversations,
    comparisons,
    secrets,
    projects,
    modelSettings,
    schedules,
    scheduler,
    notifications,
    retention: new RetentionSweeper({
      config,
      repos,
      blobs,
      log,
      refreshStatistics: db.kind === 'pglite' ? () => db.exec('ANALYZE') : undefined,
    }),
    limits: {
      loginPerIp: new RateLimiter(config.loginAttemptsPerIp, windowMs),
      loginFailuresPerUser: new RateLimiter(config.loginFailuresPerUser, windowMs),
      registrationsPerIp: new RateLimiter(config.registrationsPerIp, windowMs),
      demoRequestsPerIp: new RateLimiter(config.registrationsPerIp, windowMs),
      cleanupPerIp: new RateLimiter(config.cleanupRequestsPerIp, windowMs),
      testConnectionPerUser: new RateLimiter(10, 60_000),
    },
  };
}
