import { poolBrowsers } from '@argus/ai';
import { runTestCase } from '@argus/engine';
import type { FastifyBaseLogger } from 'fastify';
import { AutomationService } from '../automation/automation-service';
import { type EngineResolverDeps, engineResolver, modelClientResolver } from '../automation/engines';
import { ComparisonService } from '../comparison/comparison-service';
import type { Config } from '../config';
import { chatResolver } from '../conversation/chat-engines';
import { ConversationService } from '../conversation/conversation-service';
import type { RateLimit } from '../limits/rate-limiter';
import type { UserChannel } from '../realtime/user-channel';
import { RunLine } from '../run-lines/run-line';
import { visualStore } from '../visual/visual-store';
import type { Core } from './core';

/**
 * The work this process does over its own browsers: what one process runs, and what a worker runs its
 * jobs on. A web process builds it too (its fronts queue the work but ask it what concerns none).
 */
export interface LocalWork {
  automation: AutomationService;
  conversations: ConversationService;
  comparisons: ComparisonService;
}

/**
 * `channel`: the user's sockets (this process's hub, or Redis on a worker). `uploadLimit`: UPLOADS_PER_USER
 * as the serving process counts it (limits/rate-limits.ts); none: the comparisons count their own.
 */
export function buildLocalWork(
  config: Config,
  core: Core,
  log: FastifyBaseLogger,
  channel: UserChannel,
  { uploadLimit }: { uploadLimit?: RateLimit } = {},
): LocalWork {
  const { repos, pool, modelSettings, recorder, activities } = core;
  // Every model call is charged to the user's budget and model, whichever capability makes it.
  const models: Omit<EngineResolverDeps, 'stepCache'> = {
    effectiveModel: (userId) => modelSettings.effectiveModel(userId),
    checkBudget: (userId) => modelSettings.checkBudget(userId),
    recordUsage: (userId, record, refs) => modelSettings.recordUsage(userId, record, refs),
    log,
  };
  const checkSession = (userId: string, sessionId: string | null) => recorder.checkSession(userId, sessionId);
  // The engine, over this server's browser pool, is handed to the capabilities that drive it.
  const automation = new AutomationService({
    config,
    activities,
    // Runs and generations wait their turn: ORG_MAX_CONCURRENT_RUNS per organization, MAX_BROWSERS in all.
    line: new RunLine({ browsers: config.maxBrowsers, perOrg: config.orgMaxConcurrentRuns }),
    recorder,
    // The same browser work the mutation test and the bench hand generateSuite.
    browsers: poolBrowsers(pool),
    runTest: (testCase, options) => runTestCase(pool, testCase, options),
    // Work on a project environment signs in through the pool and reads the project's values.
    sessions: pool,
    projects: core.projects,
    engineFor: engineResolver({ ...models, stepCache: repos.stepCache }),
    log,
    savedRunFinished: (userId, runId) => core.notifications.runFinished(userId, runId),
    repairs: repos.caseRepairs,
    // A project run's visual checks compare with the project's baselines and wait for review there.
    visual: visualStore(repos, core.blobs),
    channel,
  });
  const conversations = new ConversationService({
    config,
    activities,
    openSession: (options) => pool.openSession(options),
    chatFor: chatResolver(models),
    store: {
      forSession: (userId, sessionId) => repos.conversations.forSession(userId, sessionId),
      create: (userId, input) => repos.conversations.create(userId, input),
      addMessage: (userId, id, input) => repos.conversations.addMessage(userId, id, input),
    },
    checkSession,
    hub: channel,
    log,
  });
  const comparisons = new ComparisonService({
    config,
    repos,
    blobs: core.blobs,
    urls: core.urls,
    activities,
    openSession: (options) => pool.openSession(options),
    policy: pool.policy,
    figmaToken: (userId) => modelSettings.figmaToken(userId),
    reviewModel: modelClientResolver(models),
    checkSession,
    uploadLimit,
    log,
  });
  return { automation, conversations, comparisons };
}
